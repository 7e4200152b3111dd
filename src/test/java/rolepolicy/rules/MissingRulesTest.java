package rolepolicy.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.engine.RuleBase;
import rolepolicy.engine.RuleFileException;
import rolepolicy.engine.RuleSet;

/** A rule folder without the rules the tool needs is a rule-file error naming the file and what it lacks. */
class MissingRulesTest {
  @TempDir Path dir;

  /** The default profile's rule files in one folder, {@code emptied} holding nothing. */
  private RuleSet withEmpty(String emptied) throws Exception {
    for (Path file : RuleBase.ruleFiles(TestData.ruleSet())) {
      Path copy = dir.resolve(file.getFileName());
      Files.writeString(copy, file.getFileName().toString().equals(emptied) ? "" : Files.readString(file));
    }
    return RuleSet.of(dir);
  }

  @Test
  void anEmptyPolicyFileIsNamedWithTheColumnItLeavesWithoutPolicy() throws Exception {
    var rules = RuleBase.load(withEmpty("policy.drl"), null);
    var schemas = Map.of("concert_singer", TestData.schemas().get("concert_singer"));
    RuleFileException e = assertThrows(RuleFileException.class,
        () -> new PolicyAssigner(rules).assign(schemas, List.of(), "no overrides"));
    assertEquals(dir.resolve("policy.drl") + ": the policy rules assign no policy to column stadium.stadium_id of database"
        + " concert_singer; each column needs exactly one AssignedPolicy (agenda-group \"policy\")", e.getMessage());
  }

  @Test
  void anEmptyRewriteFileIsNamedWithTheDecisionItLacks() throws Exception {
    QuestionEngine engine = new QuestionEngine(RuleBase.load(withEmpty("rewrites.drl"), null));
    RuleFileException e = assertThrows(RuleFileException.class,
        () -> engine.decide(Query.from("student").select(5, "student.score").walk(), School.POLICIES, 0, true, List.of(), null, "original"));
    assertEquals(dir.resolve("rewrites.drl") + ": the rewrite rules reached 0 decisions at original; each question needs"
        + " exactly one Decision (ANSWER, REWRITE or REFUSE)", e.getMessage());
  }
}
