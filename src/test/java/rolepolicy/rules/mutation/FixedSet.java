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
    } catch (RuntimeException e) {
      out.append("questions fail: ").append(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }
}
