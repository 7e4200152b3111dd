package rolepolicy.tablescore;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** {@code summary.json}: the figures by dataset and category, and every query not scored with why. */
@JsonPropertyOrder({"results", "judge", "readings", "all", "datasets", "not_scored"})
public record Summary(
    String results,
    String judge,
    String readings,
    Figures all,
    Map<String, DatasetFigures> datasets,
    @JsonProperty("not_scored") List<QueryOutcome> notScored) {

  /**
   * Counts and the means over scored queries of each query's mean column precision, recall, F1.
   *
   * @param ran queries the ground truth ran
   */
  @JsonPropertyOrder({"queries", "ran", "scored", "precision", "recall", "f1"})
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Figures(int queries, int ran, int scored, Double precision, Double recall, Double f1) {
    static Figures of(List<QueryOutcome> outcomes) {
      List<QueryOutcome> scored = outcomes.stream().filter(o -> o.status() == QueryOutcome.Status.SCORED).toList();
      int ran = (int) outcomes.stream().filter(o -> o.status() != QueryOutcome.Status.NOT_RUN).count();
      return new Figures(outcomes.size(), ran, scored.size(),
          mean(scored, QueryOutcome::precision), mean(scored, QueryOutcome::recall), mean(scored, QueryOutcome::f1));
    }

    private static Double mean(List<QueryOutcome> scored, java.util.function.Function<QueryOutcome, Double> f) {
      return scored.isEmpty() ? null : scored.stream().mapToDouble(f::apply).average().orElseThrow();
    }
  }

  /**
   * One dataset: its figures, by category, cells of its ground truth that were not numbers (NULL),
   * and cells of int columns with a fraction (kept: the column read as float).
   */
  @JsonPropertyOrder({"all", "categories", "cast_failures", "widened"})
  public record DatasetFigures(
      Figures all,
      Map<String, Figures> categories,
      @JsonProperty("cast_failures") Map<String, Map<String, Integer>> castFailures,
      Map<String, Map<String, Integer>> widened) {}

  static Summary of(String results, String judge, String readings, List<QueryOutcome> outcomes,
      Map<String, Map<String, Map<String, Integer>>> castFailures,
      Map<String, Map<String, Map<String, Integer>>> widened) {
    Map<String, DatasetFigures> datasets = new LinkedHashMap<>();
    for (String dataset : outcomes.stream().map(QueryOutcome::dataset).distinct().toList()) {
      List<QueryOutcome> of = select(outcomes, o -> o.dataset().equals(dataset));
      Map<String, Figures> categories = new LinkedHashMap<>();
      for (String category : of.stream().map(QueryOutcome::category).distinct().toList()) {
        categories.put(category, Figures.of(select(of, o -> o.category().equals(category))));
      }
      datasets.put(dataset, new DatasetFigures(Figures.of(of), categories,
          castFailures.getOrDefault(dataset, Map.of()), widened.getOrDefault(dataset, Map.of())));
    }
    return new Summary(results, judge, readings, Figures.of(outcomes), datasets,
        select(outcomes, o -> o.status() != QueryOutcome.Status.SCORED));
  }

  private static List<QueryOutcome> select(List<QueryOutcome> outcomes, Predicate<QueryOutcome> p) {
    return outcomes.stream().filter(p).toList();
  }
}
