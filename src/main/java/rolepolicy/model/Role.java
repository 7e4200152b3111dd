package rolepolicy.model;

/** The role a column reference plays in a query (SPEC §2, §4). Constant names are the output strings. */
public enum Role {
  SelectExpr,
  AggArg,
  JoinCond,
  WherePred
}
