package rolepolicy.casebank;

import rolepolicy.ports.QuerySimilarity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import rolepolicy.spider.Schema;

/**
 * DAIL-SQL's selection with a draft SQL: the candidates in retrieval order whose query similarity to
 * the draft reaches {@value #THRESHOLD} first, then the others by that similarity. Used by the
 * two-stage prompts ({@code run --two-stage}, {@code prompts --draft}) and by {@code bench-retrieval --draft}.
 */
public final class DraftSelection {
  /** DAIL-SQL's threshold on the draft's query similarity. */
  public static final double THRESHOLD = 0.85;
  /** Candidates the draft re-ranks: the nearest by (masked) question. */
  public static final int CANDIDATES = 100;

  /** How many of the nearest candidates vote on the target's skeleton. */
  static final int VOTERS = 10;
  /** A voter's weight is its score to this power: the nearest count most. */
  static final double VOTE_POWER = 4;

  private final CaseBank bank;
  private final Map<String, Schema> schemas;
  private final ValueLinker values;
  /** Cases' DAIL skeletons by case id, each computed when first asked for: a run needs its candidates' only. */
  private final Map<String, Shape> shapes = new ConcurrentHashMap<>();
  private final AtomicInteger computed = new AtomicInteger();
  private final SkeletonCache cache;

  /** A case's DAIL skeleton, and its tokens for the query similarity. */
  private record Shape(String skeleton, QuerySimilarity.Bag tokens) {}

  /** Cases' DAIL skeletons from their reference SQL and their databases' schemas. */
  public DraftSelection(CaseBank bank, Map<String, Schema> schemas) {
    this(bank, schemas, null);
  }

  /** {@code values}: links a target question's words to its database's cells for the vote, or null. */
  public DraftSelection(CaseBank bank, Map<String, Schema> schemas, ValueLinker values) {
    this(bank, schemas, values, null);
  }

  /** {@code cacheFolder}: where the cases' skeletons are kept from one run to the next ({@link #save}), or null. */
  public DraftSelection(CaseBank bank, Map<String, Schema> schemas, ValueLinker values, Path cacheFolder) {
    this.bank = bank;
    this.schemas = schemas;
    this.values = values;
    this.cache = cacheFolder == null ? null : new SkeletonCache(cacheFolder, bank, schemas);
    if (cache != null) {
      cache.read().forEach((id, skeleton) -> shapes.put(id, new Shape(skeleton, new QuerySimilarity.Bag(skeleton))));
    }
  }

  /** A case's DAIL skeleton. */
  String skeletonOf(String caseId) {
    return shape(caseId).skeleton();
  }

  private Shape shape(String caseId) {
    Shape known = shapes.get(caseId);
    if (known == null) {
      Case c = bank.caseById(caseId);
      String skeleton = QuerySimilarity.dailSkeleton(c.referenceSql(), schemas.get(c.dbId()));
      known = new Shape(skeleton, new QuerySimilarity.Bag(skeleton));
      if (shapes.putIfAbsent(caseId, known) == null) { // two threads may compute the same: either's is the same
        computed.incrementAndGet();
      }
    }
    return known;
  }

  /** How many cases' skeletons were computed here (not read from the cache folder). */
  int computed() {
    return computed.get();
  }

  /** Writes the skeletons to the cache folder when some were computed here; none without a folder. */
  public void save() {
    if (cache != null && computed.get() > 0) {
      Map<String, String> skeletons = new HashMap<>();
      shapes.forEach((id, shape) -> skeletons.put(id, shape.skeleton()));
      cache.write(skeletons);
    }
  }

  /**
   * The retrieval of {@link CaseBank#retrieve}, its tier kept, with its examples chosen again among
   * the tier's {@value #CANDIDATES} nearest by the draft's skeleton; no draft: the plain retrieval.
   */
  public CaseBank.Retrieval retrieve(String question, String dbId, Schema schema, CaseBank.Method policy, int k, String draft) {
    CaseBank.Tier tier = bank.tier(question, dbId, schema, policy, k, Set.of());
    CaseBank.Retrieval first = tier.retrieval();
    boolean noDraft = draft == null || draft.isBlank();
    if (policy == CaseBank.Method.SKELETON_VOTE && noDraft && first.type().equals("skeleton")) {
      return vote(question, dbId, schema, k, tier);
    }
    if (noDraft || first.type().equals("none")) {
      return first;
    }
    // the tier's candidates are the same search unless k asked for more
    List<CaseBank.Hit> candidates = k <= CANDIDATES ? tier.candidates() : first.type().equals("specific")
        ? bank.sameDatabase(bank.embedder().embed(question), dbId, CANDIDATES, Set.of())
        : bank.skeletons(bank.embedder().embed(QuestionMasker.mask(question, schema)), CANDIDATES, Set.of());
    String draftSkeleton = QuerySimilarity.dailSkeleton(draft, schema);
    List<CaseBank.Hit> chosen = byDraft(candidates, draftSkeleton, k);
    QuerySimilarity.Bag draftTokens = new QuerySimilarity.Bag(draftSkeleton);
    long close = chosen.stream().filter(h -> similarity(draftTokens, h) >= THRESHOLD).count();
    return new CaseBank.Retrieval(first.type(), chosen, first.why() + String.format(Locale.ROOT,
        "; draft: %d of %d within query similarity %.2f of the draft, among %d candidates", close, chosen.size(),
        THRESHOLD, candidates.size()));
  }

