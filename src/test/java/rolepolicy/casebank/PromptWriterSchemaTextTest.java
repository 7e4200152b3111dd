package rolepolicy.casebank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rolepolicy.Golden;
import rolepolicy.TestData;
import rolepolicy.spider.Schema;

/** The schema as a prompt shows it, in each style, on Spider's own tables.json. */
class PromptWriterSchemaTextTest {
  private static final Path GOLDEN = Path.of("src/test/resources/golden/prompts");

  /** A mix of every policy; the columns not named are Public. */
  private static final Map<String, String> CONCERT_SINGER = Map.of(
      "stadium.stadium_id", "JoinOnly", "stadium.capacity", "AggOnly",
      "singer.singer_id", "JoinOnly", "singer.age", "AggOnly", "singer.is_male", "Hidden",
      "concert.concert_id", "JoinOnly", "concert.stadium_id", "JoinOnly",
      "singer_in_concert.concert_id", "JoinOnly", "singer_in_concert.singer_id", "JoinOnly");

  private static Schema schema(String dbId) {
    return TestData.schemas().get(dbId);
  }

  @Test
  void createTableShowsTypesKeysAndEachPolicyAsAComment() throws Exception {
    String text = PromptWriter.schemaText(schema("concert_singer"), CONCERT_SINGER, SchemaStyle.CREATE_TABLE);
    Golden.check(GOLDEN.resolve("concert_singer-create-table.txt"), text + "\n", "create-table schema");
    assertTrue(text.startsWith("CREATE TABLE stadium (\n  Stadium_ID number, -- JoinOnly\n"), text);
    assertTrue(text.contains("  Capacity number, -- AggOnly\n"), text);
    assertTrue(text.contains("  Is_male others, -- Hidden\n  PRIMARY KEY (Singer_ID)\n);"), text);
    assertTrue(text.contains("  PRIMARY KEY (concert_ID),\n  FOREIGN KEY (Stadium_ID) REFERENCES stadium(Stadium_ID)\n);"), text);
    assertTrue(text.contains("  FOREIGN KEY (Singer_ID) REFERENCES singer(Singer_ID),\n"
        + "  FOREIGN KEY (concert_ID) REFERENCES concert(concert_ID)\n);"), text);
  }

  @Test
  void policiesIsOneLinePerTable() throws Exception {
    String text = PromptWriter.schemaText(schema("concert_singer"), CONCERT_SINGER, SchemaStyle.POLICIES);
    Golden.check(GOLDEN.resolve("concert_singer-policies.txt"), text + "\n", "policies schema");
    assertEquals("singer_in_concert(concert_ID JoinOnly, Singer_ID JoinOnly)", text.lines().toList().get(3));
  }

  @Test
  void namesSqliteCannotReadBareAreDoubleQuoted() throws Exception {
    String perpetrator = PromptWriter.schemaText(schema("perpetrator"), Map.of(), SchemaStyle.CREATE_TABLE);
    Golden.check(GOLDEN.resolve("perpetrator-create-table.txt"), perpetrator + "\n", "create-table schema");
    assertTrue(perpetrator.contains("  \"Home Town\" text, -- Public\n"), perpetrator);
    String aircraft = PromptWriter.schemaText(schema("aircraft"), Map.of(), SchemaStyle.CREATE_TABLE);
    assertTrue(aircraft.contains("CREATE TABLE \"match\" (\n"), aircraft); // a keyword
    assertTrue(aircraft.contains("  \"%_Change_2007\" text, -- Public\n"), aircraft);
    assertTrue(aircraft.contains("REFERENCES pilot(Pilot_Id)"), aircraft);
  }

  @Test
  void aSchemaWithoutTypesOrKeysShowsTheNamesAndPolicies() {
    Schema bare = new Schema("db", java.util.List.of("t"), java.util.List.of(
        new rolepolicy.model.SchemaColumn("db", 0, "", "*", "", false),
        new rolepolicy.model.SchemaColumn("db", 1, "t", "a", "", false),
        new rolepolicy.model.SchemaColumn("db", 2, "t", "b", "", false)));
    assertEquals("CREATE TABLE t (\n  a, -- Hidden\n  b -- Public\n);",
        PromptWriter.schemaText(bare, Map.of("t.a", "Hidden"), SchemaStyle.CREATE_TABLE));
  }
}
