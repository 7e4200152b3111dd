package rolepolicy.engine;

/**
 * An edit the rules asked for could not be made on the SQL text, or the edited text does not
 * analyse to the facts the edit should give.
 */
public final class EditFailed extends Exception {
  public EditFailed(String message) {
    super(message);
  }
}
