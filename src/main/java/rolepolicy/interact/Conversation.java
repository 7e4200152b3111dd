package rolepolicy.interact;

import java.util.ArrayList;
import java.util.List;

/** What the loop has said so far about one question: its SQL texts and clarifications. */
public final class Conversation {
  /** One clarification asked and its answer. */
  public record Exchange(String question, String answer) {}

  private int round;
  private final List<String> sqls = new ArrayList<>();
  private final List<Exchange> exchanges = new ArrayList<>();

  /** The round now being played, from 0. */
  public int round() {
    return round;
  }

  void nextRound() {
    round++;
  }

  /** Every SQL text tried so far, in order. */
  public List<String> sqls() {
    return sqls;
  }

  public List<Exchange> exchanges() {
    return exchanges;
  }
}
