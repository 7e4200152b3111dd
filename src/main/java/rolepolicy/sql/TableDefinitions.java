package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/**
 * A schema read from {@code CREATE TABLE} statements, as Spider-AC gives them. Read leniently: its
 * statements are not always valid SQL (a column named {@code official_ratings_(millions)}, unquoted),
 * which JSqlParser rightly refuses. A column definition is a name (double-quoted, or every character
 * up to the first space) and a type; table constraints ({@code PRIMARY KEY (…)}, {@code FOREIGN KEY},
 * {@code CONSTRAINT}, {@code UNIQUE}, {@code CHECK}) are read for primary keys or skipped.
 */
public final class TableDefinitions {
  private static final Pattern CREATE =
      Pattern.compile("(?is)\\s*CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(\"(?:[^\"]|\"\")+\"|[^\\s(]+)\\s*\\((.*)\\)\\s*");
  private static final Pattern CONSTRAINT =
      Pattern.compile("(?is)(PRIMARY\\s+KEY|FOREIGN\\s+KEY|CONSTRAINT|UNIQUE|CHECK|EXCLUDE)\\b.*");
  private static final Pattern PRIMARY_KEY = Pattern.compile("(?is)PRIMARY\\s+KEY\\s*\\((.*)\\)");

  private TableDefinitions() {}

  /**
   * The schema of database {@code dbId}: its tables and columns in statement order, with their types
   * and primary keys. Anything but CREATE TABLE is an error; {@code source} names the text.
   */
  public static Schema schema(String dbId, String ddl, String source) {
    List<String> tables = new ArrayList<>();
    List<SchemaColumn> columns = new ArrayList<>();
    columns.add(new SchemaColumn(dbId, 0, "", "*", "text", false));
    Set<String> seenTables = new TreeSet<>();
    int number = 0;
    for (String statement : split(ddl, ';')) {
      if (statement.isBlank()) {
        continue;
      }
      number++;
      Matcher create = CREATE.matcher(statement);
      if (!create.matches()) {
        throw new SqlAnalysisException(source + ": statement " + number + " is not CREATE TABLE name (...): "
            + abbreviate(statement));
      }
      String table = name(create.group(1));
      int dot = table.lastIndexOf('.');
      table = create.group(1).startsWith("\"") || dot < 0 ? table : table.substring(dot + 1);
      if (!seenTables.add(table.toLowerCase(Locale.ROOT))) {
        throw new SqlAnalysisException(source + ": table " + table + " is created twice");
      }
      tables.add(table);
      List<String[]> defined = new ArrayList<>(); // {name, type, column constraints}
      Set<String> keys = new TreeSet<>();
      Set<String> seenColumns = new TreeSet<>();
      for (String definition : split(create.group(2), ',')) {
        String text = definition.strip();
        if (text.isEmpty()) {
          throw new SqlAnalysisException(source + ": table " + table + " has an empty column definition");
        }
        if (CONSTRAINT.matcher(text).matches()) {
          Matcher key = PRIMARY_KEY.matcher(text);
          if (key.find()) {
            split(key.group(1), ',').forEach(k -> keys.add(name(k.strip()).toLowerCase(Locale.ROOT)));
          }
          continue;
        }
        int end = text.startsWith("\"") ? closingQuote(text) + 1 : nameEnd(text);
        String name = name(text.substring(0, end));
        String rest = text.substring(end).strip();
        if (rest.isEmpty()) {
          throw new SqlAnalysisException(source + ": column " + table + "." + name + " has no type");
        }
        if (!seenColumns.add(name.toLowerCase(Locale.ROOT))) {
          throw new SqlAnalysisException(source + ": column " + table + "." + name + " is defined twice");
        }
        defined.add(new String[] {name, rest});
      }
      for (String[] column : defined) {
        String upper = column[1].toUpperCase(Locale.ROOT);
        int constraint = firstConstraint(upper);
        String type = column[1].substring(0, constraint).strip();
        boolean key = keys.contains(column[0].toLowerCase(Locale.ROOT)) || upper.contains("PRIMARY KEY");
        columns.add(new SchemaColumn(dbId, columns.size(), table, column[0], type, key));
      }
    }
    if (tables.isEmpty()) {
      throw new SqlAnalysisException(source + ": no CREATE TABLE statement");
    }
    return new Schema(dbId, tables, columns);
  }

  /** Where a column's constraints begin after its type (NOT NULL, DEFAULT, PRIMARY KEY, …). */
  private static int firstConstraint(String upper) {
    int first = upper.length();
    for (String word : List.of(" NOT NULL", " NULL", " DEFAULT", " PRIMARY KEY", " REFERENCES", " UNIQUE",
        " CHECK", " CONSTRAINT", " COLLATE", " GENERATED")) {
      int at = (" " + upper).indexOf(word);
      if (at >= 0) {
        first = Math.min(first, at);
      }
    }
    return first;
  }

  /** PostgreSQL's type names as Spider-AC's schema_ddl writes them, with any length, precision or array. */
  private static final Pattern TYPE = Pattern.compile("(?i)(bigint|int[248]?|integer|smallint|real|float[48]?"
      + "|double\\s+precision|numeric|decimal|text|varchar|character\\s+varying|character|char|boolean|bool|date"
      + "|time|timestamp|timestamptz|bytea|json|jsonb|uuid)(\\s*\\([\\d\\s,]*\\))?"
      + "(\\s+with(out)?\\s+time\\s+zone)?(\\s*\\[\\])?");

  /**
   * Where an unquoted column name ends: before the first word from which the rest (up to its
   * constraints) is a type name, so a name written with spaces unquoted ({@code home town text}) is
   * read whole; else at the first space.
   */
  private static int nameEnd(String text) {
    for (int i = firstSpace(text); i < text.length(); i++) {
      if (Character.isWhitespace(text.charAt(i - 1)) && !Character.isWhitespace(text.charAt(i))) {
        String rest = text.substring(i);
        String type = rest.substring(0, firstConstraint(rest.toUpperCase(Locale.ROOT))).strip();
        if (TYPE.matcher(type).matches()) {
          return text.substring(0, i).stripTrailing().length();
        }
      }
    }
    return firstSpace(text);
  }

  private static int firstSpace(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (Character.isWhitespace(text.charAt(i))) {
        return i;
      }
    }
    return text.length();
  }

  private static int closingQuote(String text) {
    for (int i = 1; i < text.length(); i++) {
      if (text.charAt(i) == '"') {
        if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
          i++;
        } else {
          return i;
        }
      }
    }
    throw new SqlAnalysisException("a quoted name is not closed: " + abbreviate(text));
  }

  /** A name as PostgreSQL reads it: a quoted one as written, any other in lower case. */
  private static String name(String written) {
    if (written.length() >= 2 && written.startsWith("\"") && written.endsWith("\"")) {
      return written.substring(1, written.length() - 1).replace("\"\"", "\"");
    }
    return written.toLowerCase(Locale.ROOT);
  }

  /** The parts of a text between separators outside parentheses, quotes and strings. */
  private static List<String> split(String text, char separator) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    char quote = 0;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        quote = c == quote ? 0 : quote;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == separator && depth == 0) {
        parts.add(text.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(text.substring(start));
    return parts;
  }

  private static String abbreviate(String text) {
    String line = text.strip().replaceAll("\\s+", " ");
    return line.length() > 80 ? line.substring(0, 77) + "..." : line;
  }
}
