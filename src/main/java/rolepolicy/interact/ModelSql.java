package rolepolicy.interact;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** SQL taken out of a model's answer, and cleaned as the recorded runs' authors cleaned it. */
public final class ModelSql {
  private ModelSql() {}

  private static final Pattern FENCED = Pattern.compile("```(?:sql|sqlite)?\\s*\\n?(.*?)```", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
  private static final Pattern SQL_START = Pattern.compile("(?i)\\b(select|with)\\b");

  /**
   * The authors' {@code clean_query}: code fences, {@code ;} and {@code """} removed, and {@code
   * SELECT } put in front when the first ten characters do not hold it.
   */
  public static String authorsClean(String text) {
    String sql = text.replace("```sql", "").replace("```", "").replace(";", "").replace("\"\"\"", "");
    String head = sql.toUpperCase(Locale.ROOT);
    if (!head.substring(0, Math.min(10, head.length())).contains("SELECT")) {
      sql = "SELECT " + sql;
    }
    return sql;
  }

  /**
   * The SQL of a model's answer: the first fenced code block if there is one, else the text from its
   * first SELECT or WITH; then cleaned as {@link #authorsClean} (a WITH query only loses its {@code ;}).
   *
   * @throws NoSqlException when the answer holds no SQL
   */
  public static String extract(String answer) {
    String text = answer == null ? "" : answer;
    Matcher fenced = FENCED.matcher(text);
    if (fenced.find()) {
      text = fenced.group(1);
    }
    Matcher start = SQL_START.matcher(text);
    if (!start.find()) {
      throw new NoSqlException(
          "the model's answer has no SQL in it: " + abbreviate(answer == null ? "" : answer.strip()));
    }
    String sql = text.substring(start.start()).strip();
    // a WITH query keeps its head: the authors' cleaning would put SELECT in front of it
    return (start.group(1).equalsIgnoreCase("with") ? sql.replace(";", "") : authorsClean(sql)).strip();
  }

  static String abbreviate(String text) {
    String line = text.replaceAll("\\s+", " ");
    return line.isEmpty() ? "(empty)" : line.length() > 200 ? line.substring(0, 200) + "…" : line;
  }

  /** A model answer with no SQL in it. */
  public static final class NoSqlException extends RuntimeException {
    public NoSqlException(String message) {
      super(message);
    }
  }
}
