package rolepolicy.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a run's requests took (docs/run.md#accounting): each distinct request of the run counted
 * once, drafts included, as sent by this invocation ({@code spent}) or reused from the answer log
 * ({@code reused}); the latency percentiles and the models and fingerprints that served them.
 */
@JsonPropertyOrder({"requests", "drafts", "prompt_tokens", "cached_tokens", "completion_tokens", "reasoning_tokens",
    "cost", "latency_ms_p50", "latency_ms_p95", "served_by", "system_fingerprints"})
@JsonInclude(JsonInclude.Include.ALWAYS)
public record Accounting(
    int requests,
    int drafts,
    @JsonProperty("prompt_tokens") long promptTokens,
    @JsonProperty("cached_tokens") long cachedTokens,
    @JsonProperty("completion_tokens") long completionTokens,
    @JsonProperty("reasoning_tokens") long reasoningTokens,
    Double cost,
    @JsonProperty("latency_ms_p50") Long latencyP50,
    @JsonProperty("latency_ms_p95") Long latencyP95,
    @JsonProperty("served_by") Map<String, Integer> servedBy,
    @JsonProperty("system_fingerprints") Map<String, Integer> systemFingerprints) {

  /** Prices per million tokens, each null when not given. */
  public record Prices(Double in, Double out) {
    public static final Prices NONE = new Prices(null, null);

    boolean given() {
      return in != null || out != null;
    }
  }

  /** One request of the run: its log entry, whether this invocation sent it, and its stage in this run. */
  record Request(AnswerLog.Entry entry, boolean sent, String stage) {}

  /**
   * The figures of a run's requests ({@code all}: every distinct request, failed ones aside, which
   * took no tokens), those {@code sent} only, and those reused.
   */
  record Split(Accounting all, Accounting spent, Accounting reused) {}

  static Split of(List<Request> requests, Prices prices) {
    // a request two questions share counts once: sent when either found it sent, a draft when either asked it as one
    Map<String, Request> distinct = new LinkedHashMap<>();
    requests.stream().filter(r -> !r.entry().failed()).forEach(r -> distinct.merge(r.entry().key(), r,
        (a, b) -> new Request(a.entry(), a.sent() || b.sent(), "draft".equals(a.stage()) ? a.stage() : b.stage())));
    List<Request> all = List.copyOf(distinct.values());
    return new Split(over(all, prices), over(all.stream().filter(Request::sent).toList(), prices),
        over(all.stream().filter(r -> !r.sent()).toList(), prices));
  }

  static Accounting over(List<Request> requests, Prices prices) {
    List<AnswerLog.Entry> entries = requests.stream().map(Request::entry).toList();
    long prompt = 0;
    long cached = 0;
    long completion = 0;
    long reasoning = 0;
    List<Long> latencies = new ArrayList<>();
    Map<String, Integer> served = new TreeMap<>();
    Map<String, Integer> fingerprints = new TreeMap<>();
    for (AnswerLog.Entry e : entries) {
      prompt += value(e.promptTokens());
      cached += value(e.cachedTokens());
      completion += value(e.completionTokens());
      reasoning += value(e.reasoningTokens());
      if (e.latencyMillis() != null) {
        latencies.add(e.latencyMillis());
      }
      if (e.servedBy() != null) {
        served.merge(e.servedBy(), 1, Integer::sum);
      }
      if (e.systemFingerprint() != null) {
        fingerprints.merge(e.systemFingerprint(), 1, Integer::sum);
      }
    }
    int drafts = (int) requests.stream().filter(r -> "draft".equals(r.stage())).count();
    Collections.sort(latencies);
    Double cost = prices.given() ? (prompt * orZero(prices.in()) + completion * orZero(prices.out())) / 1e6 : null;
    return new Accounting(entries.size(), drafts, prompt, cached, completion, reasoning, cost,
        percentile(latencies, 50), percentile(latencies, 95), served, fingerprints);
  }

  /** The nearest-rank percentile of sorted values: the value at rank ⌈p/100 · n⌉; null when there are none. */
  static Long percentile(List<Long> sorted, int p) {
    if (sorted.isEmpty()) {
      return null;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(rank, 1) - 1);
  }

  private static long value(Integer n) {
    return n == null ? 0 : n;
  }

  private static double orZero(Double d) {
    return d == null ? 0 : d;
  }
}
