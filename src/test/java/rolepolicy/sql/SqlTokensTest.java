package rolepolicy.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The lexer for text that may not parse, and the QA report's set-operation test on it. */
class SqlTokensTest {
  @Test
  void stringsAndQuotedNamesAreOneTokenEachAndAnUnterminatedOneRunsToTheEnd() {
    assertEquals(
        List.of("SELECT", "[Home (Town]", ",", "'it''s'", "FROM", "\"t"),
        SqlTokens.of("SELECT [Home (Town], 'it''s' FROM \"t").stream().map(SqlTokens.Token::text).toList());
    assertEquals("it's", SqlTokens.of("'it''s'").get(0).content());
  }

  @Test
  void onlyATopLevelSetOperationCounts() {
    assertTrue(SqlTokens.hasTopLevelSetOperation("SELECT a FROM t UNION SELECT a FROM u"));
    assertTrue(SqlTokens.hasTopLevelSetOperation("select a from t except select a from u"));
    assertTrue(SqlTokens.hasTopLevelSetOperation("SELECT [Rate (%] FROM t UNION SELECT r FROM u"));
    assertFalse(SqlTokens.hasTopLevelSetOperation("SELECT a FROM t WHERE a IN (SELECT a FROM u INTERSECT SELECT a FROM v)"));
    assertFalse(SqlTokens.hasTopLevelSetOperation("SELECT a FROM t WHERE b = 'union'"));
    assertFalse(SqlTokens.hasTopLevelSetOperation("SELECT \"union\", [except], `intersect` FROM t"));
    assertFalse(SqlTokens.hasTopLevelSetOperation("SELECT my_union FROM t"));
  }
}
