package rolepolicy.interact;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import rolepolicy.evaluate.Metrics;
import rolepolicy.interact.QuestionLog.RoundState;

/**
 * The figures of one round over the questions played: how many answers stand matched by then
 * (cumulative), how many clarification questions were asked before it, and for a replay the
 * recorded figure; for a policy dataset, the evaluator's metrics of the answers standing then.
 *
 * @param matched questions whose answer matched at this round or earlier
 * @param asked clarification questions asked before this round's answers (an asking side's
 *     {@code NO AMBIGUITY} is no question)
 * @param recordedMatched for a replay, the recorded runs' matched count over the same questions
 * @param policy for a policy dataset, the evaluator's metrics of the standing answers
 * @param perplexity the mean perplexity of the SQL texts the model wrote in this round (its
 *     generations and repairs), over those with one; null when none has one
 * @param perplexities how many texts that mean is over
 */
@JsonPropertyOrder({"round", "played", "matched", "match_rate", "asked", "recorded_matched", "recorded_match_rate",
    "perplexity", "perplexities", "policy"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RoundFigures(
    int round,
    int played,
    int matched,
    @JsonProperty("match_rate") Double matchRate,
    int asked,
    @JsonProperty("recorded_matched") Integer recordedMatched,
    @JsonProperty("recorded_match_rate") Double recordedMatchRate,
    Double perplexity,
    Integer perplexities,
    Metrics policy) {

  /**
   * The figures of rounds 0 … {@code rounds}; {@code policy} computes a round's metrics from the
   * standing answers (null for question lists without policies).
   */
  public static List<RoundFigures> of(List<QuestionLog> logs, int rounds, boolean replay,
      Function<List<String>, Metrics> policy) {
    List<QuestionLog> played = logs.stream().filter(l -> l.skipped() == null).toList();
    List<RoundFigures> figures = new ArrayList<>();
    for (int r = 0; r <= rounds; r++) {
      int round = r;
      int matched = (int) played.stream().filter(l -> successBy(l.numCqAsked(), round)).count();
      int asked = (int) played.stream().flatMap(l -> l.cqLog().stream())
          .filter(c -> c.round() < round && !c.question().equals(SqlSource.NO_AMBIGUITY)).count();
      Integer recorded = replay
          ? (int) played.stream().filter(l -> successBy(l.recordedNumCqAsked(), round)).count() : null;
      Metrics metrics = policy == null ? null
          : policy.apply(played.stream().map(l -> standing(l, round)).toList());
      List<Double> perplexities = played.stream().flatMap(l -> l.sqlLog().stream())
          .filter(e -> e.round() == round && e.perplexity() != null).map(QuestionLog.SqlEntry::perplexity).toList();
      Double perplexity = perplexities.isEmpty() ? null
          : perplexities.stream().mapToDouble(Double::doubleValue).sum() / perplexities.size();
      figures.add(new RoundFigures(r, played.size(), matched, rate(matched, played.size()), asked, recorded,
          recorded == null ? null : rate(recorded, played.size()), perplexity,
          perplexities.isEmpty() ? null : perplexities.size(), metrics));
    }
    return figures;
  }

  /** The answer standing at the end of a round: the last one given by then, else empty. */
  public static String standing(QuestionLog log, int round) {
    String answer = "";
    for (RoundState s : log.rounds()) {
      if (s.round() <= round && s.answer() != null) {
        answer = s.answer();
      }
    }
    return answer;
  }

  static boolean successBy(Object numCqAsked, int round) {
    if (numCqAsked == null || QuestionLog.FAILED.equals(String.valueOf(numCqAsked))) {
      return false;
    }
    return Integer.parseInt(String.valueOf(numCqAsked)) <= round;
  }

  private static Double rate(int part, int whole) {
    return whole == 0 ? null : (double) part / whole;
  }
}
