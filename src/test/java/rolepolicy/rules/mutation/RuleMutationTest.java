package rolepolicy.rules.mutation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.PostDiscoveryFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.kie.api.KieBase;
import rolepolicy.TestData;
import rolepolicy.engine.RuleBase;
import rolepolicy.engine.RuleFileException;

/**
 * The rule-mutation check: every mechanically derived variant of every rule file (see {@link
 * DrlMutants}) is compiled and run on a fixed set of real questions; a variant that changes an
 * outcome there must make a rule test named after a rule it changed fail. Variants that change
 * nothing on the set are listed as equivalent; variants Drools rejects as invalid. The report is
 * written to {@code target/rule-mutations.md}.
 */
@Tag("mutation")
class RuleMutationTest {
  /** The rule tests: one test per rule, its display name the rule's name. */
  static final List<String> RULE_TESTS = List.of(
      "rolepolicy.rules.PolicyRulesTest",
      "rolepolicy.rules.OverrideRulesTest",
      "rolepolicy.rules.PermissionRulesTest",
      "rolepolicy.rules.RewriteRulesTest",
      "rolepolicy.rules.NegativeRulesTest",
      "rolepolicy.rules.ClarifyRulesTest",
      "rolepolicy.rules.ReviewRulesTest",
      "rolepolicy.rules.StrictRulesTest",
      "rolepolicy.rules.TierRulesTest",
      "rolepolicy.rules.ExtendedRulesTest",
      "rolepolicy.rules.GrantsRulesTest");

  enum Verdict { CAUGHT, MISSED, EQUIVALENT, INVALID }

  /**
   * A variant's verdict; for one that changes the outcome, {@code where} it first did (a question
   * of the fixed set, or its policies; null when only a whole part shows it), kept as a hint.
   */
  record Result(DrlMutants.Mutant mutant, Verdict verdict, String detail, String where) {
    Result(DrlMutants.Mutant mutant, Verdict verdict, String detail) {
      this(mutant, verdict, detail, null);
    }
  }

  /**
   * The rule files of a profile, by label, and the fixed set's outcome under them. A file of the
   * default profile is labelled by its name; a file of another profile by its path in the rules
   * folder ({@code profiles/strict/permissions.drl}), and only those are mutated there.
   */
  private record Profile(String name, Map<String, String> files, FixedSet fixed, List<String> baseline) {
    static Profile of(String name) throws IOException {
      rolepolicy.engine.RuleSet set = new rolepolicy.engine.RuleSet(TestData.rulesDir(), name);
      Map<String, String> files = new LinkedHashMap<>();
      for (Path f : RuleBase.ruleFiles(set)) {
        boolean own = !name.equals(rolepolicy.engine.RuleSet.DEFAULT_PROFILE) && f.startsWith(set.profileFolder());
        files.put(own ? TestData.rulesDir().relativize(f).toString().replace('\\', '/') : f.getFileName().toString(),
            Files.readString(f));
      }
      // a profile whose policies come from GRANTs (its own or the one it extends) is judged with GRANTs
      boolean grants = RuleBase.ruleFiles(set).stream().anyMatch(f -> f.toString().replace('\\', '/').contains("profiles/grants/"));
      FixedSet fixed = grants ? FixedSet.withGrants() : new FixedSet();
      return new Profile(name, files, fixed, fixed.baseline(TestData.rules(name)));
    }

    boolean mutates(String label) {
      return name.equals(rolepolicy.engine.RuleSet.DEFAULT_PROFILE) || label.startsWith("profiles/");
    }
  }

