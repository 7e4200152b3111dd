package rolepolicy.generate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.engine.RuleLimits;
import rolepolicy.spider.OverridesReader;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/**
 * The shipped rules on every benchmark generate within a tenth of the default firing limit per
 * session (a session past it fails the generation): the default stops a looping rule, never a real
 * question. Prints the most firings one session took (docs/rules.md quotes it).
 */
class ShippedRulesFiringsTest {
  @TempDir Path dir;

  @Test
  void theShippedRulesFireFarBelowTheLimitOnSpiderKaggleDbqaAndBird() throws IOException {
    RuleLimits limits = new RuleLimits(RuleLimits.FIRINGS / 10, RuleLimits.SECONDS);
    Path spider = TestData.spiderDir();
    Path kaggle = TestData.kaggleDir();
    Path bird = TestData.birdDir();
    RuleLimits.set(limits);
    try {
      generate(spider.resolve("tables.json"), "train", List.of(spider.resolve("train_spider.json")), Path.of("data/overrides.json"));
      generate(spider.resolve("tables.json"), "dev", List.of(spider.resolve("dev.json")), Path.of("data/overrides.json"));
      Path overrides = Path.of("data/overrides-kaggledbqa.json");
      generate(kaggle.resolve("KaggleDBQA_tables.json"), "test", examples(kaggle, "_test.json"), overrides);
      generate(kaggle.resolve("KaggleDBQA_tables.json"), "fewshot", examples(kaggle, "_fewshot.json"), overrides);
      generate(bird.resolve("dev_tables.json"), "dev", List.of(bird.resolve("dev.json")), Path.of("data/overrides-bird.json"));
    } finally {
      RuleLimits.set(null);
    }
    System.out.printf("most rule firings in one session (Spider train+dev, KaggleDBQA test+fewshot, BIRD dev): %d;"
        + " the default limit is %d%n", limits.mostFirings(), RuleLimits.FIRINGS);
    assertTrue(limits.mostFirings() > 0 && limits.mostFirings() <= RuleLimits.FIRINGS / 10, "most: " + limits.mostFirings());
  }

  private void generate(Path tables, String split, List<Path> questions, Path overrides) throws IOException {
    Map<String, Schema> schemas = SchemaReader.read(tables);
    Map<String, DatabasePolicies> policies =
        new PolicyAssigner(TestData.rules()).assign(schemas, OverridesReader.read(overrides), overrides.toString());
    QuestionGenerator questionGenerator = new QuestionGenerator(new QuestionEngine(TestData.rules()), schemas, policies);
    Path out = dir.resolve(split + "-" + tables.getFileName());
    new DatasetGenerator(questionGenerator, 2).generate(split, questions, out, null, bytes -> {});
    Files.delete(out);
  }

  private static List<Path> examples(Path kaggle, String suffix) throws IOException {
    try (Stream<Path> files = Files.list(kaggle.resolve("examples"))) {
      return files.filter(f -> f.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }
}
