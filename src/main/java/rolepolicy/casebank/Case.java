package rolepolicy.casebank;

import java.util.Map;

/**
 * One train question as a retrievable case.
 *
 * @param goldType {@code SQL} or {@code REFUSE}
 * @param goldSql the compliant SQL, or null for REFUSE
 * @param reason the generator's code for REFUSE ({@code R3}, {@code MAX_STEPS}, …), or null
 * @param refusal why REFUSE, in words a model can follow ({@code it needs head.age in a WHERE
 *     filter, which is Hidden}), or null
 * @param policies the policies of the columns its SQL touches (the gold SQL's; the original's for
 *     REFUSE), column key → policy, in the order first touched
 * @param maskedQuestion the question with schema names and values masked
 * @param skeleton the skeleton of the gold SQL (of the original SQL for a REFUSE case): no table,
 *     column or value of its database
 * @param opSignature the skeleton's operators
 * @param shapeRefusal {@code refusal} with the skeleton's placeholders for the columns ({@code _col2}), or null
 * @param shapePolicies the policies of the skeleton's columns by placeholder ({@code _col1 → Public})
 * @param referenceSql the SQL the case stands for in similarity measures: its original SQL
 */
public record Case(
    String id,
    String dbId,
    String question,
    String goldType,
    String goldSql,
    String reason,
    String refusal,
    Map<String, String> policies,
    String maskedQuestion,
    String skeleton,
    String opSignature,
    String shapeRefusal,
    Map<String, String> shapePolicies,
    String referenceSql) {

  public boolean refuse() {
    return goldType.equals("REFUSE");
  }
}
