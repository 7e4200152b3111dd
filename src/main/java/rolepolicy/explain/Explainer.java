package rolepolicy.explain;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.kie.api.KieBase;
import rolepolicy.engine.Audit;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.generate.QuestionGenerator;
import rolepolicy.generate.Records.QuestionRecord;
import rolepolicy.model.PolicyOverride;
import rolepolicy.io.InputException;
import rolepolicy.spider.Question;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/** Runs one question of a Spider split through the rules now, keeping every fact and firing. */
public final class Explainer {
  /** Spider's split names and their question and schema files. */
  static final Map<String, List<String>> SPLIT_FILES =
      Map.of(
          "train", List.of("train_spider.json", "tables.json"),
          "dev", List.of("dev.json", "tables.json"),
          "test", List.of("test.json", "test_tables.json"));

  private Explainer() {}

  /**
   * Explains question {@code id} ({@code dev_0003}) of the Spider folder {@code spider}, with the
   * policies of {@code rules} and {@code overrides}; {@code policyFacts} are facts the policy rules
   * read beside the columns (the grants profile's GRANTs).
   */
  public static Explanation explain(String id, Path spider, KieBase rules, List<PolicyOverride> overrides,
      String overridesSource, List<?> policyFacts) {
    try (rolepolicy.evaluate.SameResult results =
        new rolepolicy.evaluate.SameResult(spider.resolve("database"), 30)) {
      return explain(id, spider, rules, overrides, overridesSource, policyFacts, results);
    }
  }

  /** As above; {@code results} runs the rewrites that must keep the answer, as generate does. */
  private static Explanation explain(String id, Path spider, KieBase rules, List<PolicyOverride> overrides,
      String overridesSource, List<?> policyFacts, rolepolicy.engine.ResultCheck results) {
    String split = QuestionLookup.splitOf(id);
    List<String> files = SPLIT_FILES.get(split);
    if (files == null) {
      String nearest =
          SPLIT_FILES.keySet().stream()
              .sorted(Comparator.comparingInt((String s) -> QuestionLookup.distance(s, split)).thenComparing(s -> s))
              .findFirst()
              .orElseThrow();
      String suggestion = id.startsWith(split) ? nearest + id.substring(split.length()) : nearest + "_0001";
      throw new InputException(
          "no split '" + split + "' for id " + id + " (splits: dev, test, train); did you mean " + suggestion + "?");
    }
    Path questions = spider.resolve(files.get(0));
    Path tables = spider.resolve(files.get(1));
    for (Path file : List.of(questions, tables)) {
      InputException.requireFile(file, false, " (needed for split " + split + ")");
    }
    Question question = QuestionLookup.find(id, split, questions);
    Map<String, Schema> schemas = SchemaReader.read(tables);
    if (!schemas.containsKey(question.dbId())) {
      throw new InputException(questions + ": " + id + ": unknown db_id '" + question.dbId() + "'");
    }
    Map<String, DatabasePolicies> policies =
        new PolicyAssigner(rules).assign(schemas, overrides, overridesSource, policyFacts);
    QuestionGenerator generator =
        new QuestionGenerator(new QuestionEngine(rules), schemas, policies, QuestionGenerator.Facts.AUTO, results);
    Audit audit = new Audit(true);
    QuestionRecord record = generator.generate(id, question, audit);
    return Explanation.of(record, audit);
  }
}