  /** The masked question of a target: names, and values (as linked to its database's cells when it can). */
  String masked(String question, String dbId, Schema schema) {
    return values == null ? QuestionMasker.mask(question, schema)
        : QuestionMasker.mask(question, schema, values.linked(question, dbId, schema));
  }

  /**
   * The skeleton tier chosen again by a vote: the candidates of the masked question (vector and BM25
   * fused), the skeleton their first {@value #VOTERS} agree on ({@link #medoid}), and the candidates
   * by query similarity to it, REFUSE examples capped as {@link CaseBank#select} does.
   */
  private CaseBank.Retrieval vote(String question, String dbId, Schema schema, int k, CaseBank.Tier skeletons) {
    String masked = masked(question, dbId, schema);
    // no value linked and k within the candidates: the tier searched the same vector already
    List<CaseBank.Hit> candidates = k <= CANDIDATES && (values == null || masked.equals(QuestionMasker.mask(question, schema)))
        ? bank.fusedSkeletons(masked, skeletons.candidates()) : bank.fusedSkeletons(masked);
    CaseBank.Retrieval tier = skeletons.retrieval();
    String predicted = medoid(candidates, VOTERS, VOTE_POWER);
    CaseBank.Selection s = CaseBank.select(bySimilarity(candidates, predicted, candidates.size()), k, bank.refuseRate());
    List<CaseBank.Hit> chosen = s.hits();
    QuerySimilarity.Bag predictedTokens = new QuerySimilarity.Bag(predicted);
    long same = chosen.stream().filter(h -> similarity(predictedTokens, h) == 1.0).count();
    return new CaseBank.Retrieval(tier.type(), chosen, tier.why() + String.format(Locale.ROOT,
        "; skeleton vote of the %d nearest of %d candidates (vector and BM25%s): %d of %d examples have the voted skeleton",
        Math.min(VOTERS, candidates.size()), candidates.size(), values == null ? "" : ", values linked", same, chosen.size())
        + s.why());
  }

  /** The candidates close to the draft first (in their order), then the rest by similarity to it; at most k. */
  List<CaseBank.Hit> byDraft(List<CaseBank.Hit> candidates, String draftSkeleton, int k) {
    Map<CaseBank.Hit, Double> similarity = similarities(candidates, draftSkeleton);
    List<CaseBank.Hit> close = new ArrayList<>();
    List<CaseBank.Hit> rest = new ArrayList<>();
    for (CaseBank.Hit h : candidates) {
      (similarity.get(h) >= THRESHOLD ? close : rest).add(h);
    }
    rest.sort(Comparator.comparingDouble((CaseBank.Hit h) -> similarity.get(h)).reversed());
    close.addAll(rest);
    return close.subList(0, Math.min(k, close.size()));
  }

  /**
   * The skeleton the first {@code voters} candidates agree on most: among their skeletons, the one
   * with the highest sum over the voters of cosine × query similarity to the voter's skeleton; a tie
   * goes to the skeleton of the smallest case id.
   */
  String medoid(List<CaseBank.Hit> candidates, int voters, double power) {
    return medoid(candidates, voters, power, this::skeletonOf);
  }

  static String medoid(List<CaseBank.Hit> candidates, int voters, double power, java.util.function.Function<String, String> skeletonOf) {
    List<CaseBank.Hit> voting = candidates.subList(0, Math.min(voters, candidates.size()));
    List<String> skeletons = voting.stream().map(h -> skeletonOf.apply(h.kase().id())).toList();
    List<QuerySimilarity.Bag> tokens = skeletons.stream().map(QuerySimilarity.Bag::new).toList();
    String best = null;
    String bestId = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < voting.size(); i++) {
      CaseBank.Hit h = voting.get(i);
      double score = 0;
      for (int j = 0; j < voting.size(); j++) {
        score += Math.pow(Math.max(voting.get(j).cosine(), 0), power) * QuerySimilarity.jaccard(tokens.get(i), tokens.get(j));
      }
      if (score > bestScore + 1e-12 || (Math.abs(score - bestScore) <= 1e-12 && h.kase().id().compareTo(bestId) < 0)) {
        best = skeletons.get(i);
        bestId = h.kase().id();
        bestScore = score;
      }
    }
    return best;
  }

  /** The candidates by query similarity to the skeleton, highest first, ties in candidate order; at most k. */
  List<CaseBank.Hit> bySimilarity(List<CaseBank.Hit> candidates, String skeleton, int k) {
    Map<CaseBank.Hit, Double> similarity = similarities(candidates, skeleton);
    List<CaseBank.Hit> sorted = new ArrayList<>(candidates);
    sorted.sort(Comparator.comparingDouble((CaseBank.Hit h) -> similarity.get(h)).reversed());
    return sorted.subList(0, Math.min(k, sorted.size()));
  }

  /** Each candidate's query similarity to a skeleton, computed once (a sort asks for it again and again). */
  private Map<CaseBank.Hit, Double> similarities(List<CaseBank.Hit> candidates, String skeleton) {
    QuerySimilarity.Bag tokens = new QuerySimilarity.Bag(skeleton);
    Map<CaseBank.Hit, Double> similarity = new IdentityHashMap<>();
    for (CaseBank.Hit h : candidates) {
      similarity.put(h, similarity(tokens, h));
    }
    return similarity;
  }

  private double similarity(QuerySimilarity.Bag skeleton, CaseBank.Hit h) {
    return QuerySimilarity.jaccard(skeleton, shape(h.kase().id()).tokens());
  }
}
