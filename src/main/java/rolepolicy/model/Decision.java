package rolepolicy.model;

/** The rewrite rules' conclusion for one round: answer, refuse, or rewrite once more. */
public sealed interface Decision permits Answer, Refusal, RewriteStep {
  String rule();
}
