package rolepolicy.casebank;

import rolepolicy.ports.QuerySimilarity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import rolepolicy.spider.Schema;

/**
 * Retrieval quality as DAIL-SQL measures it: the mean query similarity (Jaccard over DAIL's SQL
 * skeleton tokens) between each target question's gold SQL and its selected examples' gold SQL, for
 * 1, 3 and 5 examples, by selection method; and the time per retrieval.
 */
public final class RetrievalBench {
  /** One evaluated question: its id, database, text and gold SQL, and a draft SQL or null. */
  public record Target(String id, String dbId, String question, String goldSql, String draftSql) {}

  /** A method's mean query similarity at each number of examples, and over how many questions. */
  public record Row(String method, Map<Integer, Double> similarity, int questions, String note) {}

  private final CaseBank bank;
  private final Map<String, Schema> schemas;
  private final List<Case> cases;
  private final DraftSelection drafts;

  private final boolean linkValues;

  /** {@code values}: links the targets' values to their databases' cells (skeleton_vote), or null. */
  public RetrievalBench(CaseBank bank, Map<String, Schema> schemas, ValueLinker values) {
    this.linkValues = values != null;
    this.bank = bank;
    this.schemas = schemas;
    this.cases = bank.cases();
    this.drafts = new DraftSelection(bank, schemas, values);
  }

  /** The rows of every method over the targets; {@code seed} draws the random examples. */
  public List<Row> run(List<Target> targets, int[] ks, long seed, List<Double> retrievalMillis) {
    int kMax = java.util.Arrays.stream(ks).max().orElse(1);
    Embedder embedder = bank.embedder();
    Map<String, List<List<String>>> picks = new LinkedHashMap<>();
    Random random = new Random(seed);
    boolean withDrafts = targets.stream().anyMatch(t -> t.draftSql() != null);
    for (Target t : targets) {
      Schema schema = schemas.get(t.dbId());
      List<String> randomIds = new ArrayList<>();
      while (randomIds.size() < kMax) {
        String id = cases.get(random.nextInt(cases.size())).id();
        if (!randomIds.contains(id)) {
          randomIds.add(id);
        }
      }
      add(picks, "random", randomIds);
      float[] plain = embedder.embed(t.question());
      add(picks, "question similarity", ids(bank.anyDatabase(plain, kMax, Set.of())));
      float[] masked = embedder.embed(QuestionMasker.mask(t.question(), schema));
      add(picks, "masked question (skeleton_only)", ids(bank.skeletons(masked, kMax, Set.of())));
      long start = System.nanoTime();
      CaseBank.Retrieval tiered = bank.retrieve(t.question(), t.dbId(), schema, CaseBank.Method.TIERED, kMax);
      retrievalMillis.add((System.nanoTime() - start) / 1e6);
      add(picks, "tiered", ids(tiered.hits()));
      add(picks, "skeleton_vote", ids(drafts.retrieve(t.question(), t.dbId(), schema, CaseBank.Method.SKELETON_VOTE, kMax, null).hits()));
      // the vote's parts, one at a time (docs/retrieval.md, the ablation)
      List<CaseBank.Hit> nearest = bank.skeletons(masked, CaseBank.CANDIDATES, Set.of());
      add(picks, "vote over the vector candidates", ids(drafts.bySimilarity(nearest,
          drafts.medoid(nearest, DraftSelection.VOTERS, DraftSelection.VOTE_POWER), kMax)));
      String maskedText = QuestionMasker.mask(t.question(), schema);
      List<CaseBank.Hit> fused = bank.fusedSkeletons(maskedText);
      add(picks, "BM25 + vector (RRF), no vote", ids(fused.subList(0, Math.min(kMax, fused.size()))));
      add(picks, "vote over BM25 + vector", ids(drafts.bySimilarity(fused,
          drafts.medoid(fused, DraftSelection.VOTERS, DraftSelection.VOTE_POWER), kMax)));
      if (linkValues) {
        String linked = drafts.masked(t.question(), t.dbId(), schema);
        List<CaseBank.Hit> linkedNearest = bank.skeletons(embedder.embed(linked), CaseBank.CANDIDATES, Set.of());
        add(picks, "values linked, vector, no vote", ids(linkedNearest.subList(0, Math.min(kMax, linkedNearest.size()))));
        List<CaseBank.Hit> linkedFused = bank.fusedSkeletons(linked);
        add(picks, "values linked, BM25 + vector, no vote", ids(linkedFused.subList(0, Math.min(kMax, linkedFused.size()))));
      }
      if (withDrafts) {
        add(picks, "masked question + draft SQL", t.draftSql() == null ? List.of()
            : ids(drafts.byDraft(bank.skeletons(masked, DraftSelection.CANDIDATES, Set.of()),
                QuerySimilarity.dailSkeleton(t.draftSql(), schema), kMax)));
      }
    }
    List<String> goldSkeletons = targets.stream()
        .map(t -> QuerySimilarity.dailSkeleton(t.goldSql(), schemas.get(t.dbId()))).toList();
    List<Row> rows = new ArrayList<>();
    for (Map.Entry<String, List<List<String>>> method : picks.entrySet()) {
      Map<Integer, Double> byK = new LinkedHashMap<>();
      int answered = 0;
      for (int k : ks) {
        double sum = 0;
        int n = 0;
        for (int i = 0; i < targets.size(); i++) {
          List<String> chosen = method.getValue().get(i);
          if (chosen.isEmpty()) {
            continue;
          }
          String gold = goldSkeletons.get(i);
          double s = 0;
          List<String> first = chosen.subList(0, Math.min(k, chosen.size()));
          for (String id : first) {
            s += QuerySimilarity.jaccard(gold, drafts.skeletonOf(id));
          }
          sum += s / first.size();
          n++;
        }
        byK.put(k, n == 0 ? null : sum / n);
        answered = n;
      }
      rows.add(new Row(method.getKey(), byK, answered, answered == targets.size() ? "" : String.format(Locale.ROOT,
          "%d of %d questions got examples", answered, targets.size())));
    }
    return rows;
  }

  private static List<String> ids(List<CaseBank.Hit> hits) {
    return hits.stream().map(h -> h.kase().id()).toList();
  }

  private static void add(Map<String, List<List<String>>> picks, String method, List<String> ids) {
    picks.computeIfAbsent(method, m -> new ArrayList<>()).add(ids);
  }
}
