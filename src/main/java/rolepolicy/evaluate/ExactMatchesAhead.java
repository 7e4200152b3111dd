package rolepolicy.evaluate;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import rolepolicy.io.Phases;
import rolepolicy.spider.Schema;

/**
 * Spider's exact match of a predictor's predictions, worked out ahead on a thread of its own: it needs
 * no rules, so {@code evaluate} computes it while the rules are built or read. The scorers take a
 * question's verdict from here when it is ready and otherwise compute it themselves (and leave it
 * here); this thread goes from the last question back and skips what they did, so that the two meet
 * once. A verdict follows from the gold record and the prediction alone: the same wherever it is
 * computed.
 */
public final class ExactMatchesAhead {
  private final Map<List<Object>, ExactMatchScorer.Result> results = new ConcurrentHashMap<>();
  private volatile boolean stopped;
  private Thread thread;

  private ExactMatchesAhead() {}

  /** Starts the work on a daemon thread; {@link #stop()} ends it early. */
  public static ExactMatchesAhead start(Map<String, Schema> schemas, List<GoldRecord> records, List<String> predictions) {
    ExactMatchesAhead ahead = new ExactMatchesAhead();
    ahead.thread = new Thread(() -> ahead.work(new ExactMatchScorer(schemas), records, predictions), "exact-match-ahead");
    ahead.thread.setDaemon(true);
    ahead.thread.start();
    return ahead;
  }

  private void work(ExactMatchScorer scorer, List<GoldRecord> records, List<String> predictions) {
    for (int i = records.size() - 1; i >= 0 && !stopped; i--) {
      GoldRecord gold = records.get(i);
      String prediction = text(predictions.get(i));
      List<Object> key = key(gold, prediction);
      if (!results.containsKey(key)) {
        long t = Phases.start();
        try {
          results.putIfAbsent(key, scorer.score(gold, prediction));
        } catch (RuntimeException | StackOverflowError e) {
          return; // an unknown database, say: the scorers meet it again and report it in question order
        }
        Phases.add("exact match ahead", t);
      }
    }
  }

  /** Waits until the work is done (for tests). */
  void finish() throws InterruptedException {
    thread.join();
  }

  /** Ends the work: every verdict not yet here is computed by the scorers. */
  public void stop() {
    stopped = true;
  }

  /** The verdict of {@code prediction} on {@code gold}, computed with {@code scorer} unless it is here. */
  ExactMatchScorer.Result get(GoldRecord gold, String prediction, ExactMatchScorer scorer) {
    List<Object> key = key(gold, text(prediction));
    ExactMatchScorer.Result result = results.get(key);
    if (result == null) {
      result = scorer.score(gold, text(prediction));
      results.putIfAbsent(key, result);
    }
    return result;
  }

  /** The text exact match reads: stripped, empty for none. */
  static String text(String prediction) {
    return prediction == null ? "" : prediction.strip();
  }

  private static List<Object> key(GoldRecord gold, String prediction) {
    return Arrays.asList(gold.dbId(), gold.refuse(), gold.goldSql(), prediction);
  }
}
