package rolepolicy.rules.mutation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * {@value #DEV_STEP}th dev question and every {@value #TRAIN_STEP}th train question).
 */
final class FixedSet {
  static final int DEV_STEP = 3;
  static final int TRAIN_STEP = 20;

  private final List<PolicyOverride> overrides = OverridesReader.read(Path.of("data/overrides.json"));
  private final Path questions;
  private final Path output;

  FixedSet() {
    try {
      ObjectMapper json = new ObjectMapper();
      ArrayNode sample = json.createArrayNode();
      take(json.readTree(TestData.spiderDir().resolve("dev.json").toFile()), DEV_STEP, sample);
      take(json.readTree(TestData.spiderDir().resolve("train_spider.json").toFile()), TRAIN_STEP, sample);
      Path dir = Files.createTempDirectory("rule-mutation-set");
      questions = dir.resolve("questions.json");
      output = dir.resolve("records.json");
      json.writeValue(questions.toFile(), sample);
      questions.toFile().deleteOnExit();
      dir.toFile().deleteOnExit();
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
  private void clarifications(KieBase rules, StringBuilder out) throws IOException {
    QuestionEngine engine = new QuestionEngine(rules);
    PolicyClarifier clarifier = new PolicyClarifier(engine, TestData.schemas());
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
              .stream().filter(f -> f instanceof ClarificationQuestion || f instanceof ClarificationOption).count();
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

  /** Everything the rules decide on the set, as text: equal text, equal outcome. */
  String outcome(KieBase rules) {
    StringBuilder out = new StringBuilder();
    Map<String, DatabasePolicies> policies;
    try {
      policies = new PolicyAssigner(rules).assign(TestData.schemas(), overrides, "data/overrides.json");
    } catch (InputException | IllegalStateException e) {
      return "policies fail: " + e.getMessage();
    }
    policies.values().forEach(db -> out.append(db.columns()).append('\n'));
    try {
      QuestionGenerator generator = new QuestionGenerator(new QuestionEngine(rules), TestData.schemas(), policies);
      new DatasetGenerator(generator, 1).generate("fixed", questions, output, null, bytes -> { });
      out.append(Files.readString(output));
      clarifications(rules, out);
    } catch (RuntimeException e) {
      out.append("questions fail: ").append(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }
}
