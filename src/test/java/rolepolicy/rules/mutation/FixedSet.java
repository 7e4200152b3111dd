package rolepolicy.rules.mutation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.kie.api.KieBase;
import rolepolicy.TestData;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.engine.PolicyReview;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.generate.DatasetGenerator;
import rolepolicy.generate.QuestionGenerator;
import rolepolicy.interact.InteractQuestion;
import rolepolicy.interact.PolicyClarifier;
import rolepolicy.interact.QuestionSet;
import rolepolicy.evaluate.QuestionScorer;
import rolepolicy.model.ClarificationOption;
import rolepolicy.model.ClarificationQuestion;
import rolepolicy.model.PolicyOverride;
import rolepolicy.io.InputException;
import rolepolicy.spider.OverridesReader;
import rolepolicy.spider.Schema;

/**
 * The fixed set of real input a rule variant is judged on: the policies of every Spider database
 * with the shipped overrides (and the review flags they get), and the records of a fixed sample of Spider questions (every
 * {@value #DEV_STEP}th dev question and every {@value #TRAIN_STEP}th train question, in {@value #PARTS}
 * parts).
 */
final class FixedSet {
  static final int DEV_STEP = 3;
  static final int TRAIN_STEP = 20;

  /** The sample is generated in parts, so that a variant's first differing part ends its run. */
  static final int PARTS = 8;

  private final List<PolicyOverride> overrides;
  /** Facts the policy rules read beside the columns: the grants profile's GRANTs. */
  private final List<Object> policyFacts;
  private final Path dir;
  private final List<Path> parts = new ArrayList<>();
  /** The sample's questions, in order, and how many each part holds. */
  private final List<JsonNode> questions = new ArrayList<>();
  private final int partSize;
  /** Each question of the sample in a file of its own, made when first needed. */
  private final Map<Integer, Path> singles = new java.util.concurrent.ConcurrentHashMap<>();
  /** The project's rules and, per question generated alone, their outcome: set by {@link #baseline}. */
  private KieBase project;
  private Policies projectPolicies;
  private final Map<Integer, String> projectSingles = new java.util.concurrent.ConcurrentHashMap<>();
  /** The project's policies of each database assigned alone, by {@link #projectPolicies}. */
  private final Map<String, String> projectDatabases = new java.util.concurrent.ConcurrentHashMap<>();

  /** The set with the shipped overrides and no GRANTs. */
  FixedSet() {
    this(OverridesReader.read(Path.of("data/overrides.json")), List.of());
  }

  /**
   * The set for a profile whose policies come from GRANT statements: no overrides, and one role
   * granted privileges of every form over every Spider database (each database takes one of the
   * paper's four users' statements, in turn, some without USAGE, to PUBLIC or unqualified).
   */
  static FixedSet withGrants() {
    String statements = rolepolicy.decide.PaperUsersAccess.varied(TestData.schemas(), "analyst");
    List<Object> facts = new ArrayList<>(rolepolicy.sql.GrantStatements.parse(statements, "fixed set"));
    facts.add(new rolepolicy.model.GrantRole("analyst"));
    return new FixedSet(List.of(), facts);
  }