  @Test
  void everyVariantThatChangesAnOutcomeFailsATestNamedAfterItsRule() throws IOException {
    List<Profile> profiles = new ArrayList<>();
    for (String name : rolepolicy.engine.RuleSet.profiles(TestData.rulesDir())) {
      if (name.equals(rolepolicy.engine.RuleSet.DEFAULT_PROFILE)) {
        profiles.add(0, Profile.of(name));
      } else {
        profiles.add(Profile.of(name));
      }
    }
    Path work = Files.createTempDirectory("rule-mutants");
    List<Map.Entry<DrlMutants.Mutant, Profile>> mutants = new ArrayList<>();
    String only = System.getProperty("mutation.files", "");
    for (Profile profile : profiles) {
      for (Map.Entry<String, String> file : profile.files().entrySet()) {
        if (profile.mutates(file.getKey()) && (only.isEmpty() || List.of(only.split(",")).contains(file.getKey()))) {
          DrlMutants.of(file.getKey(), file.getValue()).forEach(m -> mutants.add(Map.entry(m, profile)));
        }
      }
    }
    // Compiling a variant and running it on the fixed set go on in parallel; the rule tests, which
    // see the variant through TestData's one substitute, run one variant at a time, in order.
    // Equivalent and invalid verdicts of an earlier run with the same inputs are reused, and a variant
    // that changed the outcome is first run where it changed it before (KnownVerdicts).
    String inputs = KnownVerdicts.inputs(TestData.rulesDir(), TestData.spiderDir());
    // -Dmutation.recheck: no verdict reused, and each hint checked against the whole set
    boolean recheck = Boolean.getBoolean("mutation.recheck");
    KnownVerdicts read = KnownVerdicts.read(KnownVerdicts.FILE, inputs);
    KnownVerdicts known = recheck ? read.hintsOnly() : read;
    ExecutorService workers = Executors.newFixedThreadPool(Integer.getInteger("mutation.threads", Runtime.getRuntime().availableProcessors()));
    List<Result> results = new ArrayList<>();
    int reused = 0;
    int atHint = 0;
    try {
      List<Future<Checked>> checked = new ArrayList<>();
      for (Map.Entry<DrlMutants.Mutant, Profile> entry : mutants) {
        DrlMutants.Mutant mutant = entry.getKey();
        Profile profile = entry.getValue();
        Verdict verdict = known.of(mutant);
        if (verdict != null) {
          reused++;
          Result result = new Result(mutant, verdict, (verdict == Verdict.INVALID ? "does not compile" : "same outcome on the fixed set")
              + " (known: inputs unchanged)");
          checked.add(java.util.concurrent.CompletableFuture.completedFuture(new Checked(mutant, null, result, profile.name())));
        } else {
          checked.add(workers.submit(() -> compileAndRun(mutant, profile, work, known.where(mutant),
              only.isEmpty(), recheck)));
        }
      }
      for (int i = 0; i < checked.size(); i++) {
        Checked c = checked.get(i).get();
        checked.set(i, null); // its rule base can go once it is judged: 250 kept would fill the heap
        atHint += c.atHint() ? 1 : 0;
        results.add(judge(c));
      }
    } catch (InterruptedException | ExecutionException e) {
      throw new IllegalStateException("a variant could not be checked", e);
    } finally {
      workers.shutdownNow();
      TestData.substituteRules(null);
      try (var paths = Files.walk(work)) {
        for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
    String report = report(results);
    Files.createDirectories(Path.of("target"));
    Files.writeString(Path.of("target/rule-mutations.md"), report);
    System.out.println(report.lines().limit(12).reduce("", (a, b) -> a + b + "\n"));
    System.out.println(reused + " of " + results.size() + " verdicts reused from " + KnownVerdicts.FILE
        + (reused == 0 ? " (none: its inputs differ, or -Dmutation.recheck)" : " (inputs unchanged)") + "; "
        + atHint + " variants changed the outcome where they changed it in that run");
    if (only.isEmpty()) {
      String text = KnownVerdicts.text(inputs, results);
      Files.writeString(KnownVerdicts.WRITTEN, text);
      if (!text.equals(Files.exists(KnownVerdicts.FILE) ? Files.readString(KnownVerdicts.FILE) : "")) {
        System.out.println("the known verdicts changed: cp " + KnownVerdicts.WRITTEN + " " + KnownVerdicts.FILE);
      }
    }
    List<Result> missed = results.stream().filter(r -> r.verdict() == Verdict.MISSED).toList();
    assertTrue(results.stream().anyMatch(r -> r.verdict() == Verdict.CAUGHT), "no variant was caught: the check itself is broken");
    assertEquals(List.of(), missed.stream().map(r -> r.mutant().file() + " " + r.mutant().rules() + ": "
        + r.mutant().what() + " (" + r.detail() + ")").toList(), "variants that change an outcome but fail no test named after their rule");
  }

  /**
   * A variant compiled and run on the fixed set: its rules when they change the outcome (with where
   * they did), else its verdict.
   */
  private record Checked(DrlMutants.Mutant mutant, KieBase changesOutcome, Result verdict, String where, boolean atHint,
      String profile) {
    Checked(DrlMutants.Mutant mutant, KieBase changesOutcome, Result verdict, String profile) {
      this(mutant, changesOutcome, verdict, null, false, profile);
    }
  }

  /**
   * Compiles a variant and runs it on the fixed set: first where it changed the outcome in an earlier
   * run ({@code hint}, null: none), then, when it does not change it there, on the whole set, and
   * looks for the place it changes when the known verdicts will be written ({@code findPlace}).
   * {@code checkHint}: a variant that changes the outcome at its hint must change the whole set's too.
   */
  private static Checked compileAndRun(DrlMutants.Mutant mutant, Profile profile, Path work, String hint,
      boolean findPlace, boolean checkHint) throws IOException {
    FixedSet fixed = profile.fixed();
    List<String> baseline = profile.baseline();
    String name = profile.name();
    Path dir = Files.createTempDirectory(work, "v");
    for (Map.Entry<String, String> f : profile.files().entrySet()) {
      Files.writeString(dir.resolve(Path.of(f.getKey()).getFileName().toString()),
          f.getKey().equals(mutant.file()) ? mutant.text() : f.getValue());
    }
    KieBase variant;
    try {
      variant = RuleBase.load(rolepolicy.engine.RuleSet.of(dir));
    } catch (RuleFileException e) {
      return new Checked(mutant, null, new Result(mutant, Verdict.INVALID, "does not compile"), name);
    }
    String place = hint == null ? null : fixed.differsAt(variant, hint);
    if (place != null) {
      if (checkHint && fixed.outcome(variant, baseline).equals(baseline)) {
        throw new IllegalStateException(mutant.file() + " " + mutant.what() + ": changes the outcome at " + place
            + " generated alone, not on the whole set");
      }
      return new Checked(mutant, variant, null, place, true, name);
    }
    List<String> outcome = fixed.outcome(variant, baseline);
    if (outcome.equals(baseline)) {
      return new Checked(mutant, null, new Result(mutant, Verdict.EQUIVALENT, "same outcome on the fixed set"), name);
    }
    return new Checked(mutant, variant, null, findPlace ? fixed.where(variant, outcome.size() - 1) : null, false, name);
  }

  /** The verdict of a variant: a variant that changes the outcome must fail a rule test named after its rule. */
  private static Result judge(Checked checked) {
    if (checked.verdict() != null) {
      return checked.verdict();
    }
    DrlMutants.Mutant mutant = checked.mutant();
    // the tests named after the variant's rules decide; the others are run only to say what failed instead
    List<String> named = List.copyOf(failingRuleTests(checked.profile(), checked.changesOutcome(), mutant.rules()));
    if (!named.isEmpty()) {
      return new Result(mutant, Verdict.CAUGHT, "fails: " + named, checked.where());
    }
    Set<String> failed = failingRuleTests(checked.profile(), checked.changesOutcome(), null);
    return new Result(mutant, Verdict.MISSED, failed.isEmpty() ? "no rule test fails" : "only " + failed + " fail", checked.where());
  }

  private static final java.util.regex.Pattern CODE = java.util.regex.Pattern.compile("^([A-Z]\\d): ");

  /**
   * Whether a test is named after a rule: its display name is the rule's name, or, for a rule
   * whose name starts with a code ("R2: ", "N1: "), it names that code ("N1 and N3 do not apply").
   */
  static boolean namedAfter(String test, String rule) {
    if (test.equals(rule)) {
      return true;
    }
    java.util.regex.Matcher code = CODE.matcher(rule);
    return code.find() && java.util.regex.Pattern.compile("\\b" + code.group(1) + "\\b").matcher(test).find();
  }

  /**
   * The display names of the rule tests that fail with {@code variant} standing in for the rules:
   * of the tests named after one of {@code rules}, or of all when it is null.
   */
  static Set<String> failingRuleTests(String profile, KieBase variant, List<String> rules) {
    Set<String> failed = new TreeSet<>();
    TestData.substituteRules(profile, variant);
    try {
      Launcher launcher = LauncherFactory.create();
      LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
      RULE_TESTS.forEach(c -> request.selectors(selectClass(c)));
      if (rules != null) {
        request.filters((PostDiscoveryFilter) descriptor -> !(descriptor.getSource().orElse(null) instanceof MethodSource)
            || rules.stream().anyMatch(rule -> namedAfter(descriptor.getDisplayName(), rule))
            ? FilterResult.included("named after a rule of the variant") : FilterResult.excluded("named after another rule"));
      }
      launcher.execute(request.build(), new TestExecutionListener() {
        @Override
        public void executionFinished(TestIdentifier test, TestExecutionResult result) {
          if (test.isTest() && result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
            failed.add(test.getDisplayName());
          }
        }
      });
    } finally {
      TestData.substituteRules(null);
    }
    return failed;
  }

  static String report(List<Result> results) {
    StringBuilder out = new StringBuilder("# Rule mutations\n\n");
    Map<Verdict, Integer> counts = new LinkedHashMap<>();
    for (Verdict v : Verdict.values()) {
      counts.put(v, (int) results.stream().filter(r -> r.verdict() == v).count());
    }
    out.append(String.format(java.util.Locale.ROOT, "%d variants: %d caught, %d missed, %d equivalent on the fixed set, %d invalid (do not compile)%n%n",
        results.size(), counts.get(Verdict.CAUGHT), counts.get(Verdict.MISSED), counts.get(Verdict.EQUIVALENT), counts.get(Verdict.INVALID)));
    out.append("| file | rule | kind | change | verdict | detail |\n|---|---|---|---|---|---|\n");
    for (Result r : results) {
      out.append("| ").append(r.mutant().file()).append(" | ").append(String.join(" / ", r.mutant().rules()))
          .append(" | ").append(r.mutant().kind()).append(" | ").append(r.mutant().what().replace("|", "\\|"))
          .append(" | ").append(r.verdict()).append(" | ").append(r.detail().replace("|", "\\|")).append(" |\n");
    }
    return out.toString();
  }
}
