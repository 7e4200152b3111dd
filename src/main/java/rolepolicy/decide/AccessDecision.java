package rolepolicy.decide;

/**
 * The tool's decision on one record: PERMIT, or DENY with the rule that denied and what it names.
 *
 * @param line the record's line
 * @param dbId the database
 * @param user the user
 * @param decision PERMIT or DENY
 * @param rule the rule that denied; null for PERMIT
 * @param column the column it names, or null (a table read with no column granted; PERMIT)
 * @param table the table it names; null for PERMIT
 */
public record AccessDecision(
    int line, String dbId, String user, String decision, String rule, String column, String table) {
  public static final String PERMIT = rolepolicy.spider.AccessRecord.PERMIT;
  public static final String DENY = rolepolicy.spider.AccessRecord.DENY;
}
