package rolepolicy.interact;

/** Where the SQL of each round, its repairs and the model's clarification questions come from. */
public interface SqlSource {
  /** The answer the asking side gives when it sees no ambiguity left (early stop). */
  String NO_AMBIGUITY = "NO AMBIGUITY";

  /** The text holding this round's SQL, or null when the source has none (a replay ran out). */
  String generate(InteractQuestion question, Conversation conversation);

  /** The text holding a repair of SQL that failed to run, or null when the source has none. */
  default String repair(InteractQuestion question, Conversation conversation, String failed, String error) {
    return null;
  }

  /**
   * A clarification question about the round's wrong SQL, {@link #NO_AMBIGUITY}, or null when this
   * source asks none (a replay of a run without questions).
   */
  default String ask(InteractQuestion question, Conversation conversation) {
    return null;
  }

  /** Whether the texts are model answers (SQL to extract) rather than recorded SQL. */
  default boolean modelAnswers() {
    return false;
  }

  /** How the source is named in the output. */
  String describe();
}
