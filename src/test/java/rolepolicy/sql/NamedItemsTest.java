package rolepolicy.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class NamedItemsTest {
  /** The texts of the named items without alias, in text order. */
  private static List<String> named(String sql) {
    return NamedItems.unaliased(sql).stream()
        .sorted((a, b) -> Integer.compare(a.start(), b.start()))
        .map(span -> span.text(sql))
        .toList();
  }

  @Test
  void fromSubqueriesAtAnyDepthAndInEveryClauseNameTheirItems() {
    assertEquals(
        List.of("Name", "Country", "Year", "Price", "Email", "Age", "Capacity"),
        named(
            "SELECT a.Name FROM (SELECT Name, *, Age AS x, T.* FROM singer AS T) AS a"
                + " JOIN ((SELECT Country FROM singer) AS b JOIN concert"
                + " ON 1 = (SELECT count(*) FROM (SELECT Year FROM concert))) ON a.Name = b.Country"
                + " WHERE a.Name IN (SELECT Name FROM singer)"
                + " GROUP BY (SELECT 1 FROM (SELECT Price FROM singer))"
                + " HAVING count(*) > (SELECT count(*) FROM (SELECT Email FROM singer))"
                + " ORDER BY (SELECT max(Age) FROM (SELECT Age FROM singer))"
                + " LIMIT 1 OFFSET (SELECT count(*) FROM (SELECT Capacity FROM stadium))"));
  }

  @Test
  void commonTablesNameTheirFirstPartsItemsUnlessAColumnListDoes() {
    assertEquals(
        List.of("Name"),
        named(
            "WITH c AS (SELECT Name FROM singer UNION SELECT Country FROM singer),"
                + " d(n) AS (SELECT Age FROM singer) SELECT Name FROM c"));
    assertEquals(
        List.of("Theme"),
        named("SELECT x FROM ((SELECT Theme FROM concert) EXCEPT SELECT Name FROM singer)"));
  }

  @Test
  void theTopLevelQueryAndOperandQueriesNameNothing() {
    assertEquals(
        List.of(),
        named(
            "SELECT Name FROM singer WHERE Age > (SELECT avg(Age) FROM singer)"
                + " UNION SELECT Name FROM stadium"));
  }
}
