package rolepolicy.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.kie.api.KieBase;
import rolepolicy.TestData;

/** Compiled rules cached on disk: read back, they decide as the built ones; stale or broken entries are never used. */
class RuleCacheTest {
  @TempDir Path cache;
  @TempDir Path rules;

  private static Map<String, List<ColumnPolicy>> policies(KieBase base) {
    Map<String, List<ColumnPolicy>> columns = new TreeMap<>();
    new PolicyAssigner(base).assign(TestData.schemas(), List.of(), "no overrides")
        .forEach((db, p) -> columns.put(db, p.columns()));
    return columns;
  }

  private static List<Path> entries(Path folder) throws Exception {
    try (var files = Files.list(folder)) {
      return files.filter(f -> f.getFileName().toString().startsWith("rules-")).toList();
    }
  }

  @Test
  void aCachedRuleBaseDecidesAsTheBuiltOne() throws Exception {
    KieBase built = RuleBase.load(TestData.ruleSet(), cache);
    assertEquals(1, entries(cache).size());
    KieBase cached = RuleBase.load(TestData.ruleSet(), cache);
    assertTrue(cached != built);
    assertEquals(RuleBase.rules(built), RuleBase.rules(cached));
    assertEquals(policies(RuleBase.load(TestData.ruleSet(), null)), policies(cached));
  }

  @Test
  void anEditedRuleFileIsBuiltAgainAndABrokenOneNamesFileAndLine() throws Exception {
    for (Path drl : RuleBase.ruleFiles(TestData.ruleSet())) {
      Files.copy(drl, rules.resolve(drl.getFileName()));
    }
    RuleBase.load(rolepolicy.engine.RuleSet.of(rules), cache);
    Path permissions = rules.resolve("permissions.drl");
    Files.writeString(permissions, Files.readString(permissions) + "\nrule \"broken\"\nwhen\n  then )\nend\n");
    RuleFileException e = assertThrows(RuleFileException.class, () -> RuleBase.load(rolepolicy.engine.RuleSet.of(rules), cache));
    assertTrue(e.getMessage().contains(permissions + ":"), e.getMessage());
    assertEquals(1, entries(cache).size());
    Files.writeString(permissions, Files.readString(permissions).replace("rule \"broken\"\nwhen\n  then )\nend\n", "// edited\n"));
    assertNotNull(RuleBase.load(rolepolicy.engine.RuleSet.of(rules), cache));
    assertEquals(2, entries(cache).size());
  }

  @Test
  void anUnreadableEntryIsBuiltAgain() throws Exception {
    RuleBase.load(TestData.ruleSet(), cache);
    Path entry = entries(cache).get(0);
    Files.write(entry, new byte[] {1, 2, 3});
    KieBase again = RuleBase.load(TestData.ruleSet(), cache);
    assertEquals(RuleBase.rules(RuleBase.load(TestData.ruleSet(), null)), RuleBase.rules(again));
    assertTrue(Files.size(entry) > 1000, "the entry is written anew");
  }
}
