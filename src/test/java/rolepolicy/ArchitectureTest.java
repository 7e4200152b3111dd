package rolepolicy;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The floor plan: each package of the main code at a level, and no package depending on another
 * package of its level or of a level above (docs/architecture.md).
 */
class ArchitectureTest {
  /** The levels, lowest first: a package may use the packages of the levels below its own. */
  static final List<List<String>> LEVELS = List.of(
      List.of("model", "io", "html"),
      List.of("cache", "spider", "llm"),
      List.of("sql", "db"),
      List.of("engine", "skeleton", "tablescore", "exactmatch"),
      List.of("ports"),
      List.of("generate", "evaluate", "casebank", "decide"),
      List.of("report", "run", "interact"),
      List.of("explain", "diff", "compare"),
      List.of("bench"),
      List.of("cli"));

  private static final JavaClasses MAIN =
      new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("rolepolicy");

  @Test
  void everyPackageHasALevel() {
    TreeSet<String> packages = MAIN.stream()
        .map(JavaClass::getPackageName)
        .map(p -> p.substring("rolepolicy.".length()).split("\\.")[0])
        .collect(Collectors.toCollection(TreeSet::new));
    TreeSet<String> placed = LEVELS.stream().flatMap(List::stream).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(placed, packages, "a package of src/main/java missing from LEVELS, or one LEVELS names that is gone");
  }

  @Test
  void onlyTheSqlLayerParsesSql() {
    noClasses().that().resideOutsideOfPackage("rolepolicy.sql..")
        .should().dependOnClassesThat().resideInAPackage("net.sf.jsqlparser.parser..")
        .because("SQL text is parsed in one place, rolepolicy.sql (SqlAnalyzer.parseSelect, parseSelectFastFirst)")
        .check(MAIN);
  }

  @Test
  void noPackageDependsOnItsLevelOrAbove() {
    for (int level = 0; level < LEVELS.size(); level++) {
      for (String own : LEVELS.get(level)) {
        List<String> notBelow = new ArrayList<>();
        for (int other = level; other < LEVELS.size(); other++) {
          LEVELS.get(other).stream().filter(p -> !p.equals(own)).forEach(p -> notBelow.add("rolepolicy." + p + ".."));
        }
        if (notBelow.isEmpty()) {
          continue;
        }
        noClasses().that().resideInAPackage("rolepolicy." + own + "..")
            .should().dependOnClassesThat().resideInAnyPackage(notBelow.toArray(String[]::new))
            .because(own + " is at level " + level + " of ArchitectureTest.LEVELS: it may use the levels below only")
            .check(MAIN);
      }
    }
  }
}
