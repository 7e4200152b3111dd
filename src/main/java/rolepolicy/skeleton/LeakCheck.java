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
import rolepolicy.sql.SqlTokens;

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

  /**
   * Words that name nothing by themselves, though a name may hold them ({@code is_male}, {@code
   * singer_in_concert}, railway's {@code From}): a name made of these alone is grammar in a question.
   */
  public static final Set<String> FUNCTION_WORDS = Set.of(
      "a", "an", "and", "are", "as", "at", "be", "by", "do", "for", "from", "has", "have", "in", "is", "it", "of",
      "on", "or", "the", "to", "was", "were", "what", "which", "who", "with");

  /** What stands beside a word in a question without being part of it. */
  private static final String QUESTION_WORD_CHAR = "[\\p{L}\\p{N}_]";

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

  /**
   * The values a query writes, as a question would: each string's content without the {@code %}
   * and {@code _} wildcards at its ends and without surrounding spaces, and each number; empty ones
   * left out, in the order written, once each.
   */
  public static List<String> literalTexts(String sql) {
    Set<String> texts = new LinkedHashSet<>();
    for (SqlTokens.Token token : SqlTokens.of(sql)) {
      if (token.type() == SqlTokens.Type.STRING || token.isDoubleQuoted()) {
        String value = token.content().replaceAll("^[%_\\s]+|[%_\\s]+$", "");
        if (!value.isEmpty()) {
          texts.add(value);
        }
      } else if (token.type() == SqlTokens.Type.NUMBER) {
        texts.add(token.text());
      }
    }
    return List.copyOf(texts);
  }

  /**
   * What of a schema and of a query survives in a masked question (docs/retrieval.md, "Leaks of
   * a masked question"): {@code table singer}, {@code column course_id}, {@code literal France},
   * each found as a whole word or phrase, case-insensitively.
   *
   * <ul>
   *   <li>a table or column name, as written ({@code course_id}) or with underscores as spaces
   *       ({@code course id}), unless each of its words is a function word or a single character;
   *   <li>a literal of the query ({@link #literalTexts}; a string's double quotes as a name's when
   *       the schema has that name); one of one character only as written ({@code F}, not "a").
   * </ul>
   */
  public static List<String> questionLeaks(String question, Schema schema, String sql) {
    Set<String> leaks = new LinkedHashSet<>();
    Set<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    for (String table : schema.tables()) {
      if (names.add(table) && namedIn(question, table)) {
        leaks.add("table " + table);
      }
    }
    for (SchemaColumn column : schema.realColumns()) {
      if (names.add(column.name()) && namedIn(question, column.name())) {
        leaks.add("column " + column.name());
      }
    }
    for (String literal : literalTexts(sql)) {
      if (!names.contains(literal) && phraseIn(question, literal, literal.length() > 1)) {
        leaks.add("literal " + literal);
      }
    }
    return List.copyOf(leaks);
  }

  private static boolean namedIn(String question, String name) {
    boolean grammarOnly = true;
    for (String word : name.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      grammarOnly &= word.length() <= 1 || FUNCTION_WORDS.contains(word);
    }
    return !grammarOnly && (phraseIn(question, name, true) || phraseIn(question, name.replace('_', ' '), true));
  }

  private static boolean phraseIn(String text, String phrase, boolean ignoreCase) {
    int flags = ignoreCase ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0;
    return Pattern.compile("(?<!" + QUESTION_WORD_CHAR + ")" + Pattern.quote(phrase) + "(?!" + QUESTION_WORD_CHAR + ")",
        flags).matcher(text).find();
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
