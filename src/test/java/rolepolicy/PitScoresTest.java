package rolepolicy;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The mutation score of each package from PIT's report ({@code target/pit-reports/mutations.xml},
 * written by {@code mvn pitest:mutationCoverage}), printed and held to the floors of {@code
 * pit-floors.properties}. A mutant counts as detected when a test killed it, it timed out or it ran
 * out of memory, as PIT counts; a mutant no test covers counts as survived.
 */
@Tag("pit")
class PitScoresTest {
  static final Path REPORT = Path.of("target/pit-reports/mutations.xml");

  @Test
  void everyPackageHoldsItsMutationScoreFloor() throws Exception {
    assertTrue(Files.isRegularFile(REPORT), REPORT + " not found: run mvn -B test-compile pitest:mutationCoverage first");
    Document xml = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(REPORT.toFile());
    NodeList mutations = xml.getElementsByTagName("mutation");
    Map<String, int[]> byPackage = new TreeMap<>(); // {detected, total}
    for (int i = 0; i < mutations.getLength(); i++) {
      Element m = (Element) mutations.item(i);
      String cls = m.getElementsByTagName("mutatedClass").item(0).getTextContent();
      String pkg = cls.substring(0, cls.lastIndexOf('.'));
      int[] counts = byPackage.computeIfAbsent(pkg, p -> new int[2]);
      counts[0] += "true".equals(m.getAttribute("detected")) ? 1 : 0;
      counts[1]++;
    }
    Properties floors = new Properties();
    try (InputStream in = PitScoresTest.class.getResourceAsStream("/pit-floors.properties")) {
      floors.load(in);
    }
    StringBuilder table = new StringBuilder("| package | mutants | detected | score | floor |\n|---|---:|---:|---:|---:|\n");
    List<String> below = new ArrayList<>();
    for (Map.Entry<String, int[]> e : byPackage.entrySet()) {
      double score = 100.0 * e.getValue()[0] / e.getValue()[1];
      String floor = floors.getProperty(e.getKey());
      table.append(String.format(Locale.ROOT, "| %s | %d | %d | %.1f %% | %s |%n", e.getKey(), e.getValue()[1],
          e.getValue()[0], score, floor == null ? "-" : floor + " %"));
      if (floor != null && score < Double.parseDouble(floor)) {
        below.add(String.format(Locale.ROOT, "%s: %.1f %% < %s %%", e.getKey(), score, floor));
      }
    }
    for (String pkg : floors.stringPropertyNames()) {
      if (!byPackage.containsKey(pkg)) {
        below.add(pkg + ": no mutants in the report (was it mutated?)");
      }
    }
    System.out.print(table);
    Files.writeString(REPORT.resolveSibling("scores.md"), table.toString());
    assertTrue(below.isEmpty(), "mutation score below its floor: " + below);
  }
}
