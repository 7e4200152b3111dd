package rolepolicy.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.evaluate.Evaluator;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.io.InputException;

/** The stand-in model of {@code stand-in}: each prompt answered with its question's prediction. */
class RecordedModelTest {
  static RunFixture fixture;
  static List<GoldRecord> records;

  @TempDir Path dir;

  @BeforeAll
  static void fixture() throws IOException {
    fixture = RunFixture.shared();
    records = Evaluator.readDataset(fixture.dataset);
  }

  @Test
  void aRunAgainstTheStandInGetsEachQuestionsOwnAnswer() throws IOException {
    Map<String, String> good = fixture.goodAnswers();
    List<String> answers = records.stream().map(r -> good.get(r.question())).toList();
    try (RecordedModel model = new RecordedModel(records, answers, 0)) {
      Path out = dir.resolve("runs/stand-in");
      RunFixture.Result r = RunFixture.main(fixture.runArgs(model.baseUrl(), out, "--parallel", "4").toArray(String[]::new));
      assertEquals(0, r.code(), r.err());
      assertEquals(RunFixture.QUESTIONS, model.answered());
      assertEquals(0, model.refused());
      List<String> expected = new ArrayList<>();
      for (JsonNode record : fixture.records) {
        JsonNode label = record.path("gold_label");
        expected.add(label.path("type").asText().equals("REFUSE") ? "REFUSE" : label.path("sql").asText());
      }
      assertEquals(expected, Files.readAllLines(out.resolve(ModelRun.PREDICTIONS)));
    }
  }

  @Test
  void withFailTheSameShareOfQuestionsFailsForGoodOnEveryRun() throws IOException {
    Map<String, GoldRecord> byQuestion = new java.util.LinkedHashMap<>();
    for (JsonNode r : rolepolicy.generate.SpiderRun.records("dev", "dev.json")) {
      byQuestion.putIfAbsent(r.path("question").asText(), new GoldRecord(r.path("id").asText(), r.path("db_id").asText(), false,
          "SELECT 1", "SELECT 1", Map.of(), r.path("question").asText()));
    }
    List<GoldRecord> distinct = List.copyOf(byQuestion.values());
    try (RecordedModel model = new RecordedModel(distinct, distinct.stream().map(r -> "SELECT 1").toList(), 0, 3)) {
      List<String> failing = byQuestion.keySet().stream().filter(model::fails).toList();
      // SHA-256 spreads the questions evenly: about 3 %, within two standard deviations of a binomial
      double expected = distinct.size() * 0.03;
      assertTrue(Math.abs(failing.size() - expected) < 2 * Math.sqrt(expected * 0.97), failing.size() + " of " + distinct.size());
      // the walkthrough's run of the first 100 dev questions fails these three
      List<String> firstHundred = distinct.subList(0, 100).stream().filter(r -> model.fails(r.question())).map(GoldRecord::id).toList();
      assertEquals(List.of("dev_0011", "dev_0043", "dev_0046"), firstHundred);
    }
    assertThrows(InputException.class, () -> new RecordedModel(records, records.stream().map(r -> "x").toList(), 0, 101));
  }

  @Test
  void aPromptWithoutAnyQuestionOfTheDatasetGets400SayingSo() throws Exception {
    try (RecordedModel model = new RecordedModel(records, records.stream().map(r -> "SELECT 1").toList(), 0)) {
      HttpResponse<String> response = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(model.baseUrl() + "/chat/completions"))
              .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}"))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(400, response.statusCode());
      assertTrue(response.body().contains("holds none of the dataset's questions"), response.body());
      assertEquals(1, model.refused());
    }
  }

  @Test
  void theQuestionWhoseTextComesLastInThePromptIsTheOneAnswered() throws IOException {
    GoldRecord shorter = new GoldRecord("a", "db", false, "SELECT 1", "SELECT 1", Map.of(), "How many singers?");
    GoldRecord longer = new GoldRecord("b", "db", false, "SELECT 2", "SELECT 2", Map.of(), "How many singers are there?");
    try (RecordedModel model = new RecordedModel(List.of(shorter, longer), List.of("one", "two"), 0)) {
      assertEquals("one", model.answerTo("Example: How many singers are there?\nQuestion: How many singers?\n"));
      assertEquals("two", model.answerTo("Example: How many singers?\nQuestion: How many singers are there?\n"));
      assertEquals("one", model.answerTo("How many singers?\nHow many singers are there?\nQuestion: How many singers?"));
    }
  }

  @Test
  void recordsSharingAQuestionTextWithDifferentPredictionsAreRefused() {
    GoldRecord first = new GoldRecord("a", "db1", false, "SELECT 1", "SELECT 1", Map.of(), "How many?");
    GoldRecord second = new GoldRecord("b", "db2", false, "SELECT 2", "SELECT 2", Map.of(), "How many?");
    InputException e = assertThrows(InputException.class,
        () -> new RecordedModel(List.of(first, second), List.of("SELECT 1", "SELECT 2"), 0).close());
    assertTrue(e.getMessage().contains("could not tell them apart"), e.getMessage());
  }

  @Test
  void theCommandSaysSoWhenItsPortIsTaken() throws IOException {
    Path predictions = dir.resolve("predictions.txt");
    Files.write(predictions, records.stream().map(r -> "SELECT 1").toList());
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      RunFixture.Result r = RunFixture.main("stand-in", "--dataset", fixture.dataset.toString(), "--pred", predictions.toString(),
          "--port", String.valueOf(taken.getLocalPort()));
      assertEquals(1, r.code(), r.out() + r.err());
      assertTrue(r.err().contains("port " + taken.getLocalPort() + " on 127.0.0.1 is in use"), r.err());
    }
  }
}
