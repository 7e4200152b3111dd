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
import rolepolicy.engine.QuestionEngine;
import rolepolicy.generate.DatasetGenerator;
import rolepolicy.generate.QuestionGenerator;
import rolepolicy.interact.InteractQuestion;
import rolepolicy.interact.PolicyClarifier;
import rolepolicy.interact.QuestionSet;
import rolepolicy.evaluate.QuestionScorer;
import rolepolicy.model.ClarificationOption;
import rolepolicy.model.ClarificationQuestion;
import rolepolicy.model.QueryShape;
import rolepolicy.model.PolicyOverride;
import rolepolicy.spider.InputException;
import rolepolicy.spider.OverridesReader;

/**
 * The fixed set of real input a rule variant is judged on: the policies of every Spider database
 * with the shipped overrides, and the records of a fixed sample of Spider questions (every
 * {@value #DEV_STEP}th dev question and every {@value #TRAIN_STEP}th train question, in {@value #PARTS}
 * parts).
 */
final class FixedSet {
  static final int DEV_STEP = 3;
  static final int TRAIN_STEP = 20;

  /** The sample is generated in parts, so that a variant's first differing part ends its run. */
  static final int PARTS = 8;

  private final List<PolicyOverride> overrides = OverridesReader.read(Path.of("data/overrides.json"));
  private final Path dir;
  private final List<Path> parts = new ArrayList<>();

  FixedSet() {
    try {
      ObjectMapper json = new ObjectMapper();
      ArrayNode sample = json.createArrayNode();
      take(json.readTree(TestData.spiderDir().resolve("dev.json").toFile()), DEV_STEP, sample);
      take(json.readTree(TestData.spiderDir().resolve("train_spider.json").toFile()), TRAIN_STEP, sample);
      dir = Files.createTempDirectory("rule-mutation-set");
      dir.toFile().deleteOnExit();
      int size = (sample.size() + PARTS - 1) / PARTS;
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
          var refs = check.analysis().columnRefs();
          long stray = engine.fireText(refs, new QueryShape(check.analysis().selectStar(), false, check.analysis().setOperation()),
                  QuestionScorer.policed(q.policy().record(), TestData.schemas().get(q.dbId()), refs), step, List.of(), null, "silent")
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

  /** Everything the rules decide on the set, as text in stages: equal text, equal outcome. */
  List<String> outcome(KieBase rules) {
    return outcome(rules, null);
  }

  /**
   * The outcome in its stages — the policies, then each part's records and clarifications — computed
   * up to the first stage that differs from {@code baseline}'s (all of them when it is null): a
   * variant that changes the policies, or the first part's records, is known to change the outcome
   * without generating the rest. Safe to call from several threads at once.
   */
  List<String> outcome(KieBase rules, List<String> baseline) {
    List<String> stages = new ArrayList<>();
    Map<String, DatabasePolicies> policies;
    try {
      policies = new PolicyAssigner(rules).assign(TestData.schemas(), overrides, "data/overrides.json");
    } catch (InputException | IllegalStateException e) {
      return List.of("policies fail: " + e.getMessage());
    }
    StringBuilder text = new StringBuilder();
    policies.values().forEach(db -> text.append(db.columns()).append('\n'));
    if (!add(stages, text.toString(), baseline)) {
      return stages;
    }
    QuestionGenerator generator = new QuestionGenerator(new QuestionEngine(rules), TestData.schemas(), policies);
    for (Path part : parts) {
      Path output = null;
      try {
        output = Files.createTempFile(dir, "records", ".json");
        new DatasetGenerator(generator, 1).generate("fixed", part, output, null, bytes -> { });
        if (!add(stages, Files.readString(output), baseline)) {
          return stages;
        }
        StringBuilder clarifications = new StringBuilder();
        clarifications(rules, output, clarifications);
        if (!add(stages, clarifications.toString(), baseline)) {
          return stages;
        }
      } catch (RuntimeException e) {
        stages.add("questions fail: " + e);
        return stages;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        if (output != null) {
          output.toFile().delete();
        }
      }
    }
    return stages;
  }

  /** Adds a stage; false when it already differs from the baseline's. */
  private static boolean add(List<String> stages, String stage, List<String> baseline) {
    stages.add(stage);
    int i = stages.size() - 1;
    return baseline == null || (baseline.size() > i && baseline.get(i).equals(stage));
  }
}
