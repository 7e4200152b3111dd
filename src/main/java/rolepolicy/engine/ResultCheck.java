package rolepolicy.engine;

/** Runs a query and its rewrite on the question's database and compares their results. */
@FunctionalInterface
public interface ResultCheck {
  /** No database to run on: every rewrite that must keep the answer is refused. */
  ResultCheck NONE = (dbId, before, after) -> "no database to run the queries on";

  /** Null when both give the same result on database {@code dbId}; else why not. */
  String differs(String dbId, String before, String after);
}
