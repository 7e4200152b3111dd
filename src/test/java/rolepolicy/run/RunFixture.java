package rolepolicy.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rolepolicy.TestData;
import rolepolicy.casebank.CaseBank;
import rolepolicy.casebank.CaseIndex;
import rolepolicy.casebank.CaseReader;
import rolepolicy.cli.Main;
import rolepolicy.io.DatasetWriter;
import rolepolicy.generate.SpiderRun;

/**
 * A small split of Spider dev questions and a small CaseBank of Spider train records, in a folder, for
 * tests of {@code run} (and {@code interact}'s round 0), and the answers a good model would give.
 */
public final class RunFixture {
  /** The questions: the first of the generated dev split. */
  public static final int QUESTIONS = 12;
  /** The bank's cases: the first of the generated train split. */
  public static final int CASES = 300;

  public final Path dir;
  public final Path dataset;
  public final Path bank;
  public final JsonNode records;

  private static RunFixture shared;

  /**
   * One fixture for all the test classes of a test JVM (its bank takes seconds to build), in a
   * temporary folder removed when the JVM exits.
   */
  public static synchronized RunFixture shared() throws IOException {
    if (shared == null) {
      Path dir = Files.createTempDirectory("rolepolicy-run-fixture");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
          paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
          // a temporary folder left behind
        }
      }));
      shared = new RunFixture(dir);
    }
    return shared;
  }

  public RunFixture(Path dir) throws IOException {
    this.dir = dir;
    JsonNode dev = SpiderRun.records("dev", "dev.json");
    ArrayNode questions = DatasetWriter.JSON.createArrayNode();
    ArrayNode cases = DatasetWriter.JSON.createArrayNode();
    for (int i = 0; i < QUESTIONS; i++) {
      questions.add(dev.get(i));
    }
    JsonNode train = SpiderRun.first("train", "train_spider.json", CASES);
    for (int i = 0; i < CASES; i++) {
      cases.add(train.get(i));
    }
    this.records = questions;
    this.dataset = dir.resolve("dev-" + QUESTIONS + ".json");
    DatasetWriter.JSON.writeValue(dataset.toFile(), questions);
    Path casesFile = dir.resolve("cases.json");
    DatasetWriter.JSON.writeValue(casesFile.toFile(), cases);
    this.bank = dir.resolve("bank");
    CaseIndex.build(CaseReader.read(casesFile, TestData.schemas()), casesFile.toString(), bank, TestData.embedder(),
        new CaseBank.Thresholds(0.6, 0.3)).close();
  }

  /** The question a prompt asks: the text after its last "Question: ". */
  public static String questionOf(String prompt) {
    int at = prompt.lastIndexOf("\nQuestion: ");
    return prompt.substring(at + "\nQuestion: ".length(), prompt.indexOf('\n', at + 1));
  }

  /** A good model's answers by question: the gold SQL in a code block amid prose, or REFUSE with a reason. */
  public Map<String, String> goodAnswers() {
    Map<String, String> answers = new LinkedHashMap<>();
    for (JsonNode r : records) {
      JsonNode label = r.path("gold_label");
      answers.put(r.path("question").asText(), label.path("type").asText().equals("REFUSE")
          ? "REFUSE (" + label.path("reason").asText("a column is not allowed") + ")"
          : "Here is the query:\n```sql\n" + label.path("sql").asText() + ";\n```\nIt lists what was asked.");
    }
    return answers;
  }

  public List<String> ids() {
    List<String> ids = new ArrayList<>();
    records.forEach(r -> ids.add(r.path("id").asText()));
    return ids;
  }

  /** The command line's outcome. */
  public record Result(int code, String out, String err) {}

  public static Result main(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  /** {@code run}'s arguments against an endpoint, into a folder, then any others. */
  public List<String> runArgs(String baseUrl, Path out, String... extra) {
    List<String> args = new ArrayList<>(List.of("run", "--llm-url", baseUrl, "--llm-model", "test-model",
        "--dataset", dataset.toString(),
        "--tables", TestData.spiderDir().resolve("tables.json").toString(), "--bank", bank.toString(),
        "--db", TestData.spiderDir().resolve("database").toString(), "--out", out.toString()));
    args.addAll(List.of(extra));
    return args;
  }
}
