package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.llm.LocalChatServer;
import rolepolicy.llm.LocalChatServer.Reply;
import rolepolicy.run.RunFixture;

/**
 * A canary key, sent as {@code --llm-key-env}, in an {@code --llm-header} and in the URL, and echoed
 * back by the server in a 401 body, a 500 body (JSON and not) and the answer text, is found in no
 * byte the tool writes: the files under {@code --out}, stdout, stderr, its temporary and cache folders.
 */
class SecretsCanaryTest {
  private static final String CANARY = "sk-canary-7f3a9c21d4e8b6052";

  private static RunFixture fixture;

  @TempDir Path dir;

  @BeforeAll
  static void fixture() throws IOException {
    fixture = RunFixture.shared();
  }

  /** Echoes every header it got, the key's among them: in a 401, a JSON 500, an HTML 500, or the answer, by question. */
  private static LocalChatServer echoingServer() throws IOException {
    List<String> questions = new ArrayList<>();
    fixture.records.forEach(r -> questions.add(r.path("question").asText()));
    return new LocalChatServer(request -> {
      String seen = "you sent Authorization=" + request.authorization() + " and " + new java.util.TreeMap<>(request.headers());
      int index = questions.indexOf(RunFixture.questionOf(request.prompt()));
      return switch (index % 4) {
        case 0 -> Reply.error(401, "Incorrect API key provided: " + seen);
        case 1 -> Reply.error(500, "internal error while serving " + seen);
        case 2 -> Reply.raw(500, "<html><body>" + seen + "</body></html>");
        default -> Reply.text("```sql\nSELECT count(*) FROM singer\n```\n-- " + seen);
      };
    });
  }

  /** Every byte of every file under the folders, with the file's name. */
  private static List<String> leaks(List<Path> roots, String... secrets) throws IOException {
    List<String> found = new ArrayList<>();
    for (Path root : roots) {
      if (!Files.exists(root)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(root)) {
        for (Path file : files.filter(Files::isRegularFile).toList()) {
          String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
          for (String secret : secrets) {
            if (bytes.contains(secret)) {
              found.add(file + " holds " + secret);
            }
          }
        }
      }
    }
    return found;
  }

