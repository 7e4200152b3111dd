package rolepolicy.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.model.NegativeEdit;
import rolepolicy.model.QueryFacts;
import rolepolicy.model.Refusal;
import rolepolicy.model.RewriteStep;

/** The loop tells the rules of an edit it could not make, and stops when they do not refuse. */
class PolicyLoopTest {
  /** {@code SELECT age FROM singer} (concert_singer: age is Hidden, R1 would show Singer_ID), whose edits all fail. */
  private static QuerySource unEditable() {
    TextQuery text = TextQuery.of(new TextAnalyser(TestData.schemas().get("concert_singer")), "SELECT age FROM singer");
    return new QuerySource() {
      @Override
      public QueryFacts facts() {
        return text.facts();
      }

      @Override
      public String sql() {
        return text.sql();
      }

      @Override
      public QuerySource rewrite(RewriteStep step) throws EditFailed {
        throw new EditFailed("the edit could not be made");
      }

      @Override
      public Edited negative(NegativeEdit edit) {
        return null;
      }
    };
  }

  @Test
  void anEditThatCannotBeMadeIsRefusedByTheRules() {
    Audit audit = new Audit();
    PolicyLoop.Outcome outcome =
        new PolicyLoop(TestData.engine()).run(unEditable(), TestData.autoPolicies().get("concert_singer"), audit);
    Refusal refusal = assertInstanceOf(Refusal.class, outcome.last().decision());
    assertEquals("UNVERIFIED_SQL", refusal.reason());
    assertEquals("the edit could not be made", refusal.detail());
    assertTrue(refusal.rule().startsWith("R1: "), refusal.rule());
    assertEquals(List.of(), outcome.steps());
    assertTrue(audit.firings().stream().anyMatch(f -> f.stage().equals("step 1 not made")
        && f.rule().equals("Refuse a rewrite whose SQL text cannot be verified")), audit.firings().toString());
  }

  @Test
  void rulesThatDoNotRefuseAnUnmadeEditStopTheRun(@TempDir Path dir) throws IOException {
    Path rules = Files.createDirectories(dir.resolve("rules"));
    for (Path file : RuleBase.ruleFiles(TestData.ruleSet())) {
      String text = Files.readString(file);
      if (file.getFileName().toString().equals("rewrites.drl")) {
        int start = text.indexOf("rule \"Refuse a rewrite whose SQL text cannot be verified\"");
        text = text.substring(0, start) + text.substring(text.indexOf("end\n", start) + 4);
      }
      Files.writeString(rules.resolve(file.getFileName()), text);
    }
    QuestionEngine engine = new QuestionEngine(RuleBase.load(rolepolicy.engine.RuleSet.of(rules)));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> new PolicyLoop(engine).run(unEditable(), TestData.autoPolicies().get("concert_singer"), null));
    assertTrue(e.getMessage().contains("Refuse a rewrite whose SQL text cannot be verified"), e.getMessage());
  }
}
