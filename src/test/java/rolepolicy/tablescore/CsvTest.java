package rolepolicy.tablescore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A result file that is not a whole table is named with its line; a whole one passes. */
class CsvTest {
  @TempDir Path dir;

  private String ragged(String text) throws Exception {
    Path file = dir.resolve("result.csv");
    Files.writeString(file, text);
    return Csv.raggedRow(file);
  }

  @Test
  void aWholeTableWithABlankLastLinePasses() throws Exception {
    assertNull(ragged("a,b,c\n1,2,3\n4,5,6\n"));
    assertNull(ragged("a,b,c\n1,2,3\n\n"));
  }

  @Test
  void aRowCutShortIsNamedWithItsLineAndItsFields() throws Exception {
    assertEquals("line 3 has 2 fields, the header 3 (is the file cut short?)", ragged("a,b,c\n1,2,3\n4,5\n"));
    assertEquals("line 2 has 1 field, the header 3 (is the file cut short?)", ragged("a,b,c\n7\n1,2,3\n"));
    assertEquals("line 2 has 4 fields, the header 3 (is the file cut short?)", ragged("a,b,c\n1,2,3,4\n"));
  }

  @Test
  void aQuoteLeftOpenIsNamedWithTheLineItStarts() throws Exception {
    String why = ragged("a,b\n1,2\n3,\"open\n");
    assertTrue(why != null && why.startsWith("line 3: "), why);
  }
}