  private static String[] forms(String secret) {
    return new String[] {secret, Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8)),
        Base64.getEncoder().encodeToString(("user:" + secret).getBytes(StandardCharsets.UTF_8))};
  }

  private record Outcome(int code, String err, List<String> leaks, Path out) {}

  private Outcome run(String name, String baseUrl, Map<String, String> environment, String... extra) throws Exception {
    Path home = Files.createDirectories(dir.resolve(name));
    Path tmp = Files.createDirectories(home.resolve("tmp"));
    Path out = home.resolve("out");
    List<String> args = new ArrayList<>(fixture.runArgs(baseUrl, out, "--llm-retries", "0", "--allow-failures", "12"));
    args.addAll(List.of(extra));
    ToolProcess tool = ToolProcess.start(tmp, home.resolve("cache"), home.resolve("logs"), args, environment);
    int code = tool.await(300);
    return new Outcome(code, tool.err(), leaks(List.of(home), forms(CANARY)), out);
  }

  @Test
  void aKeyFromTheEnvironmentEchoedByTheServerIsWrittenNowhere() throws Exception {
    try (LocalChatServer server = echoingServer()) {
      Outcome o = run("key-env", server.baseUrl(), Map.of("ROLEPOLICY_CANARY_KEY", CANARY), "--llm-key-env",
          "ROLEPOLICY_CANARY_KEY");
      assertEquals(0, o.code(), o.err());
      assertEquals("Bearer " + CANARY, server.requests().get(0).authorization(), "the key is sent");
      assertTrue(Files.isRegularFile(o.out().resolve("answers.jsonl")) && Files.isRegularFile(o.out().resolve("run.json")));
      String answers = Files.readString(o.out().resolve("answers.jsonl"));
      assertTrue(answers.contains("Incorrect API key provided: you sent Authorization=Bearer [redacted]"), answers);
      assertTrue(answers.contains("\"status\":500") && answers.contains("-- you sent Authorization=Bearer [redacted]"), answers);
      assertEquals(List.of(), o.leaks());
    }
  }

  @Test
  void aHeaderValueEchoedByTheServerIsWrittenNowhere() throws Exception {
    try (LocalChatServer server = echoingServer()) {
      Outcome o = run("header", server.baseUrl(), Map.of(), "--llm-header", "api-key: " + CANARY);
      assertEquals(0, o.code(), o.err());
      assertEquals(CANARY, server.requests().get(0).headers().getFirst("api-key"), "the header is sent");
      String answers = Files.readString(o.out().resolve("answers.jsonl"));
      assertTrue(answers.contains("[redacted]"), answers);
      assertEquals(List.of(), o.leaks());
    }
  }

  @Test
  void aPasswordInTheUrlIsRefusedAndNotShown() throws Exception {
    try (LocalChatServer server = echoingServer()) {
      String url = server.baseUrl().replace("http://", "http://user:" + CANARY + "@");
      Outcome o = run("url", url, Map.of());
      assertEquals(Main.USAGE, o.code(), o.err());
      assertTrue(o.err().contains("--llm-url http://user:[redacted]@127.0.0.1:") && o.err().contains("--llm-key-env"), o.err());
      assertEquals(0, server.count(), "nothing is sent");
      assertFalse(Files.exists(o.out()));
      assertEquals(List.of(), o.leaks());
    }
  }

  @Test
  void aKeyWithALineBreakIsAClearErrorThatDoesNotShowIt() throws Exception {
    try (LocalChatServer server = echoingServer()) {
      Outcome o = run("crlf", server.baseUrl(), Map.of("ROLEPOLICY_CANARY_KEY", CANARY + "\r\nX-Injected: 1"),
          "--llm-key-env", "ROLEPOLICY_CANARY_KEY");
      assertEquals(Main.BAD_INPUT, o.code(), o.err());
      assertTrue(o.err().startsWith("error: the API key in ROLEPOLICY_CANARY_KEY holds a line break"), o.err());
      assertFalse(o.err().contains("\tat "), "no stack trace: " + o.err());
      assertEquals(0, server.count());
      assertEquals(List.of(), o.leaks());
    }
  }

  @Test
  void anUnsetKeyVariableIsAnErrorNamingIt() throws Exception {
    try (LocalChatServer server = echoingServer()) {
      RunFixture.Result r = RunFixture.main(fixture.runArgs(server.baseUrl(), dir.resolve("out"), "--llm-key-env",
          "ROLEPOLICY_TEST_UNSET_VARIABLE").toArray(String[]::new));
      assertEquals(Main.BAD_INPUT, r.code(), r.err());
      assertTrue(r.err().startsWith("error: --llm-key-env ROLEPOLICY_TEST_UNSET_VARIABLE: the environment variable"
          + " ROLEPOLICY_TEST_UNSET_VARIABLE is not set; set it to the API key, or leave out --llm-key-env"), r.err());
      assertEquals(0, server.count());
    }
  }

  @Test
  void aHeaderTheClientRefusesIsACommandLineErrorThatShowsNoValue() throws Exception {
    try (LocalChatServer server = echoingServer()) {
      for (String header : List.of("Host: evil.example", "api-key: " + CANARY + "\r\nX-Injected: 1", CANARY)) {
        RunFixture.Result r = RunFixture.main(fixture.runArgs(server.baseUrl(), dir.resolve("out"), "--llm-header",
            header).toArray(String[]::new));
        assertEquals(Main.USAGE, r.code(), header + ": " + r.err());
        assertTrue(r.err().startsWith(header.startsWith("Host") ? "--llm-header 'Host: …': the HTTP client sets 'Host' itself"
            : header.startsWith("api-key") ? "--llm-header 'api-key: …': its value holds a line break"
            : "--llm-header takes 'Name: value'"), r.err());
        assertFalse(r.err().contains(CANARY) || r.out().contains(CANARY), r.err());
      }
      assertEquals(0, server.count());
    }
  }

  @Test
  void aDatabasePasswordInAnErrorIsMasked() throws IOException {
    Path records = dir.resolve("rcr.jsonl");
    try (java.io.InputStream rcr = new java.util.zip.GZIPInputStream(Files.newInputStream(rolepolicy.TestData.rcrFile()))) {
      Files.writeString(records, new String(rcr.readAllBytes(), StandardCharsets.UTF_8).lines().limit(5)
          .map(l -> l + "\n").collect(java.util.stream.Collectors.joining()));
    }
    RunFixture.Result r = RunFixture.main("bench-decide", records.toString(), "--runs", "1", "--warmup", "0", "--pg-url",
        "jdbc:postgresql://bench:" + CANARY + "@127.0.0.1:1/spider?password=" + CANARY + "&ssl=false");
    assertEquals(Main.BAD_INPUT, r.code(), r.err());
    assertTrue(r.err().contains("jdbc:postgresql://bench:[redacted]@127.0.0.1:1/spider?password=[redacted]&ssl=false"), r.err());
    assertFalse(r.err().contains(CANARY) || r.out().contains(CANARY), r.err() + r.out());
  }
}
