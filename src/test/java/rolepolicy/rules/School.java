package rolepolicy.rules;

import java.util.List;
import java.util.Map;
import rolepolicy.TestData;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.model.PolicyOverride;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/**
 * A tiny hand-made database for the permission, rewrite and negative rules. Its column names are
 * chosen to trigger the naming rules; the comments give the policy each gets.
 */
final class School {
  static final String DB = "school";

  static final Schema SCHEMA =
      new Schema(
          DB,
          List.of("student", "enrolment", "club"),
          List.of(
              new SchemaColumn(DB, 0, "", "*", "text", false),
              column(1, "student", "advisor_id", false), // JoinOnly, first _id, not a key
              column(2, "student", "student_id", true), //  JoinOnly, first primary key
              column(3, "student", "name", false), //        Public
              column(4, "student", "email", false), //       Hidden
              column(5, "student", "birth_date", false), //  Hidden
              column(6, "student", "score", false), //       AggOnly
              column(7, "student", "fee_amount", false), //  AggOnly
              column(8, "student", "house_id", true), //    JoinOnly, second primary key
              column(9, "enrolment", "course_id", false), // JoinOnly, no primary key here
              column(10, "enrolment", "student_id", false), // JoinOnly
              column(11, "enrolment", "grade", false), //    Public
              column(12, "enrolment", "phone", false), //    Hidden
              column(13, "club", "club_id", true), //       JoinOnly, the table's only _id
              column(14, "club", "title", false), //        Public
              column(15, "club", "budget", false), //       AggOnly
              column(16, "club", "revenue", false))); //    AggOnly

  /** The automatic policies of the school database. */
  static final DatabasePolicies POLICIES = policies();

  private School() {}

  /** The school's policies after these overrides. */
  static DatabasePolicies policies(PolicyOverride... overrides) {
    return new PolicyAssigner(TestData.rules())
        .assign(Map.of(DB, SCHEMA), List.of(overrides), "test overrides")
        .get(DB);
  }

  /** One column's policy by key, {@code table.column} lower-cased. */
  static ColumnPolicy policyOf(DatabasePolicies policies, String key) {
    return policies.columns().stream()
        .filter(c -> c.column().key().equals(key))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no column " + key));
  }

  private static SchemaColumn column(int index, String table, String name, boolean primaryKey) {
    return new SchemaColumn(DB, index, table, name, "text", primaryKey);
  }
}
