package rolepolicy.rules;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.kie.api.KieBase;
import org.kie.api.runtime.KieSession;
import rolepolicy.TestData;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.engine.RuleBase;
import rolepolicy.model.AssignedPolicy;
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

  /** The rows of the spec's table (§3), in its order: the first that matches a name wins. */
  static final List<String> SPEC_ORDER =
      List.of(KEY, CODE, STUID, CONTACT, GENDER, BIRTH, BODY, PAY, FIGURES, SCORES, PUBLIC);

  /** Column names that trigger one naming rule each (mixed case on purpose). */
  private static final List<String> NAMES =
      List.of(
          "person_id", "ID_card", "id", "zip_code", "StuID", "email", "Home_Phone",
          "address_line", "Gender", "nationality", "SEX", "date_of_birth", "SSN", "password",
          "weight", "Height", "age", "salary", "Unit_Price", "income", "amount", "cost",
          "Budget_in_Billions", "balance", "revenue", "profit", "score", "Rating", "total", "name",
          "stage", "sex_ratio", "total_points", "weight_kg", "height_score");

  /** A name two rows of the table match: {@code winner} comes first, so it must win. */
  record Overlap(String name, String winner, String loser) {}

  /**
   * One name for every two rows that one name can match, derived from the rules' patterns; the
   * names marked Spider are columns of Spider's tables.json. STUID and the body measures test
   * equality only, so no name matches them and another row but Public (checked below).
   */
  static final List<Overlap> OVERLAPS =
      List.of(
          new Overlap("id_code", KEY, CODE),
          new Overlap("Address_ID", KEY, CONTACT), // Spider
          new Overlap("gender_id", KEY, GENDER),
          new Overlap("birth_place_id", KEY, BIRTH),
          new Overlap("salary_id", KEY, PAY),
          new Overlap("budget_id", KEY, FIGURES),
          new Overlap("rating_id", KEY, SCORES),
          new Overlap("Phone_Code", CODE, CONTACT),
          new Overlap("gender_code", CODE, GENDER), // Spider
          new Overlap("password_code", CODE, BIRTH),
          new Overlap("price_code", CODE, PAY),
          new Overlap("budget_type_code", CODE, FIGURES), // Spider
          new Overlap("star_rating_code", CODE, SCORES), // Spider
          new Overlap("email_gender", CONTACT, GENDER),
          new Overlap("birth_address", CONTACT, BIRTH),
          new Overlap("email_price", CONTACT, PAY),
          new Overlap("phone_cost", CONTACT, FIGURES),
          new Overlap("email_rating", CONTACT, SCORES),
          new Overlap("nationality_at_birth", GENDER, BIRTH),
          new Overlap("gender_salary", GENDER, PAY),
          new Overlap("nationality_budget", GENDER, FIGURES),
          new Overlap("gender_score", GENDER, SCORES),
          new Overlap("birth_price", BIRTH, PAY),
          new Overlap("ssn_cost", BIRTH, FIGURES),
          new Overlap("birth_rating", BIRTH, SCORES),
          new Overlap("salary_cost", PAY, FIGURES),
          new Overlap("price_rating", PAY, SCORES),
          new Overlap("revenue_score", FIGURES, SCORES));

  /** Assigned per test, by the rules of the moment (the rule-mutation check substitutes them). */
  private final Map<String, ColumnPolicy> policies = assign();

  // Each rule's test also checks the names it shares with a later row (its OVERLAPS as winner):
  // swapping the salience of two rows fails the test of the row that loses its precedence.

  @Test
  @DisplayName(KEY)
  void keyColumnsAreJoinOnly() {
    assertAssigned(KEY, Policy.JoinOnly, "person_id", "ID_card", "id");
    assertAssignsExactly(KEY, "person_id", "ID_card", "id");
    assertComesFirst(KEY, Policy.JoinOnly);
  }

  @Test
  @DisplayName(CODE)
  void codeColumnsAreJoinOnly() {
    assertAssigned(CODE, Policy.JoinOnly, "zip_code");
    assertAssignsExactly(CODE, "zip_code");
    assertComesFirst(CODE, Policy.JoinOnly);
  }

  @Test
  @DisplayName(STUID)
  void studentIdIsJoinOnly() {
    assertAssigned(STUID, Policy.JoinOnly, "StuID");
    assertAssignsExactly(STUID, "StuID");
  }

  @Test
  @DisplayName(CONTACT)
  void contactDataIsHidden() {
    assertAssigned(CONTACT, Policy.Hidden, "email", "Home_Phone", "address_line");
    assertAssignsExactly(CONTACT, "email", "Home_Phone", "address_line");
    assertComesFirst(CONTACT, Policy.Hidden);
  }

  @Test
  @DisplayName(GENDER)
  void genderAndNationalityAreHidden() {
    assertAssigned(GENDER, Policy.Hidden, "Gender", "nationality", "SEX");
    assertAssignsExactly(GENDER, "Gender", "nationality", "SEX");
    assertComesFirst(GENDER, Policy.Hidden);
  }

  @Test
  @DisplayName(BIRTH)
  void birthSsnAndPasswordsAreHidden() {
    assertAssigned(BIRTH, Policy.Hidden, "date_of_birth", "SSN", "password");
    assertAssignsExactly(BIRTH, "date_of_birth", "SSN", "password");
    assertComesFirst(BIRTH, Policy.Hidden);
  }

  @Test
  @DisplayName(BODY)
  void bodyMeasuresAreHidden() {
    assertAssigned(BODY, Policy.Hidden, "weight", "Height", "age");
    assertAssignsExactly(BODY, "weight", "Height", "age");
  }

  @Test
  @DisplayName(PAY)
  void payAndPricesAreAggOnly() {
    assertAssigned(PAY, Policy.AggOnly, "salary", "Unit_Price", "income", "amount");
    assertAssignsExactly(PAY, "salary", "Unit_Price", "income", "amount");
    assertComesFirst(PAY, Policy.AggOnly);
  }

  @Test
  @DisplayName(FIGURES)
  void businessFiguresAreAggOnly() {
    assertAssigned(
        FIGURES, Policy.AggOnly, "cost", "Budget_in_Billions", "balance", "revenue", "profit");
    assertAssignsExactly(FIGURES, "cost", "Budget_in_Billions", "balance", "revenue", "profit");
    assertComesFirst(FIGURES, Policy.AggOnly);
  }

  @Test
  @DisplayName(SCORES)
  void scoresAndRatingsAreAggOnly() {
    // height_score is no body measure: those are equality tests.
    assertAssigned(SCORES, Policy.AggOnly, "score", "Rating", "total", "height_score");
    assertAssignsExactly(SCORES, "score", "Rating", "total", "height_score");
  }

  @Test
  @DisplayName(PUBLIC)
  void everyOtherColumnIsPublic() {
    // "sex", "age" and "total" are equality tests, not substring tests.
    assertAssigned(
        PUBLIC, Policy.Public, "name", "stage", "sex_ratio", "total_points", "weight_kg");
    assertAssignsExactly(PUBLIC, "name", "stage", "sex_ratio", "total_points", "weight_kg");
  }

  @Test
  @DisplayName("Each precedence name matches exactly its two rows, and every two rows one name can match have one")
  void overlapsAreRealAndComplete() {
    Map<String, Set<String>> matches = everyMatch();
    List<Executable> checks = new ArrayList<>();
    // Each name matches the row that must win, the row it beats, and Public: so its check bites.
    for (Overlap o : OVERLAPS) {
      checks.add(() -> assertEquals(Set.of(o.winner(), o.loser(), PUBLIC), matches.get(o.name()),
          o.name() + ": rows matched when every row may fire"));
    }
    // Rows that only test equality: each of their names matches no other row but Public.
    Map<String, List<String>> equalityOnly = equalityOnlyRows();
    checks.add(() -> assertEquals(Set.of(STUID, BODY), equalityOnly.keySet(), "equality-only rows"));
    equalityOnly.forEach((rule, names) -> names.forEach(name -> checks.add(
        () -> assertEquals(Set.of(rule, PUBLIC), everyMatch(List.of(name)).get(name),
            name + ": rows matched when every row may fire"))));
    // Every two other rows, taken in the spec's order, share a name of OVERLAPS.
    Set<List<String>> pairs = new HashSet<>();
    List<String> rows =
        SPEC_ORDER.stream().filter(r -> !r.equals(PUBLIC) && !equalityOnly.containsKey(r)).toList();
    for (int i = 0; i < rows.size(); i++) {
      for (int j = i + 1; j < rows.size(); j++) {
        pairs.add(List.of(rows.get(i), rows.get(j)));
      }
    }
    checks.add(() -> assertEquals(pairs,
        OVERLAPS.stream().map(o -> List.of(o.winner(), o.loser())).collect(Collectors.toSet()),
        "(winner, loser) pairs of OVERLAPS"));
    assertAll(checks);
  }

  @Test
  @DisplayName("Every column gets exactly one automatic policy and keeps it without overrides")
  void everyColumnGetsOnePolicy() {
    assertEquals(NAMES.size() + OVERLAPS.size(), policies.size());
    policies.values().forEach(p -> assertEquals(p.autoPolicy(), p.finalPolicy(), p.column().key()));
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

  private void assertAssigned(String rule, Policy policy, String... names) {
    List<Executable> checks = new ArrayList<>();
    for (String name : names) {
      ColumnPolicy p = policies.get(name);
      checks.add(() -> assertEquals(policy, p.autoPolicy(), name + ": policy"));
      checks.add(() -> assertEquals(rule, p.autoRule(), name + ": rule"));
    }
    assertAll(checks);
  }

  /**
   * Of all the names of this test, {@code rule} assigns exactly {@code names} and the names it
   * shares with a later row: a rule that matches too much, or loses a name it should win, fails.
   */
  private void assertAssignsExactly(String rule, String... names) {
    Set<String> expected = new java.util.TreeSet<>(List.of(names));
    OVERLAPS.stream().filter(o -> o.winner().equals(rule)).forEach(o -> expected.add(o.name()));
    Set<String> assigned = new java.util.TreeSet<>();
    policies.forEach((name, p) -> {
      if (p.autoRule().equals(rule)) {
        assigned.add(name);
      }
    });
    assertEquals(expected, assigned, "the names \"" + rule + "\" assigns");
  }

  /** The names {@code rule} shares with a later row get {@code rule}'s policy. */
  private void assertComesFirst(String rule, Policy policy) {
    List<Executable> checks = new ArrayList<>();
    for (Overlap o : OVERLAPS) {
      if (o.winner().equals(rule)) {
        ColumnPolicy p = policies.get(o.name());
        String why = o.name() + " matches \"" + o.loser() + "\" too, a later row";
        checks.add(() -> assertEquals(rule, p.autoRule(), why + ": rule"));
        checks.add(() -> assertEquals(policy, p.autoPolicy(), why + ": policy"));
      }
    }
    assertFalse(checks.isEmpty(), "no name of OVERLAPS for " + rule);
    assertAll(checks);
  }

  private static Map<String, ColumnPolicy> assign() {
    Schema schema = new Schema("naming", List.of("people"), columns(allNames()));
    return new PolicyAssigner(TestData.rules())
        .assign(Map.of("naming", schema), List.of(), "no overrides")
        .get("naming")
        .columns()
        .stream()
        .collect(Collectors.toMap(c -> c.column().name(), Function.identity()));
  }

  private static List<String> allNames() {
    List<String> names = new ArrayList<>(NAMES);
    OVERLAPS.forEach(o -> names.add(o.name()));
    return names;
  }

  private static List<SchemaColumn> columns(List<String> names) {
    List<SchemaColumn> columns = new ArrayList<>();
    columns.add(new SchemaColumn("naming", 0, "", "*", "text", false));
    for (String name : names) {
      columns.add(new SchemaColumn("naming", columns.size(), "people", name, "text", false));
    }
    return columns;
  }

  /** policy.drl with "first match wins" taken out: every row that matches a name fires. */
  private static final String FIRST_MATCH_WINS = "not AssignedPolicy( column == $c )";

  private static KieBase everyRowFires;

  private static Map<String, Set<String>> everyMatch() {
    return everyMatch(allNames());
  }

  /** For each name, the rows that match it when every row may fire. */
  private static synchronized Map<String, Set<String>> everyMatch(List<String> names) {
    if (everyRowFires == null) {
      try {
        String text = Files.readString(TestData.ruleFile("policy.drl"));
        assertEquals(SPEC_ORDER.size(), text.split(Pattern.quote(FIRST_MATCH_WINS), -1).length - 1,
            "policy.drl: one \"" + FIRST_MATCH_WINS + "\" per row");
        Path dir = Files.createTempDirectory("every-row-fires");
        Path drl = Files.writeString(dir.resolve("policy.drl"), text.replace(FIRST_MATCH_WINS, ""));
        try {
          everyRowFires = RuleBase.load(rolepolicy.engine.RuleSet.of(dir));
        } finally {
          Files.delete(drl);
          Files.delete(dir);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    KieSession session = everyRowFires.newKieSession();
    try {
      columns(names).forEach(session::insert);
      session.fireAllRules();
      Map<String, Set<String>> matches = new HashMap<>();
      for (Object fact : session.getObjects(f -> f instanceof AssignedPolicy)) {
        AssignedPolicy a = (AssignedPolicy) fact;
        matches.computeIfAbsent(a.column().name(), n -> new TreeSet<>()).add(a.rule());
      }
      return matches;
    } finally {
      session.dispose();
    }
  }

  /**
   * The rows whose pattern is only equality tests ({@code lowerName == "x" || ...}), with the
   * names they can match, read from policy.drl.
   */
  private static Map<String, List<String>> equalityOnlyRows() {
    String text;
    try {
      text = Files.readString(TestData.ruleFile("policy.drl"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, List<String>> rows = new HashMap<>();
    Matcher rule = Pattern.compile(
        "^rule \"([^\"]+)\".*?\\$c : SchemaColumn\\((.*?)\\)\\s*$", Pattern.MULTILINE | Pattern.DOTALL)
        .matcher(text);
    Pattern equality = Pattern.compile("lowerName == \"([^\"]*)\"");
    while (rule.find()) {
      String pattern = rule.group(2);
      if (equality.matcher(pattern).replaceAll("").replace("||", "").isBlank()) {
        List<String> names = new ArrayList<>();
        Matcher m = equality.matcher(pattern);
        while (m.find()) {
          names.add(m.group(1));
        }
        if (!names.isEmpty()) {
          rows.put(rule.group(1), names);
        }
      }
    }
    return rows;
  }
}
