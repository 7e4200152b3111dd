package rolepolicy.model;

/**
 * A proposed edit, made and checked: its SQL analysed again with the same permission rules and,
 * when the edit must keep the result, both SQL texts executed on the database.
 *
 * @param edit the edit proposed
 * @param sql the edited SQL text, or null when the edit could not be made
 * @param compliant whether the edited text breaks no policy
 * @param sameResult whether both texts give the same rows on the database (true when not required)
 * @param problem why the check failed, or null
 */
public record CheckedEdit(ProposedEdit edit, String sql, boolean compliant, boolean sameResult, String problem) {
  public boolean passed() {
    return compliant && sameResult;
  }
}
