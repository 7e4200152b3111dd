package rolepolicy.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.kie.api.KieBase;
import rolepolicy.engine.RuleSet;
import rolepolicy.io.InputException;

/** The rule files of a folder, compiled: the files read, the rules listed, a broken file named with its line. */
class RuleBaseTest {
  @TempDir Path dir;

  private Path copyOfRules() throws Exception {
    Path rules = Files.createDirectories(dir.resolve("rules"));
    for (Path f : RuleBase.ruleFiles(rolepolicy.TestData.ruleSet())) {
      Files.copy(f, rules.resolve(f.getFileName()));
    }
    return rules;
  }

  @Test
  void onlyDrlFilesAreRuleFilesInNameOrder() throws Exception {
    Path rules = copyOfRules();
    Files.writeString(rules.resolve("notes.txt"), "not a rule file");
    Files.writeString(rules.resolve("policy.drl.bak"), "not a rule file either");
    assertEquals(List.of("clarify.drl", "negatives.drl", "overrides.drl", "permissions.drl", "policy.drl", "review.drl", "rewrites.drl"),
        RuleBase.ruleFiles(RuleSet.of(rules)).stream().map(p -> p.getFileName().toString()).toList());
    InputException none = assertThrows(InputException.class, () -> RuleBase.ruleFiles(RuleSet.of(Files.createDirectories(dir.resolve("empty")))));
    assertEquals(dir.resolve("empty") + ": no .drl rule files", none.getMessage());
    assertEquals(dir.resolve("absent") + ": rules folder not found",
        assertThrows(InputException.class, () -> RuleBase.ruleFiles(RuleSet.of(dir.resolve("absent")))).getMessage());
  }

  @Test
  void everyRuleIsListedByFileThenInItsFilesOrder() throws Exception {
    KieBase base = RuleBase.load(RuleSet.of(copyOfRules()));
    List<RuleBase.RuleName> rules = RuleBase.rules(base);
    assertEquals(new RuleBase.RuleName("clarify.drl", rules.get(0).rule()), rules.get(0));
    assertEquals(rules.stream().map(RuleBase.RuleName::file).sorted().toList(),
        rules.stream().map(RuleBase.RuleName::file).toList(), "grouped by file name");
    List<String> policy = rules.stream().filter(r -> r.file().equals("policy.drl")).map(RuleBase.RuleName::rule).toList();
    assertEquals("Key columns (_id, id_, id) are JoinOnly", policy.get(0));
    assertEquals("Every other column is Public", policy.get(policy.size() - 1));
    assertTrue(rules.contains(new RuleBase.RuleName("rewrites.drl", "R2: wrap a selected AggOnly column in AVG")));
  }

  @Test
  void aBrokenFileIsNamedWithItsLine() throws Exception {
    Path rules = copyOfRules();
    Path policy = rules.resolve("policy.drl");
    List<String> lines = new java.util.ArrayList<>(Files.readAllLines(policy));
    int at = lines.indexOf(lines.stream().filter(l -> l.strip().startsWith("then")).findFirst().orElseThrow());
    lines.set(at, "  thn");
    Files.write(policy, lines);
    RuleFileException e = assertThrows(RuleFileException.class, () -> RuleBase.load(rolepolicy.engine.RuleSet.of(rules)));
    assertTrue(e.getMessage().startsWith(policy + ":"), e.getMessage());
    assertTrue(e.getMessage().matches("(?s)" + java.util.regex.Pattern.quote(policy.toString()) + ":\\d+: .+"), e.getMessage());
    assertFalse(e.getMessage().contains("Parser returned a null Package"), e.getMessage());
  }

  @Test
  void aRuleFileThatIsADeviceOrOverTheLimitIsRefusedByName() throws Exception {
    Path rules = copyOfRules();
    Path zero = Files.createSymbolicLink(rules.resolve("zero.drl"), Path.of("/dev/zero"));
    assertEquals(zero + ": the rule file is not a regular file (a device, pipe or socket); give a text file",
        assertThrows(InputException.class, () -> RuleBase.load(RuleSet.of(rules), null)).getMessage());
    Files.delete(zero);
    Path large = rules.resolve("large.drl");
    Files.write(large, new byte[rolepolicy.io.SmallText.LIMIT + 1]);
    assertEquals(large + ": the rule file is over 1 MiB, the limit of a rule file; give a smaller file",
        assertThrows(InputException.class, () -> RuleBase.load(RuleSet.of(rules), null)).getMessage());
  }
}
