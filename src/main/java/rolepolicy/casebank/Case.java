package rolepolicy.casebank;

import java.util.Map;

/**
 * One train question as a retrievable case.
 *
 * @param goldType {@code SQL} or {@code REFUSE}
 * @param goldSql the compliant SQL, or null for REFUSE
 * @param reason why REFUSE, or null
 * @param policies the policies of the columns its SQL touches, column key → policy
 * @param maskedQuestion the question with schema names and values masked
 * @param skeleton the skeleton of the gold SQL (of the original SQL for a REFUSE case): no table,
 *     column or value of its database
 * @param opSignature the skeleton's operators
 * @param referenceSql the SQL the case stands for in similarity measures: its original SQL
 */
public record Case(
    String id,
    String dbId,
    String question,
    String goldType,
    String goldSql,
    String reason,
    Map<String, String> policies,
    String maskedQuestion,
    String skeleton,
    String opSignature,
    String referenceSql) {

  public boolean refuse() {
    return goldType.equals("REFUSE");
  }
}
