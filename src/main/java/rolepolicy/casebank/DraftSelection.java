package rolepolicy.casebank;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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
  private final ValueLinker values;
  private final Map<String, String> caseSkeletons = new HashMap<>();

  /** Every case's DAIL skeleton, from its reference SQL and its database's schema. */
  public DraftSelection(CaseBank bank, Map<String, Schema> schemas) {
    this(bank, schemas, null);
  }

  /** {@code values}: links a target question's words to its database's cells for the vote, or null. */
  public DraftSelection(CaseBank bank, Map<String, Schema> schemas, ValueLinker values) {
    this.bank = bank;
    this.values = values;
    for (Case c : bank.cases()) {
      caseSkeletons.put(c.id(), QuerySimilarity.dailSkeleton(c.referenceSql(), schemas.get(c.dbId())));
    }
  }

  /** A case's DAIL skeleton. */
  String skeletonOf(String caseId) {
    return caseSkeletons.get(caseId);
  }

  /**
   * The retrieval of {@link CaseBank#retrieve}, its tier kept, with its examples chosen again among
   * the tier's {@value #CANDIDATES} nearest by the draft's skeleton; no draft: the plain retrieval.
   */
  public CaseBank.Retrieval retrieve(String question, String dbId, Schema schema, CaseBank.Policy policy, int k, String draft) {
    CaseBank.Retrieval first = bank.retrieve(question, dbId, schema, policy, k);
    boolean noDraft = draft == null || draft.isBlank();
    if (policy == CaseBank.Policy.SKELETON_VOTE && noDraft && first.type().equals("skeleton")) {
      return vote(question, dbId, schema, k, first);
    }
    if (noDraft || first.type().equals("none")) {
      return first;
    }
    List<CaseBank.Hit> candidates = first.type().equals("specific")
        ? bank.sameDatabase(bank.embedder().embed(question), dbId, CANDIDATES, Set.of())
        : bank.skeletons(bank.embedder().embed(QuestionMasker.mask(question, schema)), CANDIDATES, Set.of());
    String draftSkeleton = QuerySimilarity.dailSkeleton(draft, schema);
    List<CaseBank.Hit> chosen = byDraft(candidates, draftSkeleton, k);
    long close = chosen.stream().filter(h -> similarity(draftSkeleton, h) >= THRESHOLD).count();
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
  private CaseBank.Retrieval vote(String question, String dbId, Schema schema, int k, CaseBank.Retrieval tier) {
    List<CaseBank.Hit> candidates = bank.fusedSkeletons(masked(question, dbId, schema));
    String predicted = medoid(candidates, VOTERS, VOTE_POWER);
    CaseBank.Selection s = CaseBank.select(bySimilarity(candidates, predicted, candidates.size()), k, bank.refuseRate());
    List<CaseBank.Hit> chosen = s.hits();
    long same = chosen.stream().filter(h -> similarity(predicted, h) == 1.0).count();
    return new CaseBank.Retrieval(tier.type(), chosen, tier.why() + String.format(Locale.ROOT,
        "; skeleton vote of the %d nearest of %d candidates (vector and BM25%s): %d of %d examples have the voted skeleton",
        Math.min(VOTERS, candidates.size()), candidates.size(), values == null ? "" : ", values linked", same, chosen.size())
        + s.why());
  }

  /** The candidates close to the draft first (in their order), then the rest by similarity to it; at most k. */
  List<CaseBank.Hit> byDraft(List<CaseBank.Hit> candidates, String draftSkeleton, int k) {
    List<CaseBank.Hit> close = new ArrayList<>();
    List<CaseBank.Hit> rest = new ArrayList<>();
    for (CaseBank.Hit h : candidates) {
      (similarity(draftSkeleton, h) >= THRESHOLD ? close : rest).add(h);
    }
    rest.sort(Comparator.comparingDouble((CaseBank.Hit h) -> similarity(draftSkeleton, h)).reversed());
    close.addAll(rest);
    return close.subList(0, Math.min(k, close.size()));
  }

  /**
   * The skeleton the first {@code voters} candidates agree on most: among their skeletons, the one
   * with the highest sum over the voters of cosine × query similarity to the voter's skeleton; a tie
   * goes to the skeleton of the smallest case id.
   */
  String medoid(List<CaseBank.Hit> candidates, int voters, double power) {
    return medoid(candidates, voters, power, caseSkeletons::get);
  }

  static String medoid(List<CaseBank.Hit> candidates, int voters, double power, java.util.function.Function<String, String> skeletonOf) {
    List<CaseBank.Hit> voting = candidates.subList(0, Math.min(voters, candidates.size()));
    String best = null;
    String bestId = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (CaseBank.Hit h : voting) {
      String s = skeletonOf.apply(h.kase().id());
      double score = 0;
      for (CaseBank.Hit v : voting) {
        score += Math.pow(Math.max(v.cosine(), 0), power) * QuerySimilarity.jaccard(s, skeletonOf.apply(v.kase().id()));
      }
      if (score > bestScore + 1e-12 || (Math.abs(score - bestScore) <= 1e-12 && h.kase().id().compareTo(bestId) < 0)) {
        best = s;
        bestId = h.kase().id();
        bestScore = score;
      }
    }
    return best;
  }

  /** The candidates by query similarity to the skeleton, highest first, ties in candidate order; at most k. */
  List<CaseBank.Hit> bySimilarity(List<CaseBank.Hit> candidates, String skeleton, int k) {
    List<CaseBank.Hit> sorted = new ArrayList<>(candidates);
    sorted.sort(Comparator.comparingDouble((CaseBank.Hit h) -> similarity(skeleton, h)).reversed());
    return sorted.subList(0, Math.min(k, sorted.size()));
  }

  private double similarity(String draftSkeleton, CaseBank.Hit h) {
    return QuerySimilarity.jaccard(draftSkeleton, caseSkeletons.get(h.kase().id()));
  }
}
