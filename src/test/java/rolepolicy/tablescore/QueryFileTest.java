package rolepolicy.tablescore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.io.InputException;

/** A UDA-Bench query file read: its queries, numbers, labels and lines, and SQL before any header refused. */
class QueryFileTest {
  @TempDir Path dir;

  @Test
  void queriesAreReadWithTheirNumberLabelAndLine() throws Exception {
    Path file = Files.writeString(dir.resolve("filter_queries.sql"), """
        -- a comment of the file

        -- Query 1: filter (people)
        SELECT name
        FROM people;;
        -- Query 1b
        -- its comment
        SELECT age FROM people WHERE age > 3 ;
        """);
    List<QueryFile.Query> queries = QueryFile.read(file);
    assertEquals(List.of(
        new QueryFile.Query(file, 1, "1", "filter (people)", "SELECT name\nFROM people", 3),
        new QueryFile.Query(file, 2, "1b", "", "SELECT age FROM people WHERE age > 3", 6)), queries);
    assertEquals(file + ": query 2 (line 6)", queries.get(1).where());
  }

  @Test
  void sqlBeforeTheFirstHeaderIsNamedByItsLine() throws Exception {
    Path file = Files.writeString(dir.resolve("agg_queries.sql"), "-- notes\n\n  SELECT 1;\n-- Query 1: agg\nSELECT 2;\n");
    InputException e = assertThrows(InputException.class, () -> QueryFile.read(file));
    assertEquals(file + ": line 3: SQL before the first '-- Query N:' line", e.getMessage());
  }
}
