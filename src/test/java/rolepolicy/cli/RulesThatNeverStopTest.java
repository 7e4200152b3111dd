package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;

/**
 * A rule edited into a loop stops: one that keeps re-triggering itself at the firing limit, an
 * action that never returns at the time limit. Either way the error names the question and the
 * rule, the exit code is 1 and nothing is written.
 */
class RulesThatNeverStopTest {
  @TempDir Path dir;
  Path rules;

  @BeforeEach
  void copyOfTheRules() throws IOException {
    rules = Files.createDirectories(dir.resolve("rules"));
    try (Stream<Path> files = rolepolicy.engine.RuleBase.ruleFiles(TestData.ruleSet()).stream()) {
      for (Path file : files.filter(f -> f.toString().endsWith(".drl")).toList()) {
        Files.copy(file, rules.resolve(file.getFileName()));
      }
    }
  }

  private void addRule(String rule) throws IOException {
    Path file = rules.resolve("permissions.drl");
    Files.writeString(file, Files.readString(file) + "\n" + rule);
  }

  @Test
  void aRuleThatKeepsTriggeringItselfIsStoppedAtTheFiringLimit() throws IOException {
    addRule("""
        rule "A column reference touched again"
        when
          $r : ColumnRef()
        then
          update($r);
        end
        """);
    Path out = dir.resolve("out");

    CommandRun r = CommandRun.of("generate", "--rules", rules.toString(), "--out", out.toString(), "--threads", "1",
        "--rule-firings", "2000");

    assertEquals(1, r.code(), r.err());
    assertTrue(r.err().startsWith("error: data/spider/dev.json: record #1 (dev_0001): the rules fired more than 2000 times"
        + " (--rule-firings), and were stopped"), r.err());
    assertTrue(r.err().contains("The rules that fired most: " + rules.resolve("permissions.drl")
        + ": rule \"A column reference touched again\" 1000 times"), r.err());
    assertEquals("", r.out());
    assertFalse(Files.exists(out), "nothing written");
  }

  @Test
  void rulesThatFireOnPastTheTimeLimitAreHalted() throws IOException {
    addRule("""
        rule "A slow rule touched again"
        when
          $r : ColumnRef()
        then
          Thread.sleep(5);
          update($r);
        end
        """);
    Path out = dir.resolve("out");

    CommandRun r = CommandRun.of("generate", "--rules", rules.toString(), "--out", out.toString(), "--threads", "1",
        "--rule-timeout", "0.5");

    assertEquals(1, r.code(), r.err());
    assertTrue(r.err().startsWith("error: data/spider/dev.json: record #1 (dev_0001): the rules ran past the time limit of"
        + " 0.5 s (--rule-timeout), and were stopped; the rules that fired most in the last moment: "
        + rules.resolve("permissions.drl") + ": rule \"A slow rule touched again\""), r.err());
    assertFalse(Files.exists(out), "nothing written");
  }

  @Test
  void anActionThatNeverReturnsEndsTheRunAtTheTimeLimit() throws Exception {
    addRule("""
        rule "A loop that never ends"
        when
          $r : ColumnRef()
        then
          while (true) { $r.hashCode(); }
        end
        """);
    Path out = dir.resolve("out");
    Path tmp = Files.createDirectories(dir.resolve("tmp"));

    ToolProcess tool = ToolProcess.start(tmp, dir.resolve("cache"), dir.resolve("logs"), List.of("generate",
        "--rules", rules.toString(), "--out", out.toString(), "--threads", "1", "--rule-timeout", "1"));
    int code = tool.await(120);

    assertEquals(1, code, tool.err());
    assertTrue(tool.err().startsWith("error: data/spider/dev.json: record #1 (dev_0001): " + rules.resolve("permissions.drl")
        + ": rule \"A loop that never ends\" has run its action past the time limit of 1 s (--rule-timeout) and does not"
        + " return"), tool.err());
    assertFalse(Files.exists(out), "nothing written");
    try (Stream<Path> left = Files.list(tmp)) {
      assertEquals(List.of(), left.toList(), "nothing left in the temporary folder");
    }
  }
}
