package rolepolicy.model;

/** Usage policy of a column (SPEC §2). Constant names are the output strings. */
public enum Policy {
  Public,
  JoinOnly,
  AggOnly,
  Hidden
}
