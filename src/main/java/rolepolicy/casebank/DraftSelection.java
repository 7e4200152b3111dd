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

  private final CaseBank bank;
  private final Map<String, String> caseSkeletons = new HashMap<>();

  /** Every case's DAIL skeleton, from its reference SQL and its database's schema. */
  public DraftSelection(CaseBank bank, Map<String, Schema> schemas) {
    this.bank = bank;
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
    if (draft == null || draft.isBlank() || first.type().equals("none")) {
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

  private double similarity(String draftSkeleton, CaseBank.Hit h) {
    return QuerySimilarity.jaccard(draftSkeleton, caseSkeletons.get(h.kase().id()));
  }
}
