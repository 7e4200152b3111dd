package rolepolicy.casebank;

import rolepolicy.ports.QuerySimilarity;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.io.DatasetWriter;
import rolepolicy.generate.SpiderRun;
import rolepolicy.io.InputException;

/** A bank of the first 800 generated Spider train records, and Spider dev questions against it. */
class CaseBankTest {
  static final int CASES = 800;
  @TempDir static Path dir;
  static CaseBank bank;
  static List<Case> cases;
  static JsonNode dev;

  @BeforeAll
  static void build() throws Exception {
    JsonNode train = SpiderRun.first("train", "train_spider.json", CASES);
    ArrayNode first = DatasetWriter.JSON.createArrayNode();
    for (int i = 0; i < CASES; i++) {
      first.add(train.get(i));
    }
    Path file = dir.resolve("train.json");
    DatasetWriter.JSON.writeValue(file.toFile(), first);
    cases = CaseReader.read(file, TestData.schemas());
    bank = CaseIndex.build(cases, file.toString(), dir.resolve("bank"), TestData.embedder(), new CaseBank.Thresholds(0.6, 0.3));
    dev = SpiderRun.records("dev", "dev.json");
  }

  @AfterAll
  static void close() {
    bank.close();
  }

  @Test
  void tieredGivesSameDatabaseCasesForAQuestionOfATrainDatabase() {
    // a question not in the bank, on a database of the bank's cases
    String db = "department_management";
    CaseBank.Retrieval r = bank.retrieve("Count the department heads who are older than 56.", db,
        TestData.schemas().get(db), CaseBank.Method.TIERED, 3);
    assertEquals("specific", r.type(), r.why());
    assertEquals(3, r.hits().size());
    for (CaseBank.Hit h : r.hits()) {
      assertEquals(db, h.kase().dbId());
      assertEquals("specific", h.type());
    }
    assertTrue(r.why().startsWith("same database: best cosine"), r.why());
  }

  @Test
  void theDatabaseFilterIsInsideTheSearchSoTheTierIsNeverShort() {
    // every database of the bank with at least 5 cases gives 5 of its own, whatever the nearest cases elsewhere
    var byDb = new java.util.TreeMap<String, Integer>();
    cases.forEach(c -> byDb.merge(c.dbId(), 1, Integer::sum));
    int checked = 0;
    for (var e : byDb.entrySet()) {
      if (e.getValue() < 5) {
        continue;
      }
      List<CaseBank.Hit> hits = bank.sameDatabase(new Embedder().embed("How many singers are there?"), e.getKey(), 5, java.util.Set.of());
      assertEquals(5, hits.size(), e.getKey());
      assertTrue(hits.stream().allMatch(h -> h.kase().dbId().equals(e.getKey())));
      checked++;
    }
    assertTrue(checked > 5, "databases checked: " + checked);
  }

  @Test
  void skeletonOnlyNeverReturnsASpecificCase() {
    for (int i = 0; i < dev.size(); i += 25) {
      JsonNode q = dev.get(i);
      CaseBank.Retrieval r = bank.retrieve(q.get("question").asText(), q.get("db_id").asText(),
          TestData.schemas().get(q.get("db_id").asText()), CaseBank.Method.SKELETON_ONLY, 5);
      assertEquals(5, r.hits().size());
      for (CaseBank.Hit h : r.hits()) {
        assertEquals("skeleton", h.type());
        assertNull(h.kase().dbId());
        assertNull(h.kase().question());
        assertNull(h.kase().goldSql());
        assertNull(h.kase().referenceSql());
      }
    }
    String db = "department_management";
    CaseBank.Retrieval own = bank.retrieve("Count the department heads who are older than 56.", db,
        TestData.schemas().get(db), CaseBank.Method.SKELETON_ONLY, 3);
    assertTrue(own.hits().stream().allMatch(h -> h.type().equals("skeleton") && h.kase().dbId() == null));
  }

  @Test
  void aDevQuestionNeverRetrievesItselfOrAnotherDevQuestion() {
    for (int i = 0; i < dev.size(); i += 10) {
      JsonNode q = dev.get(i);
      for (CaseBank.Method policy : CaseBank.Method.values()) {
        CaseBank.Retrieval r = bank.retrieve(q.get("question").asText(), q.get("db_id").asText(),
            TestData.schemas().get(q.get("db_id").asText()), policy, 5);
        for (CaseBank.Hit h : r.hits()) {
          assertTrue(h.kase().id().startsWith("train_"), h.kase().id());
        }
      }
    }
  }

  @Test
  void devQuestionsAreRefusedAsCases() throws Exception {
    Path file = dir.resolve("dev-as-train.json");
    ArrayNode some = DatasetWriter.JSON.createArrayNode();
    some.add(dev.get(0));
    DatasetWriter.JSON.writeValue(file.toFile(), some);
    InputException e = assertThrows(InputException.class, () -> CaseReader.read(file, TestData.schemas()));
    assertTrue(e.getMessage().contains("dev_0001) is a dev question"), e.getMessage());
  }

