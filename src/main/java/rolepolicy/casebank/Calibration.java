package rolepolicy.casebank;

import rolepolicy.ports.QuerySimilarity;
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

  /** A calibration, and whether it was taken from the bank it replaces ({@link #reuseOrCalibrate}). */
  public record Outcome(Result result, String key, boolean reused) {}

  /** The method's version, part of the key: change it with the method. */
  static final int METHOD = 1;

  private Calibration() {}

  /**
   * SHA-256 of what a calibration reads: the method, the step and seed, the bank's index key (its
   * cases' ids, questions and vectors), each case's database and reference SQL, in order, and the
   * names of the cases' databases (DAIL's skeletons mask them). Gold labels and policies are not among them.
   */
  public static String key(CaseBank bank, Map<String, Schema> schemas, int step, long seed) {
    var sha = rolepolicy.cache.CacheFolder.sha256();
    java.util.function.Consumer<String> add = text -> sha.update(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    add.accept(METHOD + "\n" + step + "\n" + seed + "\n" + bank.meta().indexKey() + "\n");
    java.util.TreeMap<String, Schema> databases = new java.util.TreeMap<>();
    for (Case c : bank.cases()) {
      add.accept(c.dbId() + "\0" + c.referenceSql() + "\n");
      databases.put(c.dbId(), schemas.get(c.dbId()));
    }
    add.accept(QuerySimilarity.names(databases.values()));
    return java.util.HexFormat.of().formatHex(sha.digest());
  }

  /**
   * The calibration of the bank it replaces when its key is this one's (a rebuild after a rule edit:
   * the same questions and SQL), else a new one; {@code previous}: that bank's {@code bank.json}, or null.
   */
  public static Outcome reuseOrCalibrate(CaseBank bank, CaseBank.Meta previous, Map<String, Schema> schemas, int step, long seed) {
    String key = key(bank, schemas, step, seed);
    if (previous != null && key.equals(previous.calibrationKey()) && previous.calibration() != null) {
      return new Outcome(previous.calibration(), key, true);
    }
    return new Outcome(calibrate(bank, schemas, step, seed), key, false);
  }

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
