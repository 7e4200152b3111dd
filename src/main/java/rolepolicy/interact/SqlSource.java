package rolepolicy.interact;

import java.util.List;

/** Where the SQL of each round, its repairs and the model's clarification questions come from. */
public interface SqlSource {
  /** The answer the asking side gives when it sees no ambiguity left (early stop). */
  String NO_AMBIGUITY = "NO AMBIGUITY";

  /**
   * One text the source gives and its perplexity (null when unknown: no model wrote it, or the
   * endpoint gave no log-probabilities); {@code truncated}: the endpoint cut it off at the token
   * limit ({@code finish_reason "length"}), so it is no final answer.
   */
  record Generation(String text, Double perplexity, boolean truncated) {
    public Generation(String text, Double perplexity) {
      this(text, perplexity, false);
    }

    public static Generation of(String text) {
      return text == null ? null : new Generation(text, null);
    }
  }

  /** The text holding this round's SQL, or null when the source has none (a replay ran out). */
  Generation generate(InteractQuestion question, Conversation conversation);

  /** The text holding a repair of SQL that failed to run, or null when the source has none. */
  default Generation repair(InteractQuestion question, Conversation conversation, String failed, String error) {
    return null;
  }

  /**
   * A clarification question about the round's wrong SQL, {@link #NO_AMBIGUITY}, or null when this
   * source asks none (a replay of a run without questions, the baseline method).
   */
  default Generation ask(InteractQuestion question, Conversation conversation) {
    return null;
  }

  /** The examples the source shows the model for a question (few-shot), or null when it shows none. */
  default List<QuestionLog.Example> examples(InteractQuestion question) {
    return null;
  }

  /** Whether the texts are model answers (SQL to extract) rather than recorded SQL. */
  default boolean modelAnswers() {
    return false;
  }

  /** How the source is named in the output. */
  String describe();
}
