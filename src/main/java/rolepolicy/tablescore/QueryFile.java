package rolepolicy.tablescore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import rolepolicy.io.InputException;

/** The statements of one UDA-Bench {@code .sql} file, each after its {@code -- Query N: label} line. */
public final class QueryFile {
  private QueryFile() {}

  /**
   * One statement.
   *
   * @param ordinal its place in the file, from 1: the name of its output folder (the numbers in
   *     the {@code -- Query N} lines restart in some files)
   * @param number the N of its {@code -- Query N} line, as written
   * @param label the text after the colon
   * @param line the line of its {@code -- Query} comment
   * @param extra what follows the statement's ';' before the next {@code -- Query} line (another
   *     statement, or garbage), with its line, for the message of a query left out; null when nothing
   */
  public record Query(Path file, int ordinal, String number, String label, String sql, int line, String extra) {
    public Query(Path file, int ordinal, String number, String label, String sql, int line) {
      this(file, ordinal, number, label, sql, line, null);
    }

    /** File and query, for messages. */
    public String where() {
      return file + ": query " + ordinal + " (line " + line + ")";
    }
  }

  private static final Pattern HEADER = Pattern.compile("--\\s*Query\\s+([^:\\s]+)\\s*:?\\s*(.*)");

  public static List<Query> read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new InputException(file + ": cannot read (" + InputException.reason(file, e) + ")", e);
    }
    List<Query> queries = new ArrayList<>();
    String number = null;
    String label = null;
    int line = 0;
    StringBuilder sql = new StringBuilder();
    Statement statement = new Statement();
    for (int i = 0; i <= lines.size(); i++) {
      String text = i < lines.size() ? lines.get(i).strip() : null;
      Matcher header = text == null ? null : HEADER.matcher(text);
      if (text == null || header.matches()) {
        if (number != null) {
          queries.add(new Query(file, queries.size() + 1, number, label, statement(sql), line, statement.extra));
        } else if (!sql.toString().isBlank()) {
          throw new InputException(file + ": line " + firstStatementLine(lines)
              + ": SQL before the first '-- Query N:' line");
        }
        if (header != null) {
          number = header.group(1);
          label = header.group(2).strip();
          line = i + 1;
          sql.setLength(0);
          statement = new Statement();
        }
      } else if (!text.startsWith("--")) {
        sql.append(text).append('\n');
        statement.scan(text, i + 1);
      }
    }
    return queries;
  }

  /** Where a statement ends (its first ';' outside quotes) and what text, if any, follows it. */
  private static final class Statement {
    private char quote;
    private boolean ended;
    private String extra;

    void scan(String text, int lineNumber) {
      for (int i = 0; i < text.length() && extra == null; i++) {
        char c = text.charAt(i);
        if (quote != 0) {
          quote = c == quote ? 0 : quote;
        } else if (c == '\'' || c == '"') {
          quote = c;
        } else if (c == '-' && i + 1 < text.length() && text.charAt(i + 1) == '-') {
          return; // a comment to the end of the line
        } else if (c == ';') {
          ended = true;
        } else if (ended && !Character.isWhitespace(c)) {
          String rest = text.substring(i);
          extra = "line " + lineNumber + ": text after the statement's ';' ('"
              + (rest.length() > 40 ? rest.substring(0, 40) + "…" : rest)
              + "'): one statement per '-- Query N:' line";
        }
      }
    }
  }

  private static String statement(StringBuilder sql) {
    String s = sql.toString().strip();
    while (s.endsWith(";")) {
      s = s.substring(0, s.length() - 1).strip();
    }
    return s;
  }

  private static int firstStatementLine(List<String> lines) {
    for (int i = 0; i < lines.size(); i++) {
      String t = lines.get(i).strip();
      if (!t.isEmpty() && !t.startsWith("--")) {
        return i + 1;
      }
    }
    return 1;
  }
}
