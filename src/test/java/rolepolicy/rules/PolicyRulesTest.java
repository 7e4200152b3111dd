package rolepolicy.rules;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import rolepolicy.TestData;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.model.Policy;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/** One test per rule of {@code rules/policy.drl} (SPEC §3): naming rules, first match wins. */
class PolicyRulesTest {
  static final String KEY = "Key columns (_id, id_, id) are JoinOnly";
  static final String CODE = "Code columns (_code) are JoinOnly";
  static final String STUID = "Student id (stuid) is JoinOnly";
  static final String CONTACT = "Contact data (email, phone, address) is Hidden";
  static final String GENDER = "Gender and nationality (gender, nationality, sex) are Hidden";
  static final String BIRTH = "Birth data, SSN and passwords are Hidden";
  static final String BODY = "Body measures (weight, height, age) are Hidden";
  static final String PAY = "Pay and prices (salary, income, price, amount) are AggOnly";
  static final String FIGURES =
      "Business figures (cost, budget, balance, revenue, profit) are AggOnly";
  static final String SCORES = "Scores and ratings (score, rating, total) are AggOnly";
  static final String PUBLIC = "Every other column is Public";

  /** One table whose column names each trigger one naming rule (mixed case on purpose). */
  private static final List<String> NAMES =
      List.of(
          "person_id", "ID_card", "id", "Address_ID", "zip_code", "Phone_Code", "StuID",
          "email", "Home_Phone", "address_line", "Gender", "nationality", "SEX", "date_of_birth",
          "SSN", "password", "weight", "Height", "age", "salary", "Unit_Price", "income",
          "amount", "cost", "Budget_in_Billions", "balance", "revenue", "profit", "score",
          "Rating", "total", "name", "stage", "sex_ratio", "total_points", "weight_kg",
          "phone_price", "birth_rating", "salary_cost", "revenue_score");

  private static final Map<String, ColumnPolicy> POLICIES = assign();

  @Test
  @DisplayName(KEY)
  void keyColumnsAreJoinOnly() {
    assertAssigned(KEY, Policy.JoinOnly, "person_id", "ID_card", "id");
  }

  @Test
  @DisplayName(CODE)
  void codeColumnsAreJoinOnly() {
    assertAssigned(CODE, Policy.JoinOnly, "zip_code");
  }

  @Test
  @DisplayName(STUID)
  void studentIdIsJoinOnly() {
    assertAssigned(STUID, Policy.JoinOnly, "StuID");
  }

  @Test
  @DisplayName(CONTACT)
  void contactDataIsHidden() {
    assertAssigned(CONTACT, Policy.Hidden, "email", "Home_Phone", "address_line");
  }

  @Test
  @DisplayName(GENDER)
  void genderAndNationalityAreHidden() {
    assertAssigned(GENDER, Policy.Hidden, "Gender", "nationality", "SEX");
  }

  @Test
  @DisplayName(BIRTH)
  void birthSsnAndPasswordsAreHidden() {
    assertAssigned(BIRTH, Policy.Hidden, "date_of_birth", "SSN", "password");
  }

  @Test
  @DisplayName(BODY)
  void bodyMeasuresAreHidden() {
    assertAssigned(BODY, Policy.Hidden, "weight", "Height", "age");
  }

  @Test
  @DisplayName(PAY)
  void payAndPricesAreAggOnly() {
    assertAssigned(PAY, Policy.AggOnly, "salary", "Unit_Price", "income", "amount");
  }

  @Test
  @DisplayName(FIGURES)
  void businessFiguresAreAggOnly() {
    assertAssigned(
        FIGURES, Policy.AggOnly, "cost", "Budget_in_Billions", "balance", "revenue", "profit");
  }

  @Test
  @DisplayName(SCORES)
  void scoresAndRatingsAreAggOnly() {
    assertAssigned(SCORES, Policy.AggOnly, "score", "Rating", "total");
  }

