package rolepolicy.tablescore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.cli.Main;
import rolepolicy.llm.ChatEndpoint;
import rolepolicy.llm.LocalChatServer;
import rolepolicy.llm.LocalChatServer.Reply;
import rolepolicy.llm.PromptTemplate;

/** The LLM judge against a local chat-completions server: prompt, cache, answers it cannot read. */
class LlmJudgeTest {
  @TempDir Path temp;

  private static final ScoredColumn NATIONALITY =
      new ScoredColumn("nationality", ColumnRole.VALUE, "artist's nationality (e.g., french)", "multi_str");

  private LlmJudge judge(LocalChatServer server, Path cache) {
    ChatEndpoint endpoint = new ChatEndpoint(
        new ChatEndpoint.Connection(server.baseUrl(), "judge-model", "NO_SUCH_VARIABLE", 5, 0), Map.of());
    PromptTemplate template = PromptTemplate.read(Path.of("data/prompts/cell-judge.txt"), LlmJudge.PLACEHOLDERS);
    return new LlmJudge(endpoint, template, new NormalisingJudge(1e-6), cache);
  }

  @Test
  void asksWithTheDescriptionAndBothValuesAndKeepsTheAnswer() throws Exception {
    Path cache = temp.resolve("cache.jsonl");
    try (LocalChatServer server = new LocalChatServer(r -> Reply.text(r.prompt().contains("Extracted value: USA") ? "Yes." : "NO"))) {
      try (LlmJudge judge = judge(server, cache)) {
        assertTrue(judge.same(NATIONALITY, "American", "USA"));
        assertFalse(judge.same(NATIONALITY, "American", "French"));
        // equal after normalising, or one side empty: no request
        assertTrue(judge.same(NATIONALITY, "American", " american "));
        assertFalse(judge.same(NATIONALITY, "American", null));
        assertEquals(2, judge.requests());
      }
      String prompt = server.requests().get(0).prompt();
      assertTrue(prompt.contains("What the attribute holds: artist's nationality (e.g., french)"), prompt);
      assertTrue(prompt.contains("Reference value: American"), prompt);
      assertTrue(prompt.contains("Attribute: nationality"), prompt);
      assertEquals(null, server.requests().get(0).authorization(), "no key set: no Authorization header");
      assertEquals(0.0, server.requests().get(0).body().get("temperature").asDouble());

      // a rerun asks nothing: every answer is in the cache
      try (LlmJudge again = judge(server, cache)) {
        assertTrue(again.same(NATIONALITY, "American", "USA"));
        assertFalse(again.same(NATIONALITY, "American", "French"));
        assertEquals(0, again.requests());
      }
      assertEquals(2, server.requests().size());
    }
  }

  @Test
  void aLineCutShortInTheCacheIsAskedAgain() throws Exception {
    Path cache = temp.resolve("cache.jsonl");
    try (LocalChatServer server = new LocalChatServer(r -> Reply.text("YES"))) {
      try (LlmJudge judge = judge(server, cache)) {
        judge.same(NATIONALITY, "American", "USA");
      }
      String line = Files.readString(cache).strip();
      Files.writeString(cache, line.substring(0, line.length() / 2));
      try (LlmJudge judge = judge(server, cache)) {
        assertTrue(judge.same(NATIONALITY, "American", "USA"));
        assertEquals(1, judge.requests());
      }
    }
  }

  @Test
  void anAnswerThatIsNeitherYesNorNoIsAJudgeError() throws Exception {
    try (LocalChatServer server = new LocalChatServer(r -> Reply.text("It depends on the context."));
        LlmJudge judge = judge(server, temp.resolve("c.jsonl"))) {
      JudgeException e = assertThrows(JudgeException.class, () -> judge.same(NATIONALITY, "American", "USA"));
      assertEquals("the judge's answer for nationality is not YES or NO: 'It depends on the context.'", e.getMessage());
    }
  }

  /** A one-table dataset made here: an id, a name and a country. */
  private Path tinyDataset() throws Exception {
    Path root = temp.resolve("Query");
    Path people = root.resolve("People");
    Files.createDirectories(people.resolve("Select"));
    Files.writeString(people.resolve("People.csv"), "id,name,country\n1,Ann,United States\n2,Bob,France\n");
    Files.writeString(people.resolve("People_attributes.json"), """
        {"people": {"name": {"value_type": "str", "description": "full name"},
                    "country": {"value_type": "str", "description": "country of birth"}}}""");
    Files.writeString(people.resolve("Select/select_queries.sql"), "-- Query 1: select (people)\nSELECT name, country FROM people;\n");
    Path result = temp.resolve("results/People/Select/select_queries/1/result.csv");
    Files.createDirectories(result.getParent());
    Files.writeString(result, "name,country,id\nAnn,USA,1\nBob,Germany,2\n");
    return root;
  }

  private static int run(StringWriter out, StringWriter err, String... args) {
    return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @Test
  void scoreTablesWithTheLlmJudgeThroughTheCommandLine() throws Exception {
    Path root = tinyDataset();
    try (LocalChatServer server = new LocalChatServer(
        r -> Reply.text(r.prompt().contains("Extracted value: USA") ? "YES" : "NO"))) {
      String[] args = {"score-tables", "--uda", root.toString(), "--results", temp.resolve("results").toString(),
          "--out", temp.resolve("out").toString(), "--judge", "llm", "--llm-url", server.baseUrl(),
          "--llm-model", "judge-model", "--llm-retries", "0"};
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      assertEquals(0, run(out, err, args), err.toString());
      assertEquals("", err.toString());
      // name right twice; country: USA judged the same as United States, Germany not France
      assertTrue(out.toString().contains("People   Select          1    1       1      0.750   0.750  0.750"), out.toString());
      assertTrue(out.toString().contains("LLM judge: 2 requests"), out.toString());

      StringWriter again = new StringWriter();
      assertEquals(0, run(again, new StringWriter(), args));
      assertTrue(again.toString().contains("LLM judge: 0 requests"), again.toString());
      assertEquals(2, server.requests().size());

      // the endpoint gone: a clear error, exit 1, the cached judgements still answer
      server.setHandler(r -> Reply.error(500));
      Files.delete(temp.resolve("out/judge-cache.jsonl"));
      StringWriter failed = new StringWriter();
      assertEquals(Main.BAD_INPUT, run(new StringWriter(), failed, args));
      assertTrue(failed.toString().startsWith("error: judge-model at " + server.baseUrl() + ": the endpoint answered with an error"),
          failed.toString());
    }
  }
}