  @Test
  void everyRetrievalSaysWhy() {
    JsonNode q = dev.get(0);
    CaseBank.Retrieval r = bank.retrieve(q.get("question").asText(), q.get("db_id").asText(),
        TestData.schemas().get(q.get("db_id").asText()), CaseBank.Method.TIERED, 3);
    // dev databases are not train databases: no specific case, then skeletons if they clear 0.30
    assertTrue(r.why().startsWith("no case of " + q.get("db_id").asText()), r.why());
    assertTrue(r.why().contains(String.format(Locale.ROOT, "%.3f", 0.3)), r.why());
  }

  @Test
  void aBanksVectorsAreTheModelsOwnForEachQuestionAndMaskedQuestion() {
    java.util.Map<String, float[]> vectors = CaseIndex.vectors(dir.resolve("bank"));
    java.util.Set<String> texts = new java.util.HashSet<>();
    cases.forEach(c -> texts.addAll(List.of(c.question(), c.maskedQuestion())));
    assertEquals(texts, vectors.keySet());
    Embedder model = new Embedder();
    for (Case c : cases.subList(0, 10)) {
      assertTrue(java.util.Arrays.equals(model.embed(c.question()), vectors.get(c.question())), c.question());
      assertTrue(java.util.Arrays.equals(model.embed(c.maskedQuestion()), vectors.get(c.maskedQuestion())), c.maskedQuestion());
    }
    assertEquals(java.util.Map.of(), CaseIndex.vectors(dir.resolve("nothing")), "no bank, no vectors");
  }

  @Test
  void openingAFolderWithoutABankIsAClearError() {
    InputException e = assertThrows(InputException.class, () -> CaseIndex.open(dir.resolve("nothing"), new Embedder()));
    assertTrue(e.getMessage().contains("no case bank here"), e.getMessage());
    assertTrue(Files.notExists(dir.resolve("nothing")));
  }

  @Test
  void aPromptGivesEachColumnsPolicyTheExamplesAndTheQuestion() throws Exception {
    Path template = Path.of("data/prompts/few-shot.txt");
    PromptWriter writer = new PromptWriter(bank, rolepolicy.llm.PromptTemplate.read(template, PromptWriter.PLACEHOLDERS)
        .with("policy_rules", rolepolicy.engine.PolicyPromptText.of(TestData.rules())), CaseBank.Method.TIERED, 3,
        SchemaStyle.CREATE_TABLE);
    JsonNode q = dev.get(0);
    java.util.Map<String, String> policies = new java.util.LinkedHashMap<>();
    q.get("column_policies").fields().forEachRemaining(e -> policies.put(e.getKey(), e.getValue().asText()));
    PromptWriter.PromptLine line = writer.prompt(q.get("id").asText(), q.get("db_id").asText(), q.get("question").asText(),
        TestData.schemas().get(q.get("db_id").asText()), policies);
    assertEquals(3, line.examples().size());
    assertTrue(line.examples().stream().allMatch(e -> e.type().equals("skeleton") && e.id().startsWith("train_")));
    String prompt = line.prompt();
    assertTrue(prompt.contains("- AggOnly: never select it bare; never join on it or filter on it; "
        + "aggregate it only with COUNT or AVG."), prompt);
    assertTrue(prompt.contains("GROUP BY, HAVING and ORDER BY are not checked"), prompt);
    assertTrue(prompt.contains("CREATE TABLE singer (\n  Singer_ID number, -- " + policies.get("singer.singer_id")
        + "\n  Name text, -- " + policies.get("singer.name")), prompt);
    assertTrue(prompt.contains("Question: " + q.get("question").asText()), prompt);
    assertTrue(prompt.contains("Answer shape: "), prompt);
    assertTrue(prompt.endsWith("Answer with one SQLite query on a single line, or with REFUSE and the reason on that line, as the examples do.\n"), prompt);
    String json = rolepolicy.io.DatasetWriter.JSON.writeValueAsString(line);
    assertTrue(json.startsWith("{\"id\":\"dev_0001\",\"db_id\":\"concert_singer\",\"prompt\":"), json);
  }

  @Test
  void refuseExamplesAreNoMoreFrequentThanInTheBankUnlessTheQuestionLooksLikeARefuse() {
    double rate = bank.refuseRate();
    assertTrue(rate > 0.15 && rate < 0.45, "REFUSE rate of the bank: " + rate);
    int capped = 0;
    for (int k : new int[] {1, 3, 5}) {
      for (int i = 0; i < dev.size(); i += 7) {
        JsonNode q = dev.get(i);
        CaseBank.Retrieval r = bank.retrieve(q.get("question").asText(), q.get("db_id").asText(),
            TestData.schemas().get(q.get("db_id").asText()), CaseBank.Method.TIERED, k);
        long refuse = r.hits().stream().filter(h -> h.kase().refuse()).count();
        if (!r.type().equals("none") && !r.why().contains("looks like a REFUSE")) {
          assertTrue(refuse <= Math.floor(k * rate), k + " examples, " + refuse + " REFUSE: " + r.why());
          assertEquals(k, r.hits().size(), r.why());
        }
        capped += r.why().contains("REFUSE examples capped") ? 1 : 0;
      }
    }
    assertTrue(capped > 10, "retrievals where the cap passed over a REFUSE case: " + capped);
  }

