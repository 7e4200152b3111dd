package rolepolicy.casebank;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import rolepolicy.model.SchemaColumn;
import rolepolicy.skeleton.LeakCheck;
import rolepolicy.spider.Schema;

/**
 * Masks a question as DAIL-SQL's masked question selection does: words naming a table or column of
 * its database become {@code <mask>}, values (quoted text, numbers, and for a case of the bank the
 * literals of its SQL) become {@code <unk>}.
 */
public final class QuestionMasker {
  public static final String MASK = "<mask>";
  public static final String UNKNOWN = "<unk>";

  /** A quoted value, a number, or a word; anything else is kept as it stands. */
  private static final Pattern TOKEN = Pattern.compile(
      "(\"[^\"]*\"|(?<![\\p{L}\\p{N}])'[^']+'(?![\\p{L}\\p{N}])|“[^”]*”)|(\\b\\d+(?:[.,]\\d+)*\\b)|(?<word>[\\p{L}\\p{N}_]+)");

  private QuestionMasker() {}

  /** Words that name nothing by themselves, though a name may hold them ({@code is_male}, {@code singer_in_concert}). */
  private static final Set<String> STOP_WORDS = LeakCheck.FUNCTION_WORDS;

  /**
   * The words of the schema's table and column names (names split at underscores), lower-cased,
   * without stop words.
   */
  static Set<String> schemaWords(Schema schema) {
    synchronized (SCHEMA_WORDS) {
      return SCHEMA_WORDS.computeIfAbsent(schema, QuestionMasker::wordsOf);
    }
  }

  /** The words of each schema met, computed once per schema (7,000 cases have 140 databases). */
  private static final Map<Schema, Set<String>> SCHEMA_WORDS = new WeakHashMap<>();

  private static Set<String> wordsOf(Schema schema) {
    Set<String> words = new HashSet<>();
    for (String table : schema.tables()) {
      addWords(table, words);
    }
    for (SchemaColumn column : schema.realColumns()) {
      addWords(column.name(), words);
    }
    return Set.copyOf(words);
  }

  private static void addWords(String name, Set<String> into) {
    for (String part : name.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (part.length() > 1 && !STOP_WORDS.contains(part)) {
        into.add(part);
      }
    }
  }

  /** A question of the database: its schema's names masked, and values as it writes them. */
  public static String mask(String question, Schema schema) {
    return mask(question, schemaWords(schema), List.of());
  }

  /**
   * A case's question: as {@link #mask(String, Schema)}, and the literals of its SQL ({@code 'France'},
   * {@code "%Kennedy%"}, {@code 56}) masked wherever the question writes them, as whole words.
   */
  public static String mask(String question, Schema schema, String sql) {
    return mask(question, schemaWords(schema), LeakCheck.literalTexts(sql));
  }

  /** A question of the database with the phrases linked to its cell values ({@link ValueLinker}) masked as values too. */
  public static String mask(String question, Schema schema, List<String> values) {
    return mask(question, schemaWords(schema), values);
  }

  static String mask(String question, Set<String> schemaWords) {
    return mask(question, schemaWords, List.of());
  }

  private static String mask(String question, Set<String> schemaWords, List<String> literals) {
    Matcher m = withLiterals(literals).matcher(question);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement;
      if (m.group("word") == null) {
        replacement = UNKNOWN;
      } else {
        replacement = isSchemaWord(m.group("word").toLowerCase(Locale.ROOT), schemaWords) ? MASK : m.group("word");
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }

  /**
   * A word of the schema, its plural, or a raw name such as {@code course_id} whose every part is
   * one (function words aside).
   */
  private static boolean isSchemaWord(String word, Set<String> schemaWords) {
    if (schemaWords.contains(word) || schemaWords.contains(singular(word))) {
      return true;
    }
    boolean named = false;
    for (String part : word.split("_")) {
      if (part.length() > 1 && !STOP_WORDS.contains(part)) {
        if (!schemaWords.contains(part) && !schemaWords.contains(singular(part))) {
          return false;
        }
        named = true;
      }
    }
    return named && word.contains("_");
  }

  /**
   * The token pattern with the literals first, longest first, each a whole phrase: case-insensitive,
   * but a one-character literal ({@code 'F'}) only as written, so that it does not mask the word "a".
   */
  private static Pattern withLiterals(List<String> literals) {
    if (literals.isEmpty()) {
      return TOKEN;
    }
    List<String> sorted = new ArrayList<>(new TreeSet<>(literals));
    sorted.sort(Comparator.comparingInt(String::length).reversed());
    StringBuilder alternatives = new StringBuilder();
    for (String literal : sorted) {
      alternatives.append(alternatives.length() == 0 ? "" : "|")
          .append(literal.length() == 1 ? "" : "(?iu:").append(Pattern.quote(literal)).append(literal.length() == 1 ? "" : ")");
    }
    return Pattern.compile("(?<![\\p{L}\\p{N}_])(?:" + alternatives + ")(?![\\p{L}\\p{N}_])|" + TOKEN.pattern());
  }

  /** A plural's singular, crudely: "singers" → "singer", "countries" → "country". */
  private static String singular(String word) {
    if (word.endsWith("ies") && word.length() > 4) {
      return word.substring(0, word.length() - 3) + "y";
    }
    if (word.endsWith("es") && word.length() > 3 && (word.endsWith("ses") || word.endsWith("xes"))) {
      return word.substring(0, word.length() - 2);
    }
    return word.endsWith("s") && word.length() > 2 ? word.substring(0, word.length() - 1) : word;
  }
}
