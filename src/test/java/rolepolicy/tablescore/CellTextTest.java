package rolepolicy.tablescore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** A cell as text and as a number: plain notation, blanks as null, thousands separators. */
class CellTextTest {
  @Test
  void numbersAreWrittenPlainWithoutTrailingZeros() {
    assertEquals("2011", CellText.plain(2011.0));
    assertEquals("1000", CellText.plain(1E+3));
    assertEquals("525804201.3", CellText.plain(525804201.3));
    assertEquals("0", CellText.plain(-0.0));
    assertEquals("12", CellText.plain(new BigDecimal("12.000")));
    assertEquals("7", CellText.plain(7L));
    assertEquals("NaN", CellText.plain(Double.NaN));
    assertEquals("Infinity", CellText.plain(Double.POSITIVE_INFINITY));
    assertEquals("-Infinity", CellText.plain(Float.NEGATIVE_INFINITY));
  }

  @Test
  void aCellIsTextOrNull() {
    assertEquals("2.5", CellText.text(2.50));
    assertEquals("Ann", CellText.text("  Ann "));
    assertNull(CellText.text("   "));
    assertNull(CellText.text(null));
  }

  @Test
  void aCellIsANumberWhenItIsOne() {
    assertEquals(3.0, CellText.number(3));
    assertEquals(1234567.5, CellText.number("1,234,567.5"));
    assertNull(CellText.number(null));
    assertNull(CellText.number(" "));
  }
}
