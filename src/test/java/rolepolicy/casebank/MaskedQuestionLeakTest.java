package rolepolicy.casebank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.io.DatasetWriter;
import rolepolicy.generate.SpiderRun;
import rolepolicy.llm.PromptTemplate;
import rolepolicy.model.SchemaColumn;
import rolepolicy.skeleton.LeakCheck;
import rolepolicy.spider.Schema;

/**
 * No masked question of the bank shows a name or a value of its own database (docs/retrieval.md,
 * "Leaks of a masked question"): checked on every case of Spider train, and on every example of every
 * Spider dev prompt (the default selection) against the whole train bank, where a name or value the
 * target has too is no leak.
 */
class MaskedQuestionLeakTest {
  @TempDir static Path dir;

  private static List<Case> train;

  /** The cases of Spider train, read once for both tests. */
  private static synchronized List<Case> trainCases() throws Exception {
    if (train == null) {
      Path file = dir.resolve("train.json");
      DatasetWriter.JSON.writeValue(file.toFile(), SpiderRun.records("train", "train_spider.json"));
      train = CaseReader.read(file, TestData.schemas());
    }
    return train;
  }

  @Test
  void noCaseOfTheBankLeaksANameOrValueOfItsOwn() throws Exception {
    List<String> leaks = new ArrayList<>();
    List<Case> cases = trainCases();
    for (Case c : cases) {
      List<String> found = LeakCheck.questionLeaks(c.maskedQuestion(), TestData.schemas().get(c.dbId()), c.referenceSql());
      if (!found.isEmpty()) {
        leaks.add(c.id() + " " + found + ": " + c.maskedQuestion());
      }
    }
    assertEquals(7000, cases.size());
    assertEquals(List.of(), leaks.subList(0, Math.min(20, leaks.size())), leaks.size() + " cases leak");
  }

  /** What {@link SpiderRun#first} promises the tests that take the first cases of train. */
  @Test
  void theFirstQuestionsOfTrainGeneratedAloneGiveTheWholeSplitsFirstRecords() {
    JsonNode whole = SpiderRun.records("train", "train_spider.json");
    JsonNode alone = SpiderRun.alone("train", "train_spider.json", 800);
    assertEquals(800, alone.size());
    for (int i = 0; i < alone.size(); i++) {
      assertEquals(whole.get(i), alone.get(i), "record " + i);
    }
  }

  /** The masked question of each example a prompt shows, in order. */
  private static final Pattern MASKED = Pattern.compile("(?m)^Question \\(names and values masked\\): (.*)$");

  @Test
  @org.junit.jupiter.api.Tag("whole-spider")
  void noDevPromptShowsANameOrValueOfAnExamplesDatabaseThatTheTargetsHasNot() throws Exception {
    List<Case> cases = trainCases();
    Map<String, Case> byId = new HashMap<>();
    cases.forEach(c -> byId.put(c.id(), c));
    JsonNode dev = SpiderRun.records("dev", "dev.json");
    // the embeddings kept between runs of this test in its own cache folder; the train bank's indexes
    // copied from data/casebank when README's casebank command built one there from the same
    // questions, as a rebuild in place copies them (else built, with that bank's vectors if any)
    Embedder embedder = new Embedder(Path.of("target", "test-embedding-cache"));
    embedder.learn(CaseIndex.vectors(Path.of("data", "casebank")));
    Set<String> masked = new TreeSet<>();
    cases.forEach(c -> masked.add(c.maskedQuestion()));
    embedder.embedAll(List.copyOf(masked));
    embedder.save();
    // Spider dev's databases have no case in the train bank, so no dev prompt searches the bank's
    // same-database index, the one that holds the plain questions' vectors: those are not computed
    // here (each plain question that is no masked question stands in with its masked question's
    // vector), which halves the embedding; the prompts are the ones the real bank gives.
    Set<String> devDatabases = new TreeSet<>();
    dev.forEach(q -> devDatabases.add(q.get("db_id").asText()));
    assertEquals(List.of(), cases.stream().map(Case::dbId).filter(devDatabases::contains).distinct().toList(),
        "dev databases with cases in the train bank");
    Map<String, float[]> standIns = new HashMap<>();
    cases.stream().filter(c -> !masked.contains(c.question()))
        .forEach(c -> standIns.putIfAbsent(c.question(), embedder.embed(c.maskedQuestion())));
    embedder.learn(standIns);
    int embedded = embedder.computed();
    try (CaseBank bank = CaseIndex.build(cases, "train", dir.resolve("bank"), embedder, new CaseBank.Thresholds(0.94, 0.54),
        Path.of("data", "casebank"))) {
      assertEquals(embedded, embedder.computed(), "texts the build embedded beyond the masked questions");
      // the prompts as `prompts` writes them by default (skeleton_vote), with 5 examples each
      PromptWriter writer = new PromptWriter(bank, PromptTemplate.read(Path.of("data/prompts/few-shot.txt"),
          PromptWriter.PLACEHOLDERS), CaseBank.Method.SKELETON_VOTE, 5, new DraftSelection(bank, TestData.schemas()),
          SchemaStyle.CREATE_TABLE);
      List<String> leaks = new ArrayList<>();
      int slots = 0;
      for (JsonNode q : dev) {
        Schema target = TestData.schemas().get(q.get("db_id").asText());
        PromptWriter.PromptLine line = writer.prompt(q, target, null);
        Matcher m = MASKED.matcher(line.prompt());
        for (PromptWriter.Example e : line.examples()) {
          assertTrue(m.find(), line.prompt());
          slots++;
          Case example = byId.get(e.id());
          for (String leak : LeakCheck.questionLeaks(m.group(1), TestData.schemas().get(example.dbId()), example.referenceSql())) {
            if (!targetHas(leak, target, q)) {
              leaks.add(q.get("id").asText() + " ← " + e.id() + " " + leak + ": " + m.group(1));
            }
          }
        }
      }
      assertTrue(slots > 5000, "example slots: " + slots);
      assertEquals(List.of(), leaks.subList(0, Math.min(20, leaks.size())), leaks.size() + " example slots leak");
    }
  }

  /** Whether a leak names what the target shows anyway: a name of its database, a value of its SQL or question. */
  private static boolean targetHas(String leak, Schema target, JsonNode q) {
    String what = leak.substring(leak.indexOf(' ') + 1);
    if (leak.startsWith("literal ")) {
      return LeakCheck.literalTexts(q.get("original_sql").asText()).stream().anyMatch(what::equalsIgnoreCase)
          || Pattern.compile("(?<![\\p{L}\\p{N}_])" + Pattern.quote(what) + "(?![\\p{L}\\p{N}_])",
              Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE).matcher(q.get("question").asText()).find();
    }
    Set<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    names.addAll(target.tables());
    target.realColumns().stream().map(SchemaColumn::name).forEach(names::add);
    return names.contains(what) || names.stream().anyMatch(n -> n.replace('_', ' ').equalsIgnoreCase(what.replace('_', ' ')));
  }
}
