package rolepolicy.skeleton;

import java.math.BigDecimal;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/**
 * Finds what of a schema and of the original query survives in a skeleton (docs/skeleton.md, "Leak
 * check"). It reads the skeleton as tokens, not as a parse tree, so it checks any text, even one
 * that does not parse, and does not depend on the {@link Skeletonizer} it checks.
 *
 * <p>A name (a table or column of the schema, or a string of the original) survives when the
 * skeleton holds it, case-insensitively, as a whole token: a string's content, a quoted name, or a
 * bare word — except a word SQLite reserves (it cannot be a bare name there, so it is syntax) and a
 * word followed by {@code (} (a function). A name of several words is looked for as a whole,
 * between word boundaries, outside strings and quoted names. A number of the original survives when
 * the skeleton holds a number of the same value that is not one of the skeleton's own numbers
 * ({@code 1} and {@code 1.0}: an original 1 in their place cannot be told from them and reveals
 * nothing).
 */
public final class LeakCheck {
  /**
   * The SQL words SQLite reserves: they are never bare names, so a schema name spelt like one
   * (railway's {@code From}) is found only when quoted.
   */
  static final Set<String> RESERVED =
      Set.of(
          ("all and as between case collate distinct else escape except exists from group having"
                  + " in intersect into is isnull join limit not notnull null on or order select"
                  + " set table then union using values when where")
              .split(" "));

  private static final Pattern ONE_WORD = Pattern.compile(SqlTokens.WORD_CHAR + "+");

  private LeakCheck() {}

  /**
   * Every table and column name of the schema, and every literal of the original query, that
   * survives in the skeleton, in that order: {@code table singer}, {@code column Name}, {@code
   * literal 'France'}, {@code literal 20}. Empty when nothing does.
   */
  public static List<String> leaks(String skeleton, Schema schema, String originalSql) {
    Skeletal text = new Skeletal(skeleton);
    Set<String> leaks = new LinkedHashSet<>();
    Set<String> schemaNames = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    for (String table : schema.tables()) {
      if (schemaNames.add(table) && text.holds(table)) {
        leaks.add("table " + table);
      }
    }
    for (SchemaColumn column : schema.realColumns()) {
      // a name met before (another table's column or a table, in any case) is checked once
      if (schemaNames.add(column.name()) && text.holds(column.name())) {
        leaks.add("column " + column.name());
      }
    }
    for (SqlTokens.Token literal : SqlTokens.of(originalSql)) {
      boolean isString =
          literal.type() == SqlTokens.Type.STRING
              || (literal.isDoubleQuoted() && !schemaNames.contains(literal.content()));
      if (isString && !literal.content().isEmpty() && text.holds(literal.content())) {
        leaks.add("literal " + literal.text());
      } else if (literal.type() == SqlTokens.Type.NUMBER && text.holdsNumber(literal.text())) {
        leaks.add("literal " + literal.text());
      }
    }
    return List.copyOf(leaks);
  }

  /** A skeleton's tokens, and its text with strings and quoted names blanked out. */
  private static final class Skeletal {
    private final List<SqlTokens.Token> tokens;
    private final String bare;

    Skeletal(String skeleton) {
      tokens = SqlTokens.of(skeleton);
      bare = SqlTokens.withoutQuotes(skeleton);
    }

    boolean holds(String name) {
      for (int i = 0; i < tokens.size(); i++) {
        SqlTokens.Token token = tokens.get(i);
        boolean quoted =
            token.type() == SqlTokens.Type.STRING || token.type() == SqlTokens.Type.QUOTED;
        if (quoted && token.content().equalsIgnoreCase(name)) {
          return true;
        }
        if (token.type() == SqlTokens.Type.WORD
            && token.text().equalsIgnoreCase(name)
            && !RESERVED.contains(name.toLowerCase(Locale.ROOT))
            && !(i + 1 < tokens.size() && tokens.get(i + 1).text().equals("("))) {
          return true;
        }
      }
      if (ONE_WORD.matcher(name).matches()) {
        return false;
      }
      Pattern whole =
          Pattern.compile(
              "(?<!"
                  + SqlTokens.WORD_CHAR
                  + ")"
                  + Pattern.quote(name)
                  + "(?!"
                  + SqlTokens.WORD_CHAR
                  + ")",
              Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
      return whole.matcher(bare).find();
    }

    /** Whether a number of the same value stands in the skeleton, other than its own numbers. */
    boolean holdsNumber(String number) {
      BigDecimal value = new BigDecimal(number);
      for (SqlTokens.Token token : tokens) {
        if (token.type() == SqlTokens.Type.NUMBER
            && !token.text().equals(Placeholders.WHOLE_NUMBER)
            && !token.text().equals(Placeholders.DECIMAL_NUMBER)
            && new BigDecimal(token.text()).compareTo(value) == 0) {
          return true;
        }
      }
      return false;
    }
  }
}