  private FixedSet(List<PolicyOverride> overrides, List<Object> policyFacts) {
    this.overrides = overrides;
    this.policyFacts = List.copyOf(policyFacts);
    try {
      ObjectMapper json = new ObjectMapper();
      ArrayNode sample = json.createArrayNode();
      take(json.readTree(TestData.spiderDir().resolve("dev.json").toFile()), DEV_STEP, sample);
      take(json.readTree(TestData.spiderDir().resolve("train_spider.json").toFile()), TRAIN_STEP, sample);
      dir = Files.createTempDirectory("rule-mutation-set");
      dir.toFile().deleteOnExit();
      sample.forEach(questions::add);
      int size = (sample.size() + PARTS - 1) / PARTS;
      partSize = size;
      for (int from = 0; from < sample.size(); from += size) {
        ArrayNode part = json.createArrayNode();
        for (int i = from; i < Math.min(sample.size(), from + size); i++) {
          part.add(sample.get(i));
        }
        Path file = dir.resolve("questions-" + parts.size() + ".json");
        json.writeValue(file.toFile(), part);
        file.toFile().deleteOnExit();
        parts.add(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void take(JsonNode split, int step, ArrayNode into) {
    for (int i = 0; i < split.size(); i += step) {
      into.add(split.get(i));
    }
  }

  /** The policy clarification of every record's original SQL and of each rewrite step's SQL. */
  private void clarifications(KieBase rules, Path output, StringBuilder out) throws IOException {
    QuestionEngine engine = new QuestionEngine(rules);
    PolicyClarifier clarifier = new PolicyClarifier(engine, TestData.schemas(), TestData.spiderRunner());
    JsonNode records = new ObjectMapper().readTree(output.toFile());
    for (InteractQuestion q : QuestionSet.read(output)) {
      List<String> texts = new java.util.ArrayList<>(List.of(q.policy().record().originalSql()));
      records.get(q.index()).at("/gold_label/steps").forEach(step -> texts.add(step.path("sql").asText()));
      for (int step = 0; step < texts.size(); step++) {
        PolicyClarifier.Check check = clarifier.check(q.policy().record(), texts.get(step), step);
        if (check.analysis() != null) {
          // without a ClarificationRequest (as in generation) no clarification rule may fire
          var query = check.analysis().facts();
          long stray = engine.fireRound(query,
                  QuestionScorer.policed(q.policy().record(), TestData.schemas().get(q.dbId()), query.refs()), step, List.of(), null, "silent")
              .stream().filter(f -> f instanceof ClarificationQuestion || f instanceof ClarificationOption
                  || f instanceof rolepolicy.model.ProposedEdit).count();
          if (stray > 0) {
            out.append(q.id()).append(' ').append(step).append(": ").append(stray).append(" clarification facts unasked\n");
          }
        }
        if (check.question() != null) {
          out.append(q.id()).append(' ').append(step).append(": ").append(check.question()).append(' ')
              .append(check.options()).append('\n');
        }
      }
    }
  }

  /**
   * The project's outcome on the set (every stage), remembered with its rules, so that a variant's
   * outcome at one question can be compared with the project's ({@link #differsAt}).
   */
  List<String> baseline(KieBase rules) {
    List<String> stages = outcome(rules, null);
    project = rules;
    projectPolicies = policies(rules);
    return stages;
  }

  /**
   * The outcome in its stages — the policies, then each part's records and clarifications — computed
   * up to the first stage that differs from {@code baseline}'s (all of them when it is null): a
   * variant that changes the policies, or the first part's records, is known to change the outcome
   * without generating the rest. Safe to call from several threads at once.
   */
  List<String> outcome(KieBase rules, List<String> baseline) {
    List<String> stages = new ArrayList<>();
    Policies policies = policies(rules);
    if (!add(stages, policies.text(), baseline) || policies.byDatabase() == null) {
      return stages;
    }
    QuestionGenerator generator = generator(rules, policies);
    for (Path part : parts) {
      List<String> questionStages = questions(rules, generator, part);
      for (String stage : questionStages) {
        if (!add(stages, stage, baseline)) {
          return stages;
        }
      }
    }
    return stages;
  }

  /** The policies the rules give, with their text (the first stage); null policies when the rules fail. */
  private record Policies(String text, Map<String, DatabasePolicies> byDatabase) {}

  private Policies policies(KieBase rules) {
    return policies(rules, TestData.schemas(), overrides);
  }

  /** The policies the rules give the databases of {@code schemas}, with these overrides and the set's GRANTs. */
  private Policies policies(KieBase rules, Map<String, Schema> schemas, List<PolicyOverride> overrides) {
    try {
      Map<String, DatabasePolicies> policies =
          new PolicyAssigner(rules).assign(schemas, overrides, "data/overrides.json", policyFacts);
      PolicyReview review = new PolicyReview(rules);
      StringBuilder text = new StringBuilder();
      // with each database's review flags: the review rules are judged on the same databases
      policies.values().forEach(db -> text.append(db.columns()).append('\n')
          .append(review.flags(schemas.get(db.dbId()), db)).append('\n'));
      return new Policies(text.toString(), policies);
    } catch (InputException | IllegalStateException | rolepolicy.engine.RuleFileException e) {
      return new Policies("policies fail: " + e.getMessage(), null);
    }
  }

  /** The records of a file of questions, then their clarifications: two stages, or one when the rules fail. */
  private List<String> questions(KieBase rules, QuestionGenerator generator, Path questionsFile) {
    Path output = null;
    try {
      output = Files.createTempFile(dir, "records", ".json");
      new DatasetGenerator(generator, 1).generate("fixed", questionsFile, output, null, bytes -> { });
      String records = Files.readString(output);
      StringBuilder clarifications = new StringBuilder();
      clarifications(rules, output, clarifications);
      return List.of(records, clarifications.toString());
    } catch (RuntimeException e) {
      return List.of("questions fail: " + e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (output != null) {
        output.toFile().delete();
      }
    }
  }

  /**
   * Where a variant's outcome differs from the project's, looked for where {@code hint} says it did
   * before: when it names a question of the sample, {@code hint} if that question differs generated
   * alone; when it names a database ({@value #POLICIES_OF}{@code db}), {@code hint} if that database's
   * policies, assigned alone, differ; for any other hint, {@code "policies"} if the policies differ;
   * else null (it does not differ there; it may elsewhere). Needs {@link #baseline} first.
   */
  String differsAt(KieBase variant, String hint) {
    if (hint.matches("\\d{1,9}") && Integer.parseInt(hint) < questions.size()) {
      return differsAlone(variant, Integer.parseInt(hint)) ? hint : null;
    }
    if (hint.startsWith(POLICIES_OF) && TestData.schemas().containsKey(hint.substring(POLICIES_OF.length()))) {
      String dbId = hint.substring(POLICIES_OF.length());
      return policiesOf(variant, dbId).equals(projectPolicies(dbId)) ? null : hint;
    }
    Policies policies = policies(variant);
    // where they differ is named by database, as where() names it: an older hint is refined
    return !policies.text().equals(projectPolicies.text()) || policies.byDatabase() == null ? where(variant, 0) : null;
  }

  private static QuestionGenerator generator(KieBase rules, Policies policies) {
    return new QuestionGenerator(new QuestionEngine(rules), TestData.schemas(), policies.byDatabase());
  }

  /**
   * Whether one question generated alone comes out otherwise with the variant's rules than with the
   * project's: each with the policies its rules give the question's database, the only ones its
   * generation reads (the other databases' are not assigned).
   */
  private boolean differsAlone(KieBase variant, int question) {
    return !alone(variant, question).equals(projectSingles.computeIfAbsent(question, q -> alone(project, q)));
  }

  /**
   * Where a variant whose outcome's stage {@code stage} differs first does so, as a hint for {@link
   * #differsAt}: for the policies, the first database whose policies differ assigned alone
   * ({@value #POLICIES_OF}{@code db}; {@code "policies"} when none does); else the number of the
   * first question of the differing part that differs generated alone, or null when none does (the
   * difference needs the part).
   */
  String where(KieBase variant, int stage) {
    if (stage == 0) {
      for (String dbId : TestData.schemas().keySet()) {
        if (!policiesOf(variant, dbId).equals(projectPolicies(dbId))) {
          return POLICIES_OF + dbId;
        }
      }
      return "policies";
    }
    int part = (stage - 1) / 2;
    for (int q = part * partSize; q < Math.min(questions.size(), (part + 1) * partSize); q++) {
      if (differsAlone(variant, q)) {
        return Integer.toString(q);
      }
    }
    return null;
  }

  /** The prefix of a hint that names the first database whose policies differ: {@code policies:concert_singer}. */
  static final String POLICIES_OF = "policies:";

  /** The policies the rules give one database with its overrides, alone (no other database's assigned). */
  private Policies policiesAlone(KieBase rules, String dbId) {
    return policies(rules, Map.of(dbId, TestData.schemas().get(dbId)),
        overrides.stream().filter(o -> o.dbId().equals(dbId)).toList());
  }

  private String policiesOf(KieBase rules, String dbId) {
    return policiesAlone(rules, dbId).text();
  }

  private String projectPolicies(String dbId) {
    return projectDatabases.computeIfAbsent(dbId, d -> policiesOf(project, d));
  }

  /** The records and clarifications of one question of the sample, generated alone, or how its policies fail. */
  private String alone(KieBase rules, int question) {
    String dbId = questions.get(question).get("db_id").asText();
    Policies policies = policiesAlone(rules, dbId);
    if (policies.byDatabase() == null) {
      return policies.text();
    }
    QuestionGenerator generator = generator(rules, policies);
    Path file = singles.computeIfAbsent(question, q -> {
      try {
        Path single = dir.resolve("question-" + q + ".json");
        ObjectMapper json = new ObjectMapper();
        json.writeValue(single.toFile(), json.createArrayNode().add(questions.get(q)));
        single.toFile().deleteOnExit();
        return single;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    return String.join("\n", questions(rules, generator, file));
  }

  /** Adds a stage; false when it already differs from the baseline's. */
  private static boolean add(List<String> stages, String stage, List<String> baseline) {
    stages.add(stage);
    int i = stages.size() - 1;
    return baseline == null || (baseline.size() > i && baseline.get(i).equals(stage));
  }
}
