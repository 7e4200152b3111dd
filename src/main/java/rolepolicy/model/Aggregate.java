package rolepolicy.model;

/** The aggregate a column reference stands under, in Spider's order (its AST's ids 0–5). */
public enum Aggregate {
  NONE(""),
  MAX("its maximum"),
  MIN("its minimum"),
  COUNT("counted"),
  SUM("summed"),
  AVG("averaged");

  private final String participle;

  Aggregate(String participle) {
    this.participle = participle;
  }

  /** What the aggregate does to a column, in words: "averaged". */
  public String participle() {
    return participle;
  }

  private static final Aggregate[] BY_ID = values();

  /** Spider's id: 0 none, 1 max, 2 min, 3 count, 4 sum, 5 avg. */
  public int id() {
    return ordinal();
  }

  /** The aggregate of Spider's id. */
  public static Aggregate of(int id) {
    if (id < 0 || id >= BY_ID.length) {
      throw new IllegalArgumentException("no aggregate has id " + id + " (0 none, 1 max … 5 avg)");
    }
    return BY_ID[id];
  }

  /** The aggregate named by an SQL function name, any case; null for another name. */
  public static Aggregate named(String function) {
    for (Aggregate a : BY_ID) {
      if (a != NONE && a.name().equalsIgnoreCase(function)) {
        return a;
      }
    }
    return null;
  }

  public boolean none() {
    return this == NONE;
  }
}
