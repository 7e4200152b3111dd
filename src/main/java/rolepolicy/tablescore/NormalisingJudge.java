package rolepolicy.tablescore;

/**
 * The deterministic judge: numbers equal within a relative tolerance, dates equal as dates
 * (in the forms {@link CellText#date} reads), other text equal after case, white space,
 * punctuation and symbols are set aside. Null and blank are equal to each other only.
 */
public final class NormalisingJudge implements CellJudge {
  private final double tolerance;

  /** {@code tolerance}: the largest relative difference |a − b| / max(|a|, |b|) of equal numbers. */
  public NormalisingJudge(double tolerance) {
    this.tolerance = tolerance;
  }

  @Override
  public boolean same(ScoredColumn column, Object gold, Object result) {
    String g = CellText.text(gold);
    String r = CellText.text(result);
    if (g == null || r == null) {
      return g == null && r == null;
    }
    Double a = CellText.number(gold);
    Double b = CellText.number(result);
    if (a != null && b != null) {
      return Math.abs(a - b) <= tolerance * Math.max(Math.abs(a), Math.abs(b));
    }
    CellText.PartialDate da = CellText.date(g);
    CellText.PartialDate db = CellText.date(r);
    if (da != null && db != null) {
      return da.equals(db);
    }
    return CellText.words(g).equals(CellText.words(r));
  }
}
