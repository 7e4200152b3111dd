package rolepolicy.casebank;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import rolepolicy.spider.Schema;

/**
 * The tiers' thresholds, calibrated on the bank's own train cases, leaving each sampled question out
 * together with every case of the same SQL (its paraphrases), as an unseen question would be:
 * <ul>
 *   <li>specific: the cosine at which taking the same-database cases instead of skeletons gives the
 *       highest mean query similarity of the first example over the sample;
 *   <li>skeleton: the highest cosine below which the first skeleton's query similarity is, on
 *       average, no better than a random example's (below it, no example beats a random one).
 * </ul>
 */
public final class Calibration {
  /** The figures of one calibration, for docs and the terminal. */
  public record Result(CaseBank.Thresholds thresholds, int sample, double randomSimilarity,
      double specificAtThreshold, double skeletonOnly, double allSpecific) {}

  private Calibration() {}

  public static Result calibrate(CaseBank bank, Map<String, Schema> schemas, int step, long seed) {
    List<Case> cases = bank.cases();
    Map<String, Set<String>> bySql = new HashMap<>();
    Map<String, Case> byId = new HashMap<>();
    for (Case c : cases) {
      bySql.computeIfAbsent(c.dbId() + "\n" + c.referenceSql(), k -> new HashSet<>()).add(c.id());
      byId.put(c.id(), c);
    }
    // DAIL skeletons of the cases the calibration meets only (about 3 per sampled question, not all cases)
    Map<String, String> known = new HashMap<>();
    java.util.function.Function<String, String> skeletons = id -> known.computeIfAbsent(id,
        i -> QuerySimilarity.dailSkeleton(byId.get(i).referenceSql(), schemas.get(byId.get(i).dbId())));
    Embedder embedder = bank.embedder();
    List<double[]> points = new ArrayList<>(); // {same cosine, same sim, skeleton cosine, skeleton sim}
    Random random = new Random(seed);
    double randomSum = 0;
    for (int i = 0; i < cases.size(); i += step) {
      Case q = cases.get(i);
      Set<String> exclude = bySql.get(q.dbId() + "\n" + q.referenceSql());
      String gold = skeletons.apply(q.id());
      List<CaseBank.Hit> same = bank.sameDatabase(embedder.embed(q.question()), q.dbId(), 1, exclude);
      List<CaseBank.Hit> skel = bank.skeletons(embedder.embed(q.maskedQuestion()), 1, exclude);
      if (same.isEmpty() || skel.isEmpty()) {
        continue;
      }
      points.add(new double[] {same.get(0).cosine(), QuerySimilarity.jaccard(gold, skeletons.apply(same.get(0).kase().id())),
          skel.get(0).cosine(), QuerySimilarity.jaccard(gold, skeletons.apply(skel.get(0).kase().id()))});
      randomSum += QuerySimilarity.jaccard(gold, skeletons.apply(cases.get(random.nextInt(cases.size())).id()));
    }
    double randomMean = randomSum / points.size();
    double bestSpecific = 1.0;
    double bestMean = -1;
    for (int c = 30; c <= 100; c++) {
      double t = c / 100.0;
      double sum = 0;
      for (double[] p : points) {
        sum += p[0] >= t ? p[1] : p[3];
      }
      if (sum / points.size() > bestMean + 1e-12) {
        bestMean = sum / points.size();
        bestSpecific = t;
      }
    }
    double skeletonThreshold = 0;
    for (int c = 0; c <= 100; c++) {
      double t = c / 100.0;
      double sum = 0;
      int n = 0;
      for (double[] p : points) {
        if (p[2] < t) {
          sum += p[3];
          n++;
        }
      }
      if (n > 0 && sum / n <= randomMean) {
        skeletonThreshold = t;
      }
    }
    double skeletonOnly = points.stream().mapToDouble(p -> p[3]).average().orElse(0);
    double allSpecific = points.stream().mapToDouble(p -> p[1]).average().orElse(0);
    return new Result(new CaseBank.Thresholds(bestSpecific, skeletonThreshold), points.size(), randomMean, bestMean,
        skeletonOnly, allSpecific);
  }
}
