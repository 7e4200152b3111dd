package rolepolicy.interact;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** SQL taken out of a model's answer, and cleaned as the recorded runs' authors cleaned it. */
public final class ModelSql {
  private ModelSql() {}

  private static final Pattern FENCED = Pattern.compile("```(?:sql|sqlite)?\\s*\\n?(.*?)```", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
  /** SQL's start: SELECT or a WITH that opens a common table expression, best at the start of a line. */
  private static final Pattern LINE_START = Pattern.compile("(?im)^[ \\t]*(select\\b|with\\s+(?:recursive\\s+)?[\\w\"`]+\\s*(?:\\([^)]*\\)\\s*)?as\\s*\\()");
  private static final Pattern ANY_START = Pattern.compile("(?i)\\b(select\\b|with\\s+(?:recursive\\s+)?[\\w\"`]+\\s*(?:\\([^)]*\\)\\s*)?as\\s*\\()");

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
   * The SQL of a model's answer: within the first fenced code block if there is one, the first
   * statement that starts with SELECT or a WITH … AS ( — at the start of a line if any does, else
   * anywhere — up to its first {@code ;} outside quotes. (It starts with SELECT or WITH, so the
   * authors' cleaning has nothing left to do, and a {@code ;} inside a string stays.)
   *
   * @throws NoSqlException when the answer holds no SQL
   */
  public static String extract(String answer) {
    String text = answer == null ? "" : answer;
    Matcher fenced = FENCED.matcher(text);
    if (fenced.find()) {
      text = fenced.group(1);
    }
    Matcher start = LINE_START.matcher(text);
    if (!start.find()) {
      start = ANY_START.matcher(text);
      if (!start.find()) {
        throw new NoSqlException(
            "the model's answer has no SQL in it: " + abbreviate(answer == null ? "" : answer.strip()));
      }
    }
    return firstStatement(text.substring(start.start(1))).strip();
  }

  /** The text up to its first {@code ;} outside quotes: prose after the statement is dropped. */
  static String firstStatement(String text) {
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (quote != 0) {
        quote = ch == quote ? 0 : quote;
      } else if (ch == '\'' || ch == '"' || ch == '`') {
        quote = ch;
      } else if (ch == ';') {
        return text.substring(0, i);
      }
    }
    return text;
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
