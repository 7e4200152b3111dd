package rolepolicy.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.engine.PolicyReview;
import rolepolicy.model.Policy;
import rolepolicy.model.ReviewFlag;
import rolepolicy.model.ReviewedColumn;

/** One test per rule of {@code rules/review.drl}, on real Spider databases. */
class ReviewRulesTest {
  static final String NAMED_FOR_PEOPLE = "A table named for people describes people";
  static final String PERSON_NAME_COLUMN = "A table with a person-name column describes people";
  static final String OUTSIDE_PEOPLE = "Flag Hidden or AggOnly in a table that does not describe people";
  static final String JOIN_ONLY_NO_KEY = "Flag JoinOnly on a column that is no key";
  static final String PUBLIC_KEY = "Flag a key left Public";

  @Test
  @DisplayName(NAMED_FOR_PEOPLE)
  void aTableNamedForPeopleDescribesPeople() {
    // concert_singer: singer.age and singer.is_male are Hidden, in a table named for people
    Map<String, List<ReviewFlag>> flags = flags("concert_singer");
    assertEquals(Policy.Hidden, TestData.autoPolicies().get("concert_singer").columns().stream()
        .filter(c -> c.column().key().equals("singer.age")).findFirst().orElseThrow().finalPolicy());
    assertFalse(flags.containsKey("singer.age"), flags::toString);
    // pets_1's Student: Student.Age is Hidden too
    assertFalse(flags("pets_1").containsKey("student.age"), flags("pets_1")::toString);
    // every table named for people counts, in the singular too; a concert is no person
    Map<String, List<ReviewFlag>> three = review().flags(List.of(
        new ReviewedColumn("singer.age", "singer", "Age", Policy.Hidden, false, "-"),
        new ReviewedColumn("teachers.salary", "Teachers", "Salary", Policy.AggOnly, false, "-"),
        new ReviewedColumn("concert.theme", "concert", "Theme", Policy.Hidden, false, "-")));
    assertEquals(java.util.Set.of("concert.theme"), three.keySet());
  }

  @Test
  @DisplayName(PERSON_NAME_COLUMN)
  void aTableWithAPersonNameColumnDescribesPeople() {
    // inn_1's Reservations has no person word in its name but LastName and FirstName columns
    // (and music_2's Band, Firstname); inn_1's Rooms has neither
    List<ReviewedColumn> columns = new ArrayList<>(List.of(
        new ReviewedColumn("reservations.lastname", "Reservations", "LastName", Policy.Public, false, "-"),
        new ReviewedColumn("reservations.rate", "Reservations", "Rate", Policy.AggOnly, false, "-"),
        new ReviewedColumn("band.firstname", "Band", "Firstname", Policy.Public, false, "-"),
        new ReviewedColumn("band.fee", "Band", "Fee", Policy.AggOnly, false, "-"),
        new ReviewedColumn("rooms.baseprice", "Rooms", "basePrice", Policy.AggOnly, false, "-")));
    assertEquals(java.util.Set.of("rooms.baseprice"), review().flags(columns).keySet());
    columns.remove(0);
    assertEquals(java.util.Set.of("reservations.rate", "rooms.baseprice"), review().flags(columns).keySet(),
        "without its name column Reservations is flagged");
  }

  @Test
  @DisplayName(OUTSIDE_PEOPLE)
  void hiddenOrAggOnlyOutsideATableAboutPeopleIsFlagged() {
    // pets_1: Pets.weight is Hidden (body measures), but Pets are no people
    List<ReviewFlag> weight = flags("pets_1").get("pets.weight");
    assertEquals(1, weight.size(), String.valueOf(weight));
    assertEquals("Hidden in table Pets, which does not look like it describes people (no person word in its name,"
        + " no person-name column)", weight.get(0).text());
    assertEquals(OUTSIDE_PEOPLE, weight.get(0).rule());
    assertFalse(flags("pets_1").containsKey("pets.pettype"), "a Public column is not flagged");
    assertFalse(flags("pets_1").containsKey("student.age"), "a Hidden column of a table about people is not flagged");
  }

  @Test
  @DisplayName(JOIN_ONLY_NO_KEY)
  void joinOnlyOnANonKeyIsFlagged() {
    // pets_1: Student.city_code is JoinOnly (a code), but in no key
    List<ReviewFlag> code = flags("pets_1").get("student.city_code");
    assertEquals(List.of("JoinOnly but no key: not in primary_keys or foreign_keys"),
        code.stream().map(ReviewFlag::text).toList());
    assertEquals(JOIN_ONLY_NO_KEY, code.get(0).rule());
    assertFalse(flags("pets_1").containsKey("student.stuid"), "a JoinOnly key is not flagged");
    assertFalse(flags("pets_1").containsKey("pets.pettype"), "a Public column that is no key is not flagged");
  }

  @Test
  @DisplayName(PUBLIC_KEY)
  void aPublicKeyIsFlagged() {
    // pets_1: Pets.PetID is the primary key, referenced by Has_Pet, and left Public
    List<ReviewFlag> petId = flags("pets_1").get("pets.petid");
    assertEquals(List.of("a key left Public: PK,referenced"), petId.stream().map(ReviewFlag::text).toList());
    assertEquals(PUBLIC_KEY, petId.get(0).rule());
    assertFalse(flags("pets_1").containsKey("pets.pettype"), "a Public column that is no key is not flagged");
    assertFalse(flags("pets_1").containsKey("student.stuid"), "a JoinOnly key is not flagged");
  }

  private static PolicyReview review() {
    return new PolicyReview(TestData.rules());
  }

  private static Map<String, List<ReviewFlag>> flags(String dbId) {
    return review().flags(TestData.schemas().get(dbId), TestData.autoPolicies().get(dbId));
  }
}
