package rolepolicy.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import rolepolicy.evaluate.Evaluation;
import rolepolicy.io.Plural;
import rolepolicy.run.Accounting;
import rolepolicy.run.AnswerLog;
import rolepolicy.run.ModelRun;

/** The lines {@code run} prints after the metrics table: outcomes, requests, tokens, cost, latency, time. */
final class RunSummary {
  private RunSummary() {}

  static void print(PrintWriter w, ModelRun.Summary s, Path folder, int parallel, boolean priced) {
    w.printf(Locale.ROOT, "%s: %s%s%n", Plural.of(s.questions(), "question"),
        s.answers().entrySet().stream().map(e -> e.getValue() + " " + label(e.getKey())).collect(Collectors.joining(", ")),
        s.failures().isEmpty() ? "" : " (" + s.failures().entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
            .collect(Collectors.joining(", ")) + ")");
    Accounting spent = s.spent();
    Accounting reused = s.reused();
    w.printf(Locale.ROOT, "requests: %d answered now, %d answers reused from %s%s%n", spent.requests(), reused.requests(),
        folder.resolve(AnswerLog.FILE), s.requests().drafts() == 0 ? "" : "; " + s.requests().drafts() + " of them drafts");
    w.printf(Locale.ROOT, "tokens now: %,d prompt (%,d cached), %,d completion (%,d reasoning); reused: %,d prompt, %,d completion%n",
        spent.promptTokens(), spent.cachedTokens(), spent.completionTokens(), spent.reasoningTokens(), reused.promptTokens(),
        reused.completionTokens());
    if (priced) {
      w.printf(Locale.ROOT, "cost: $%.4f now, $%.4f of the answers reused, $%.4f in all%n", spent.cost(), reused.cost(),
          s.requests().cost());
    }
    Accounting all = s.requests();
    if (all.latencyP50() != null) {
      w.printf(Locale.ROOT, "latency: p50 %,d ms, p95 %,d ms over %s%s%n", all.latencyP50(), all.latencyP95(),
          Plural.of(all.requests(), "answer"), served(all));
    }
    w.printf(Locale.ROOT, "prompts: %d built, %d reused from %s%n", s.promptsBuilt(), s.promptsReused(),
        folder.resolve(ModelRun.PROMPTS));
    w.printf(Locale.ROOT, "time: questions %.1f s (%d at once; building their prompts took %.1f s of the workers' time),"
        + " evaluation %.1f s, writing %.1f s%n", s.timing().questions(), parallel, s.timing().prompts(),
        s.timing().evaluation(), s.timing().writing());
    w.println("wrote " + folder + ": " + String.join(", ", ModelRun.PROMPTS, AnswerLog.FILE, ModelRun.PREDICTIONS,
        Evaluation.METRICS, Evaluation.PER_QUESTION, ModelRun.RUN));
  }

  private static String label(String outcome) {
    return ModelRun.Answer.valueOf(outcome.toUpperCase(Locale.ROOT)).label;
  }

  /** "; served by NAME (n), fingerprint F (n)" when the answers named them. */
  private static String served(Accounting a) {
    List<String> parts = new java.util.ArrayList<>();
    if (!a.servedBy().isEmpty()) {
      parts.add("served by " + counts(a.servedBy()));
    }
    if (!a.systemFingerprints().isEmpty()) {
      parts.add("fingerprint " + counts(a.systemFingerprints()));
    }
    return parts.isEmpty() ? "" : "; " + String.join(", ", parts);
  }

  private static String counts(Map<String, Integer> counts) {
    return counts.entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + ")").collect(Collectors.joining(", "));
  }
}