  @Test
  void theSkeletonVoteGivesKExamplesTheSameOnEveryRunAndSaysSo() {
    DraftSelection selection = new DraftSelection(bank, TestData.schemas(), new ValueLinker(Path.of("../shared/spider/database")));
    DraftSelection again = new DraftSelection(bank, TestData.schemas(), new ValueLinker(Path.of("../shared/spider/database")));
    int checked = 0;
    for (int i = 0; i < dev.size(); i += 50) {
      JsonNode q = dev.get(i);
      String db = q.get("db_id").asText();
      CaseBank.Retrieval r = selection.retrieve(q.get("question").asText(), db, TestData.schemas().get(db),
          CaseBank.Method.SKELETON_VOTE, 3, null);
      CaseBank.Retrieval s = again.retrieve(q.get("question").asText(), db, TestData.schemas().get(db),
          CaseBank.Method.SKELETON_VOTE, 3, null);
      assertEquals("skeleton", r.type(), r.why());
      assertEquals(3, r.hits().size(), r.why());
      assertEquals(r.hits().stream().map(h -> h.kase().id()).toList(), s.hits().stream().map(h -> h.kase().id()).toList());
      assertTrue(r.why().contains("skeleton vote of the 10 nearest") && r.why().contains("values linked"), r.why());
      checked++;
    }
    assertTrue(checked > 15, "questions checked: " + checked);
  }

  @Test
  void theCasesSkeletonsAreComputedWhenNeededAndKeptInTheCacheFolderForTheNextRun(@TempDir Path cache) throws Exception {
    JsonNode q = dev.get(100);
    String db = q.get("db_id").asText();
    DraftSelection first = new DraftSelection(bank, TestData.schemas(), null, cache);
    CaseBank.Retrieval r = first.retrieve(q.get("question").asText(), db, TestData.schemas().get(db), CaseBank.Method.SKELETON_VOTE, 3, null);
    int computed = first.computed();
    assertTrue(computed > 0 && computed < CASES, "the candidates' skeletons only: " + computed);
    first.save();
    List<Path> files;
    try (var list = Files.list(cache)) {
      files = list.filter(f -> f.getFileName().toString().startsWith("dail-skeletons-")).toList();
    }
    assertEquals(1, files.size(), files.toString());
    List<String> lines = Files.readAllLines(files.get(0));
    assertEquals(computed, lines.size());
    for (String line : lines.subList(0, 20)) {
      Case c = cases.stream().filter(k -> line.startsWith(k.id() + "\t")).findFirst().orElseThrow();
      assertEquals(c.id() + "\t" + QuerySimilarity.dailSkeleton(c.referenceSql(), TestData.schemas().get(c.dbId())), line);
    }

    DraftSelection next = new DraftSelection(bank, TestData.schemas(), null, cache);
    CaseBank.Retrieval s = next.retrieve(q.get("question").asText(), db, TestData.schemas().get(db), CaseBank.Method.SKELETON_VOTE, 3, null);
    assertEquals(0, next.computed(), "every skeleton read from the cache folder");
    assertEquals(r, s);

    // other schemas (a table renamed): other skeletons, another file
    java.util.Map<String, rolepolicy.spider.Schema> renamed = new java.util.HashMap<>(TestData.schemas());
    rolepolicy.spider.Schema concert = renamed.get("concert_singer");
    renamed.put("concert_singer", new rolepolicy.spider.Schema("concert_singer",
        concert.tables().stream().map(t -> t.equals("singer") ? "vocalist" : t).toList(), concert.columns()));
    DraftSelection other = new DraftSelection(bank, renamed, null, cache);
    other.retrieve(q.get("question").asText(), db, TestData.schemas().get(db), CaseBank.Method.SKELETON_VOTE, 3, null);
    assertEquals(computed, other.computed());
  }

  /** A bank without its indexes is damaged: reading it says so and makes no folder in it (Lucene would). */
  @Test
  void aBankWithoutItsIndexesIsRefusedAndNotWrittenTo() throws Exception {
    Path copy = Files.createDirectories(dir.resolve("no-index"));
    for (String file : List.of("bank.json", "cases.jsonl")) {
      Files.copy(dir.resolve("bank").resolve(file), copy.resolve(file));
    }
    InputException e = assertThrows(InputException.class, () -> CaseIndex.open(copy, TestData.embedder()));
    assertTrue(e.getMessage().contains("the index is missing"), e.getMessage());
    try (var files = Files.walk(copy)) {
      assertEquals(List.of(copy, copy.resolve("bank.json"), copy.resolve("cases.jsonl")), files.sorted().toList());
    }
  }
}
