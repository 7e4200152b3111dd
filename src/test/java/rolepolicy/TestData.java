package rolepolicy;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.kie.api.KieBase;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.engine.RuleBase;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/** Shared fixtures: the project's rules and the real Spider data beside the project. */
public final class TestData {
  private static KieBase rules;
  private static Map<String, Schema> schemas;
  private static Map<String, DatabasePolicies> policies;

  private TestData() {}

  public static Path rulesDir() {
    return Path.of("rules");
  }

  /** The rule files of the default profile. */
  public static rolepolicy.engine.RuleSet ruleSet() {
    return rolepolicy.engine.RuleSet.of(rulesDir());
  }

  /** A rule file of the default profile, by file name. */
  public static Path ruleFile(String name) {
    return ruleSet().files().stream()
        .filter(f -> f.getFileName().toString().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no rule file " + name));
  }

  /** The Spider folder; a missing one fails the test rather than skipping it. */
  public static Path spiderDir() {
    Path dir = Path.of(System.getProperty("spider.dir", "../shared/spider"));
    assertTrue(Files.isDirectory(dir), "Spider data not found at " + dir.toAbsolutePath());
    return dir;
  }

  /** KaggleDBQA's folder (KaggleDBQA_tables.json, databases/); a missing one fails the test. */
  public static Path kaggleDir() {
    Path dir = Path.of(System.getProperty("kaggledbqa.dir", "../shared/kaggledbqa"));
    assertTrue(Files.isDirectory(dir), "KaggleDBQA data not found at " + dir.toAbsolutePath());
    return dir;
  }

  /** BIRD dev's folder (dev_tables.json, dev.json); a missing one fails the test. */
  public static Path birdDir() {
    Path dir = Path.of(System.getProperty("bird.dir", "../shared/bird"));
    assertTrue(Files.isDirectory(dir), "BIRD data not found at " + dir.toAbsolutePath());
    return dir;
  }

  /** Spider-AC's part (Role-Conditioned Refusals, ../shared/rcr); a missing one fails the test. */
  public static Path rcrFile() {
    Path file = Path.of(System.getProperty("rcr.file", "../shared/rcr/spider-ac-part.jsonl.gz"));
    assertTrue(Files.isRegularFile(file), "Spider-AC data not found at " + file.toAbsolutePath());
    return file;
  }

  /** UDA-Bench's Query folder; a missing one fails the test rather than skipping it. */
  public static Path udaDir() {
    Path dir = Path.of(System.getProperty("uda.dir", "../shared/uda-bench/Query"));
    assertTrue(Files.isDirectory(dir), "UDA-Bench data not found at " + dir.toAbsolutePath());
    return dir;
  }

  /** Rules that stand in for the project's, for the rule-mutation check; null: the project's. */
  private static volatile KieBase substitute;
  /** The profile whose rules {@link #substitute} stands in for. */
  private static volatile String substituteProfile = rolepolicy.engine.RuleSet.DEFAULT_PROFILE;

  private static final Map<String, KieBase> PROFILE_RULES = new java.util.HashMap<>();

  /** The rules of the default profile. */
  public static synchronized KieBase rules() {
    return rules(rolepolicy.engine.RuleSet.DEFAULT_PROFILE);
  }

  /** The rules of a profile of {@link #rulesDir()}. */
  public static synchronized KieBase rules(String profile) {
    if (substitute != null && profile.equals(substituteProfile)) {
      return substitute;
    }
    if (profile.equals(rolepolicy.engine.RuleSet.DEFAULT_PROFILE)) {
      if (rules == null) {
        rules = RuleBase.load(ruleSet());
      }
      return rules;
    }
    return PROFILE_RULES.computeIfAbsent(profile, p -> RuleBase.load(new rolepolicy.engine.RuleSet(rulesDir(), p)));
  }

  private static QuestionEngine engine;
  private static KieBase engineRules;

  /** A question engine on the current {@link #rules()}. */
  private static rolepolicy.db.SqliteRunner spiderRunner;

  /** One runner on Spider's databases for the whole test run (queries time out after 30 s). */
  public static synchronized rolepolicy.db.SqliteRunner spiderRunner() {
    if (spiderRunner == null) {
      spiderRunner = new rolepolicy.db.SqliteRunner(spiderDir().resolve("database"), 30);
    }
    return spiderRunner;
  }

  private record ProfileEngine(KieBase rules, QuestionEngine engine) {}

  private static final Map<String, ProfileEngine> PROFILE_ENGINES = new java.util.HashMap<>();

  /** A question engine on the current {@link #rules(String)} of a profile (a variant during the rule-mutation check). */
  public static synchronized QuestionEngine engine(String profile) {
    KieBase current = rules(profile);
    ProfileEngine known = PROFILE_ENGINES.get(profile);
    if (known == null || known.rules() != current) {
      known = new ProfileEngine(current, new QuestionEngine(current));
      PROFILE_ENGINES.put(profile, known);
    }
    return known.engine();
  }

  public static synchronized QuestionEngine engine() {
    KieBase current = rules();
    if (engine == null || engineRules != current) {
      engine = new QuestionEngine(current);
      engineRules = current;
    }
    return engine;
  }

  /** Makes {@link #rules()} answer {@code variant} until it is called with null. */
  public static void substituteRules(KieBase variant) {
    substituteRules(rolepolicy.engine.RuleSet.DEFAULT_PROFILE, variant);
  }

  /** Makes {@link #rules(String)} of {@code profile} answer {@code variant} until called with null. */
  public static synchronized void substituteRules(String profile, KieBase variant) {
    substituteProfile = profile;
    substitute = variant;
  }

  private static Map<String, float[]> bankVectors;

  /**
   * An embedder that knows the vectors of the bank in {@code data/casebank} when README's
   * {@code casebank} command has built one there (Spider train's questions and masked questions; a
   * fresh clone has none): the vectors the model gives, so a test that builds a bank of train cases
   * does not embed them again. Other texts are embedded as usual.
   */
  public static synchronized rolepolicy.casebank.Embedder embedder() {
    if (bankVectors == null) {
      bankVectors = rolepolicy.casebank.CaseIndex.vectors(Path.of("data", "casebank"));
    }
    rolepolicy.casebank.Embedder embedder = new rolepolicy.casebank.Embedder();
    embedder.learn(bankVectors);
    return embedder;
  }

  public static synchronized Map<String, Schema> schemas() {
    if (schemas == null) {
      schemas = SchemaReader.read(spiderDir().resolve("tables.json"));
    }
    return schemas;
  }

  private static KieBase policiesRules;

  /** Automatic policies of every Spider database (no overrides), by the current {@link #rules()}. */
  public static synchronized Map<String, DatabasePolicies> autoPolicies() {
    KieBase current = rules();
    if (policies == null || policiesRules != current) {
      policies = new PolicyAssigner(current).assign(schemas(), List.of(), "no overrides");
      policiesRules = current;
    }
    return policies;
  }

  /**
   * A folder in which no file can be made: {@code parent/read-only} with mode r-x, or, when the
   * tests run as root (who may write there anyway), {@code /sys}, which refuses new files even to
   * root. Fails the test when neither is unwritable.
   */
  public static Path unwritableFolder(Path parent) throws java.io.IOException {
    Path folder = Files.createDirectories(parent.resolve("read-only"));
    Files.setPosixFilePermissions(folder, java.nio.file.attribute.PosixFilePermissions.fromString("r-xr-xr-x"));
    for (Path candidate : List.of(folder, Path.of("/sys"))) {
      try {
        Files.delete(Files.createTempFile(candidate, "probe", ".tmp"));
      } catch (java.io.IOException refused) {
        return candidate;
      }
    }
    throw new AssertionError("no folder that refuses new files: neither " + folder + " nor /sys");
  }
}