  @Test
  @DisplayName(PUBLIC)
  void everyOtherColumnIsPublic() {
    // "sex", "age" and "total" are equality tests, not substring tests.
    assertAssigned(
        PUBLIC, Policy.Public, "name", "stage", "sex_ratio", "total_points", "weight_kg");
  }

  @Test
  @DisplayName("First match wins: a key or code name beats the Hidden names (address_id)")
  void keyRulesComeBeforeHiddenRules() {
    assertAssigned(KEY, Policy.JoinOnly, "Address_ID");
    assertAssigned(CODE, Policy.JoinOnly, "Phone_Code");
  }

  @Test
  @DisplayName("First match wins: a Hidden name beats the AggOnly names")
  void hiddenRulesComeBeforeAggOnlyRules() {
    assertAssigned(CONTACT, Policy.Hidden, "phone_price");
    assertAssigned(BIRTH, Policy.Hidden, "birth_rating");
  }

  @Test
  @DisplayName("First match wins among the AggOnly rows: pay, then figures, then scores")
  void aggOnlyRulesInOrder() {
    assertAssigned(PAY, Policy.AggOnly, "salary_cost");
    assertAssigned(FIGURES, Policy.AggOnly, "revenue_score");
  }

  @Test
  @DisplayName("Every column gets exactly one automatic policy and keeps it without overrides")
  void everyColumnGetsOnePolicy() {
    assertEquals(NAMES.size(), POLICIES.size());
    POLICIES.values().forEach(p -> assertEquals(p.autoPolicy(), p.finalPolicy(), p.column().key()));
  }

  /** The spec's table of §3, one row per rule, in order. */
  @ParameterizedTest(name = "{0} -> {1} by \"{2}\"")
  @DisplayName("SPEC §3 table, row by row")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          person_id          | JoinOnly | Key columns (_id, id_, id) are JoinOnly
          zip_code           | JoinOnly | Code columns (_code) are JoinOnly
          StuID              | JoinOnly | Student id (stuid) is JoinOnly
          email              | Hidden   | Contact data (email, phone, address) is Hidden
          Gender             | Hidden   | Gender and nationality (gender, nationality, sex) are Hidden
          date_of_birth      | Hidden   | Birth data, SSN and passwords are Hidden
          age                | Hidden   | Body measures (weight, height, age) are Hidden
          Unit_Price         | AggOnly  | Pay and prices (salary, income, price, amount) are AggOnly
          Budget_in_Billions | AggOnly  | Business figures (cost, budget, balance, revenue, profit) are AggOnly
          Rating             | AggOnly  | Scores and ratings (score, rating, total) are AggOnly
          name               | Public   | Every other column is Public
          """)
  void specTableRow(String name, Policy policy, String rule) {
    assertAssigned(rule, policy, name);
  }

  private static void assertAssigned(String rule, Policy policy, String... names) {
    List<Executable> checks = new ArrayList<>();
    for (String name : names) {
      ColumnPolicy p = POLICIES.get(name);
      checks.add(() -> assertEquals(policy, p.autoPolicy(), name + ": policy"));
      checks.add(() -> assertEquals(rule, p.autoRule(), name + ": rule"));
    }
    assertAll(checks);
  }

  private static Map<String, ColumnPolicy> assign() {
    List<SchemaColumn> columns = new ArrayList<>();
    columns.add(new SchemaColumn("naming", 0, "", "*", "text", false));
    for (String name : NAMES) {
      columns.add(new SchemaColumn("naming", columns.size(), "people", name, "text", false));
    }
    Schema schema = new Schema("naming", List.of("people"), columns);
    return new PolicyAssigner(TestData.rules())
        .assign(Map.of("naming", schema), List.of(), "no overrides")
        .get("naming")
        .columns()
        .stream()
        .collect(Collectors.toMap(c -> c.column().name(), Function.identity()));
  }
}
