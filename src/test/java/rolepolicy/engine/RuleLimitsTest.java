package rolepolicy.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.kie.api.KieBase;
import rolepolicy.TestData;
import rolepolicy.spider.Schema;

/**
 * The limits of one session's rules, on a database's policy assignment: a rule that re-triggers
 * itself stops at the firing limit, rules that fire on past the time limit are halted, and an
 * action that does not return is reported while it runs. Each message names what the rules
 * worked on and the rule.
 */
class RuleLimitsTest {
  @TempDir Path dir;

  @AfterEach
  void defaults() {
    RuleLimits.set(null);
    RuleLimits.onStuck(message -> {});
  }

  /** The shipped rules, with one more rule appended to policy.drl. */
  private KieBase rulesWith(String rule) throws IOException {
    Path rules = Files.createDirectories(dir.resolve("rules"));
    try (Stream<Path> files = rolepolicy.engine.RuleBase.ruleFiles(TestData.ruleSet()).stream()) {
      for (Path file : files.filter(f -> f.toString().endsWith(".drl")).toList()) {
        Files.copy(file, rules.resolve(file.getFileName()));
      }
    }
    Path policy = rules.resolve("policy.drl");
    Files.writeString(policy, Files.readString(policy) + "\n" + rule);
    return RuleBase.load(rolepolicy.engine.RuleSet.of(rules));
  }

  private static Map<String, Schema> concertSinger() {
    return Map.of("concert_singer", TestData.schemas().get("concert_singer"));
  }

  @Test
  void aRuleThatReTriggersItselfStopsAtTheFiringLimitNamingTheRule() throws IOException {
    KieBase base = rulesWith("""
        rule "A column touched again"
        when
          $c : SchemaColumn()
        then
          update($c);
        end
        """);
    RuleLimits.set(new RuleLimits(500, 60));
    RuleFileException e = assertThrows(RuleFileException.class,
        () -> new PolicyAssigner(base).assign(concertSinger(), List.of(), "none"));
    assertTrue(e.getMessage().startsWith("database concert_singer: the rules fired more than 500 times (--rule-firings)"),
        e.getMessage());
    assertTrue(e.getMessage().contains("The rules that fired most: " + dir.resolve("rules/policy.drl")
        + ": rule \"A column touched again\" "), e.getMessage());
  }

  @Test
  void rulesThatFireOnPastTheTimeLimitAreHalted() throws IOException {
    KieBase base = rulesWith("""
        rule "A slow column rule"
        when
          $c : SchemaColumn()
        then
          Thread.sleep(5);
          update($c);
        end
        """);
    RuleLimits.set(new RuleLimits(1_000_000, 0.3));
    RuleFileException e = assertThrows(RuleFileException.class,
        () -> new PolicyAssigner(base).assign(concertSinger(), List.of(), "none"));
    assertTrue(e.getMessage().startsWith("database concert_singer: the rules ran past the time limit of 0.3 s (--rule-timeout),"
        + " and were stopped; the rules that fired most in the last moment: " + dir.resolve("rules/policy.drl")
        + ": rule \"A slow column rule\" "), e.getMessage());
  }

  @Test
  void slowRulesWithinTheTimeLimitRunToTheirEnd() throws IOException {
    KieBase base = rulesWith("""
        rule "A slow column rule that ends"
        when
          $c : SchemaColumn()
        then
          Thread.sleep(2);
        end
        """);
    RuleLimits limits = new RuleLimits(1_000, 5);
    RuleLimits.set(limits);
    assertEquals(1, new PolicyAssigner(base).assign(concertSinger(), List.of(), "none").size());
    assertTrue(limits.mostFirings() > TestData.schemas().get("concert_singer").realColumns().size(),
        "the slow rule fired once per column, the naming rules besides: " + limits.mostFirings());
  }

  @Test
  void anActionThatDoesNotReturnIsReportedWithItsRuleWhileItRuns() throws Exception {
    KieBase base = rulesWith("""
        rule "An action that waits for ever"
        when
          $c : SchemaColumn( name == "Name" )
        then
          while (!Thread.currentThread().isInterrupted()) { }
        end
        """);
    AtomicReference<Thread> firing = new AtomicReference<>();
    CompletableFuture<String> stuck = new CompletableFuture<>();
    RuleLimits.onStuck(message -> { // what the command line does is end the process; here, end the loop
      stuck.complete(message);
      firing.get().interrupt();
    });
    RuleLimits.set(new RuleLimits(1_000, 0.3));
    CompletableFuture<Throwable> fired = CompletableFuture.supplyAsync(() -> {
      firing.set(Thread.currentThread());
      RuleLimits.set(new RuleLimits(1_000, 0.3));
      RuleLimits.subject("a question");
      try {
        new Sessions(base).fire(TestData.schemas().get("concert_singer").realColumns(), null, "policy");
        return null;
      } catch (RuntimeException e) {
        return e;
      }
    });
    assertEquals("a question: " + dir.resolve("rules/policy.drl") + ": rule \"An action that waits for ever\" has run its"
        + " action past the time limit of 0.3 s (--rule-timeout) and does not return (a loop that never ends?); it cannot"
        + " be stopped, so the run ends here", stuck.get(30, TimeUnit.SECONDS));
    assertTrue(fired.get(30, TimeUnit.SECONDS).getMessage().contains("ran past the time limit"), "halted once it returned");
  }

  @Test
  void limitsAreAtLeastOneFiringAndMoreThanNoTime() {
    assertThrows(IllegalArgumentException.class, () -> new RuleLimits(0, 1));
    assertThrows(IllegalArgumentException.class, () -> new RuleLimits(1, 0));
    assertEquals(1, new RuleLimits(1, 0.001).firings());
    assertEquals(0.001, new RuleLimits(1, 0.001).seconds());
  }
}
