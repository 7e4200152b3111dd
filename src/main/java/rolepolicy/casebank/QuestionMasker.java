package rolepolicy.casebank;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/**
 * Masks a question as DAIL-SQL's masked question selection does: words naming a table or column of
 * its database become {@code <mask>}, values (quoted text, numbers) become {@code <unk>}.
 */
public final class QuestionMasker {
  public static final String MASK = "<mask>";
  public static final String UNKNOWN = "<unk>";

  /** A quoted value, a number, or a word; anything else is kept as it stands. */
  private static final Pattern TOKEN = Pattern.compile(
      "(\"[^\"]*\"|(?<![\\p{L}\\p{N}])'[^']+'(?![\\p{L}\\p{N}])|“[^”]*”)|(\\b\\d+(?:[.,]\\d+)*\\b)|([\\p{L}\\p{N}_]+)");

  private QuestionMasker() {}

  /** Words that name nothing by themselves, though a name may hold them ({@code is_male}, {@code singer_in_concert}). */
  private static final Set<String> STOP_WORDS = Set.of(
      "a", "an", "and", "are", "as", "at", "be", "by", "do", "for", "from", "has", "have", "in", "is", "it", "of",
      "on", "or", "the", "to", "was", "were", "what", "which", "who", "with");

  /**
   * The words of the schema's table and column names (names split at underscores), lower-cased,
   * without stop words.
   */
  static Set<String> schemaWords(Schema schema) {
    Set<String> words = new HashSet<>();
    for (String table : schema.tables()) {
      addWords(table, words);
    }
    for (SchemaColumn column : schema.realColumns()) {
      addWords(column.name(), words);
    }
    return words;
  }

  private static void addWords(String name, Set<String> into) {
    for (String part : name.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (part.length() > 1 && !STOP_WORDS.contains(part)) {
        into.add(part);
      }
    }
  }

  public static String mask(String question, Schema schema) {
    return mask(question, schemaWords(schema));
  }

  static String mask(String question, Set<String> schemaWords) {
    Matcher m = TOKEN.matcher(question);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement;
      if (m.group(3) == null) {
        replacement = UNKNOWN;
      } else {
        String word = m.group(3).toLowerCase(Locale.ROOT);
        replacement = schemaWords.contains(word) || schemaWords.contains(singular(word)) ? MASK : m.group(3);
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
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
