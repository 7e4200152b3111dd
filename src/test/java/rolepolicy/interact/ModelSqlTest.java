package rolepolicy.interact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ModelSqlTest {
  @Test
  void authorsCleanRemovesFencesSemicolonsAndTripleQuotes() {
    assertEquals("\nSELECT a FROM t\n", ModelSql.authorsClean("```sql\nSELECT a FROM t;\n```"));
    assertEquals("SELECT a FROM t", ModelSql.authorsClean("\"\"\"SELECT a FROM t\"\"\""));
  }

  @Test
  void authorsCleanPutsSelectInFrontWhenTheFirstTenCharactersLackIt() {
    assertEquals("SELECT name FROM t", ModelSql.authorsClean("name FROM t"));
    assertEquals("  select x", ModelSql.authorsClean("  select x"), "SELECT within the first ten characters, any case");
    assertEquals("SELECT -- the answer\nSELECT x", ModelSql.authorsClean("-- the answer\nSELECT x"));
  }

  @Test
  void extractTakesTheFirstFencedBlock() {
    String answer = "Here it is:\n```sql\nSELECT count(*) FROM singer;\n```\nand an alternative:\n```sql\nSELECT 1\n```";
    assertEquals("SELECT count(*) FROM singer", ModelSql.extract(answer));
  }

  @Test
  void extractTakesTheTextFromItsFirstSelectOrWith() {
    assertEquals("SELECT name FROM singer", ModelSql.extract("The query is: SELECT name FROM singer;"));
    assertEquals("WITH t AS (SELECT 1) SELECT * FROM t", ModelSql.extract("WITH t AS (SELECT 1) SELECT * FROM t"));
  }

  @Test
  void anAnswerWithoutSqlIsAnError() {
    ModelSql.NoSqlException e = assertThrows(ModelSql.NoSqlException.class, () -> ModelSql.extract("I cannot answer that."));
    assertTrue(e.getMessage().contains("no SQL") && e.getMessage().contains("I cannot answer that."), e.getMessage());
    assertThrows(ModelSql.NoSqlException.class, () -> ModelSql.extract(""));
  }

  @Test
  void extractSkipsProseAndCommentsThatHoldTheWordWith() {
    assertEquals("SELECT a FROM t", ModelSql.extract("Sure, with pleasure: SELECT a FROM t"));
    assertEquals("SELECT a FROM t WHERE b IS NULL",
        ModelSql.extract("```sql\n-- rows with a null name\nSELECT a FROM t WHERE b IS NULL;\n```"));
    assertEquals("WITH x AS (SELECT 1 AS v) SELECT v FROM x", ModelSql.extract("Use a CTE:\nWITH x AS (SELECT 1 AS v) SELECT v FROM x;"));
  }

  @Test
  void extractDropsProseAfterTheStatement() {
    assertEquals("SELECT a FROM t", ModelSql.extract("SELECT a FROM t;\n\nThis query selects every a."));
    assertEquals("SELECT a FROM t WHERE b = 'x;y'", ModelSql.extract("SELECT a FROM t WHERE b = 'x;y'; -- done"));
  }
}
