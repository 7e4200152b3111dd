package rolepolicy.spider;

/**
 * One record of Spider-AC (Role-Conditioned Refusals): a user of a database, a query, the GRANT
 * statements of the database's users, its schema and PostgreSQL's answer.
 *
 * @param line the record's line in its file, from 1
 * @param dbId the database (also the PostgreSQL schema)
 * @param user the user; the PostgreSQL role is {@code <dbId>_<user>}
 * @param question the question in words ("" where the record has none)
 * @param query the SQL
 * @param accessPolicySql the {@code ;}-separated GRANT statements of all the database's users
 * @param schemaDdl the {@code CREATE TABLE} statements
 * @param groundTruthLabel PostgreSQL's answer: rows, or an error beginning {@code ERROR}
 */
public record AccessRecord(
    int line,
    String dbId,
    String user,
    String question,
    String query,
    String accessPolicySql,
    String schemaDdl,
    String groundTruthLabel) {

  /** The PostgreSQL role of the record's user. */
  public String role() {
    return dbId + "_" + user;
  }

  public static final String PERMIT = "PERMIT";
  public static final String DENY = "DENY";

  /** The paper's reading of the label: an error is DENY, anything else PERMIT. */
  public String labelDecision() {
    return groundTruthLabel.startsWith("ERROR") ? DENY : PERMIT;
  }
}
