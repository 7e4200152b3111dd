package rolepolicy.tablescore;

import java.math.BigDecimal;
import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The normal forms cells are compared in: text, numbers, partial dates and matching keys. */
public final class CellText {
  private CellText() {}

  private static final Pattern THOUSANDS = Pattern.compile("[-+]?\\d{1,3}(,\\d{3})+(\\.\\d+)?");
  private static final Pattern NUMBER = Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");
  private static final Pattern NOT_WORD = Pattern.compile("[\\p{P}\\p{S}\\s]+");
  private static final Pattern APOSTROPHE = Pattern.compile("['\u2019\u02bc]");

  /** The cell as text: numbers in plain notation without trailing zeros; null for null or blank. */
  public static String text(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof Number number) {
      return plain(number);
    }
    String s = value.toString().strip();
    return s.isEmpty() ? null : s;
  }

  /** The cell as a number: a numeric value, or text that is one number (thousands separators allowed). */
  public static Double number(Object value) {
    if (value instanceof Number number) {
      return number.doubleValue();
    }
    String s = text(value);
    if (s == null) {
      return null;
    }
    if (THOUSANDS.matcher(s).matches()) {
      s = s.replace(",", "");
    }
    return NUMBER.matcher(s).matches() ? Double.valueOf(new BigDecimal(s).doubleValue()) : null;
  }

  /**
   * Text compared without case, punctuation, symbols or runs of white space (NFKC first):
   * apostrophes vanish ({@code George's} → {@code georges}), other marks part words.
   */
  public static String words(String text) {
    String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    s = APOSTROPHE.matcher(s).replaceAll("");
    return NOT_WORD.matcher(s).replaceAll(" ").strip();
  }

  /** The form rows are matched on: equal for the same number or the same words. */
  public static String key(Object value) {
    Double n = number(value);
    if (n != null) {
      return "n:" + plain(n);
    }
    String s = text(value);
    return s == null ? "\u0000null" : "s:" + words(s);
  }

  /**
   * Exact identity, as execution match compares values: numbers by value ({@code 1} equals
   * {@code 1.0}), the rest as text, NULL equal to NULL only.
   */
  public static String exact(Object value) {
    if (value == null) {
      return "\u0000NULL";
    } else if (value instanceof Number number) {
      double d = number.doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        return "n:" + d;
      }
      return "n:" + new BigDecimal(number.toString()).stripTrailingZeros().toPlainString();
    } else if (value instanceof byte[] bytes) {
      return "b:" + java.util.HexFormat.of().formatHex(bytes);
    }
    return "s:" + value;
  }

  /** A number in plain notation: 2011.0 → 2011, 1E+3 → 1000. */
  public static String plain(Number number) {
    double d = number.doubleValue();
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return Double.toString(d);
    }
    BigDecimal exact = number instanceof Double || number instanceof Float
        ? BigDecimal.valueOf(d) : new BigDecimal(number.toString());
    String s = exact.stripTrailingZeros().toPlainString();
    return s.equals("-0") ? "0" : s;
  }

  /** A date with year, and month and day where given (0 when absent). */
  public record PartialDate(int year, int month, int day) {}

  private static final Pattern NUMERIC_DATE =
      Pattern.compile("(\\d{4})[-/.](\\d{1,2})(?:[-/.](\\d{1,2}))?");
  private static final Pattern DAY_FIRST = Pattern.compile("(\\d{1,2})\\s+([a-z]+)\\.?,?\\s+(\\d{4})");
  private static final Pattern MONTH_FIRST =
      Pattern.compile("([a-z]+)\\.?(?:\\s+(\\d{1,2})(?:st|nd|rd|th)?)?,?\\s+(\\d{4})");
  private static final String[] MONTHS = {
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"
  };

  /**
   * Reads the date forms the attribute descriptions name: {@code 1839/1/9}, {@code 1993/4},
   * {@code 1839-01-09}, {@code 9 January 1839}, {@code January 9, 1839}, {@code Jan 1839}.
   */
  public static PartialDate date(String text) {
    if (text == null) {
      return null;
    }
    String s = text.strip().toLowerCase(Locale.ROOT);
    Matcher m = NUMERIC_DATE.matcher(s);
    if (m.matches()) {
      return valid(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
          m.group(3) == null ? 0 : Integer.parseInt(m.group(3)));
    }
    m = DAY_FIRST.matcher(s);
    if (m.matches()) {
      return valid(Integer.parseInt(m.group(3)), month(m.group(2)), Integer.parseInt(m.group(1)));
    }
    m = MONTH_FIRST.matcher(s);
    if (m.matches()) {
      return valid(Integer.parseInt(m.group(3)), month(m.group(1)),
          m.group(2) == null ? 0 : Integer.parseInt(m.group(2)));
    }
    return null;
  }

  private static int month(String name) {
    if (name.length() < 3) {
      return -1;
    }
    for (int i = 0; i < MONTHS.length; i++) {
      if (name.startsWith(MONTHS[i])) {
        return i + 1;
      }
    }
    return -1;
  }

  private static PartialDate valid(int year, int month, int day) {
    if (month < 1 || month > 12 || day < 0 || day > 31) {
      return null;
    }
    return new PartialDate(year, month, day);
  }
}
