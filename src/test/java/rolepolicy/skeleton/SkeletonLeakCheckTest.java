package rolepolicy.skeleton;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/**
 * The leak check reports what survives, on skeletons built to leak: each schema name and literal in
 * the places a skeletonizer could leave it, and nothing in a proper skeleton.
 */
class SkeletonLeakCheckTest {
  private static final Schema SCHEMA =
      new Schema(
          "leaky",
          List.of("singer", "concert"),
          List.of(
              new SchemaColumn("leaky", 0, "", "*", "text", false),
              new SchemaColumn("leaky", 1, "singer", "Singer_ID", "number", true),
              new SchemaColumn("leaky", 2, "singer", "Name", "text", false),
              new SchemaColumn("leaky", 3, "singer", "Home Town", "text", false),
              new SchemaColumn("leaky", 4, "singer", "count", "number", false),
              new SchemaColumn("leaky", 5, "concert", "From", "text", false),
              new SchemaColumn("leaky", 6, "concert", "name", "text", false)));

  private static final String ORIGINAL =
      "SELECT T1.Name FROM singer AS T1 WHERE T1.\"Home Town\" = 'France' AND T1.count > 30"
          + " ORDER BY T1.Name LIMIT 5";

  private static List<String> leaks(String skeleton) {
    return LeakCheck.leaks(skeleton, SCHEMA, ORIGINAL);
  }

  @Test
  void aProperSkeletonLeaksNothing() {
    String skeleton = new Skeletonizer().skeletonize(ORIGINAL).sql();
    assertEquals(
        "SELECT _tab1._col1 FROM _tab1 WHERE _tab1._col2 = '_str1' AND _tab1._col3 > 1"
            + " ORDER BY _tab1._col1 LIMIT 1",
        skeleton);
    assertEquals(List.of(), leaks(skeleton));
  }

  @Test
  void theOriginalItselfLeaksEverything() {
    assertEquals(
        List.of(
            "table singer",
            "column Name",
            "column Home Town",
            "column count",
            "literal 'France'",
            "literal 30",
            "literal 5"),
        leaks(ORIGINAL));
  }

  @Test
  void aTableNameLeaksAsAWordInAnyCase() {
    assertEquals(List.of("table singer"), leaks("SELECT _col1 FROM SINGER"));
    assertEquals(List.of("table concert"), leaks("SELECT _col1 FROM _tab1 JOIN concert ON 1 = 1"));
  }

  @Test
  void aColumnNameLeaksWhereverItStands() {
    assertEquals(List.of("column Name"), leaks("SELECT _tab1.name FROM _tab1"));
    assertEquals(List.of("column Name"), leaks("SELECT _col1 FROM _tab1 ORDER BY name"));
    assertEquals(List.of("column Name"), leaks("SELECT COUNT(*) AS name FROM _tab1"));
    assertEquals(
        List.of("column Singer_ID"),
        leaks("SELECT _col1 FROM _tab1 WHERE _col2 IN (SELECT singer_id FROM _tab2)"));
  }

  @Test
  void aQuotedOrSeveralWordNameLeaks() {
    assertEquals(List.of("column Home Town"), leaks("SELECT \"Home Town\" FROM _tab1"));
    assertEquals(List.of("column Home Town"), leaks("SELECT `home town` FROM _tab1"));
    assertEquals(List.of("column Home Town"), leaks("SELECT Home Town FROM _tab1"));
  }

  @Test
  void aFunctionOrReservedWordSpeltLikeANameIsNotALeak() {
    assertEquals(List.of(), leaks("SELECT COUNT(*) FROM _tab1"));
    assertEquals(List.of("column count"), leaks("SELECT count FROM _tab1"));
    assertEquals(List.of("column From"), leaks("SELECT \"From\" FROM _tab1"));
  }

  @Test
  void partOfAWordIsNotAName() {
    assertEquals(List.of(), leaks("SELECT _col1 AS singers, _name, name_2 FROM _tab1"));
  }

  @Test
  void aStringLiteralLeaksAsAStringAQuotedNameOrAWord() {
    assertEquals(
        List.of("literal 'France'"), leaks("SELECT _col1 FROM _tab1 WHERE _col2 = 'France'"));
    assertEquals(
        List.of("literal 'France'"), leaks("SELECT _col1 FROM _tab1 WHERE _col2 = \"france\""));
    assertEquals(
        List.of("literal 'France'"), leaks("SELECT _col1 FROM _tab1 WHERE _col2 = France"));
  }

  @Test
  void aNumberLeaksUnlessItIsTheSkeletonsOwn() {
    assertEquals(List.of("literal 30"), leaks("SELECT _col1 FROM _tab1 WHERE _col2 > 30.0"));
    assertEquals(List.of("literal 5"), leaks("SELECT _col1 FROM _tab1 LIMIT 5"));
    assertEquals(
        List.of(), LeakCheck.leaks("SELECT _col1 FROM _tab1 LIMIT 1", SCHEMA, "SELECT a LIMIT 1"));
  }

  @Test
  void textThatDoesNotParseIsCheckedToo() {
    assertEquals(List.of("table singer", "literal 'France'"), leaks("garbage ( singer 'France"));
  }

  @Test
  void onASpiderSchemaAHandMadeLeakIsFound() {
    Schema concertSinger = TestData.schemas().get("concert_singer");
    String original = "SELECT name FROM singer WHERE country = 'France'";
    assertEquals(
        List.of("table singer", "column Name", "literal 'France'"),
        LeakCheck.leaks("SELECT Name FROM singer WHERE _col1 = 'France'", concertSinger, original));
    assertEquals(
        List.of(),
        LeakCheck.leaks(new Skeletonizer().skeletonize(original).sql(), concertSinger, original));
  }
}
