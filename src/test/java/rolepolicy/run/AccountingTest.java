package rolepolicy.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a run's requests took: each distinct request once, now or reused, drafts by their stage in the run. */
class AccountingTest {
  private static AnswerLog.Entry answer(String key, String stage, int prompt, int completion, long latency, String servedBy) {
    return new AnswerLog.Entry(key, "dev_0001", stage, "m", "SELECT 1", "SQL", "SELECT 1", null, null, prompt, completion, latency,
        0, null, null, "stop", null, completion / 2, prompt / 4, servedBy, "fp_1");
  }

  private static AnswerLog.Entry failure(String key) {
    return new AnswerLog.Entry(key, "dev_0002", "answer", "m", null, null, "", null, null, null, null, null, 2, "HTTP 500",
        500, null, null, null, null, null, null);
  }

  @Test
  void aRequestTwoQuestionsShareCountsOnceAndAsSentWhenEitherSentIt() {
    AnswerLog.Entry shared = answer("k1", "answer", 1000, 100, 40, "m-2025");
    Accounting.Split split = Accounting.of(List.of(
        new Accounting.Request(shared, false, "answer"), // found in the log: the other question sent it in this run
        new Accounting.Request(shared, true, "answer"),
        new Accounting.Request(answer("k2", "answer", 500, 50, 10, "m-2025"), false, "answer"),
        new Accounting.Request(failure("k3"), true, "answer")), new Accounting.Prices(1.0, 2.0));
    assertEquals(2, split.all().requests(), "k1 once, k2; the failure took no tokens");
    assertEquals(1, split.spent().requests());
    assertEquals(1000, split.spent().promptTokens());
    assertEquals(500, split.reused().promptTokens());
    assertEquals(1500, split.all().promptTokens());
    assertEquals(375, split.all().cachedTokens());
    assertEquals(75, split.all().reasoningTokens());
    assertEquals((1500 * 1.0 + 150 * 2.0) / 1e6, split.all().cost(), 1e-15);
    assertEquals(Map.of("m-2025", 2), split.all().servedBy());
    assertEquals(10L, split.all().latencyP50(), "nearest rank: the 1st of 2");
    assertEquals(40L, split.all().latencyP95());
  }

  @Test
  void draftsAreTheRequestsThisRunAskedAsDraftsWhateverTheLogSays() {
    AnswerLog.Entry loggedAsAnswer = answer("k1", "answer", 100, 10, 5, null);
    Accounting.Split split = Accounting.of(List.of(new Accounting.Request(loggedAsAnswer, false, "draft"),
        new Accounting.Request(answer("k2", "final", 100, 10, 5, null), true, "final")), Accounting.Prices.NONE);
    assertEquals(1, split.all().drafts());
    assertNull(split.all().cost(), "no prices: no cost");
  }

  @Test
  void percentilesAreNearestRank() {
    List<Long> latencies = List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L, 16L, 17L, 18L, 19L, 20L);
    assertEquals(10L, Accounting.percentile(latencies, 50));
    assertEquals(19L, Accounting.percentile(latencies, 95));
    assertNull(Accounting.percentile(List.of(), 50));
  }
}
