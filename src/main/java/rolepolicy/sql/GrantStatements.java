package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import rolepolicy.model.Grant;

/**
 * Reads PostgreSQL {@code GRANT} statements into {@link Grant} facts (JSqlParser reads neither
 * column lists nor {@code ON SCHEMA}). The forms read:
 *
 * <pre>
 * GRANT privilege [(column, ...)] [, ...] ON [TABLE] [schema.]table [, ...] TO grantee [, ...]
 * GRANT privilege [, ...] ON ALL TABLES IN SCHEMA schema [, ...] TO grantee [, ...]
 * GRANT privilege [, ...] ON SCHEMA schema [, ...] TO grantee [, ...]
 * </pre>
 *
 * each optionally ending in {@code WITH GRANT OPTION} or {@code GRANTED BY role}. A statement's facts
 * share its place ({@link Grant#source}), which no other statement has. Only SELECT and
 * USAGE give a fact ({@code ALL [PRIVILEGES]} gives both); other privileges read nothing. Names
 * fold to lower case unless double-quoted, as PostgreSQL folds them. Any other statement, and a
 * grant of role membership, is an error naming its line.
 */
public final class GrantStatements {
  private final List<Token> tokens;
  private final String source;
  private int at;
  private int lastLine;
  private int sameLine;

  private record Token(String text, boolean quoted, int line) {
    boolean is(String word) {
      return !quoted && text.equalsIgnoreCase(word);
    }
  }

  private GrantStatements(List<Token> tokens, String source) {
    this.tokens = tokens;
    this.source = source;
  }

  /**
   * The grants of a text of {@code ;}-separated statements; {@code source} names the text in
   * errors and in each fact ({@code source:line}).
   */
  public static List<Grant> parse(String text, String source) {
    boolean bom = !text.isEmpty() && text.charAt(0) == rolepolicy.io.InputException.BOM; // a leading byte-order mark carries no text
    GrantStatements reader = new GrantStatements(tokens(bom ? text.substring(1) : text, source), source);
    List<Grant> grants = new ArrayList<>();
    while (reader.at < reader.tokens.size()) {
      if (reader.peek().is(";")) {
        reader.at++;
        continue;
      }
      reader.statement(grants);
    }
    return List.copyOf(grants);
  }

  private void statement(List<Grant> grants) {
    Token start = next();
    if (!start.is("GRANT")) {
      throw error(start, "only GRANT statements are read, not one beginning '" + start.text() + "'");
    }
    // the statement's place, which its facts share: one per statement, even several on a line
    sameLine = start.line() == lastLine ? sameLine + 1 : 1;
    lastLine = start.line();
    String where = source + ":" + start.line() + (sameLine > 1 ? " (statement " + sameLine + " of the line)" : "");
    List<String[]> privileges = new ArrayList<>(); // {privilege, column or null}
    do {
      privilege(privileges);
    } while (accept(","));
    if (at < tokens.size() && peek().is("TO")) {
      throw error(start, "GRANT role TO role (membership in a role) is not supported: grant the privileges"
          + " themselves, GRANT SELECT ... ON table TO role");
    }
    expect("ON");
    List<String[]> objects = new ArrayList<>(); // {schema, table}
    boolean schemaObjects = false;
    if (accept("SCHEMA")) {
      schemaObjects = true;
      do {
        objects.add(new String[] {name(), null});
      } while (accept(","));
    } else if (accept("ALL")) {
      expect("TABLES");
      expect("IN");
      expect("SCHEMA");
      do {
        objects.add(new String[] {name(), null});
      } while (accept(","));
    } else {
      accept("TABLE");
      do {
        String first = name();
        objects.add(accept(".") ? new String[] {first, name()} : new String[] {null, first});
      } while (accept(","));
    }
    expect("TO");
    List<String> grantees = new ArrayList<>();
    do {
      accept("GROUP");
      Token grantee = next();
      if (!grantee.quoted() && !isName(grantee.text())) {
        throw error(grantee, "expected a role name, found '" + grantee.text() + "'");
      }
      grantees.add(grantee.quoted() ? grantee.text() : grantee.text().toLowerCase(Locale.ROOT));
    } while (accept(","));
    if (accept("WITH")) {
      expect("GRANT");
      expect("OPTION");
    }
    if (accept("GRANTED")) {
      expect("BY");
      name();
    }
    if (at < tokens.size() && !peek().is(";")) {
      throw error(peek(), "expected ';' after the GRANT statement, found '" + peek().text() + "'");
    }
    for (String grantee : grantees) {
      for (String[] object : objects) {
        for (String[] privilege : privileges) {
          boolean usage = privilege[0].equals("USAGE");
          if (usage == schemaObjects) {
            grants.add(new Grant(grantee, privilege[0], object[0], object[1], privilege[1], where));
          }
        }
      }
    }
  }

  /** One privilege with its columns; SELECT, USAGE and ALL are kept, others read and dropped. */
  private void privilege(List<String[]> privileges) {
    Token word = next();
    if (!isName(word.text()) || word.quoted()) {
      throw error(word, "expected a privilege, found '" + word.text() + "'");
    }
    String privilege = word.text().toUpperCase(Locale.ROOT);
    if (privilege.equals("ALL")) {
      accept("PRIVILEGES");
    }
    List<String> columns = new ArrayList<>();
    if (accept("(")) {
      do {
        columns.add(name());
      } while (accept(","));
      expect(")");
    }
    List<String> kept =
        switch (privilege) {
          case "SELECT", "USAGE" -> List.of(privilege);
          case "ALL" -> List.of("SELECT", "USAGE");
          default -> List.of();
        };
    for (String p : kept) {
      if (columns.isEmpty()) {
        privileges.add(new String[] {p, null});
      } else {
        columns.forEach(c -> privileges.add(new String[] {p, c}));
      }
    }
  }

  /**
   * A name given as PostgreSQL reads an identifier: double-quoted, it keeps its case ({@code ""}
   * inside stands for one quote); else it is folded to lower case.
   */
  public static String identifier(String written) {
    String text = written.strip();
    if (text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")) {
      return text.substring(1, text.length() - 1).replace("\"\"", "\"");
    }
    return text.toLowerCase(Locale.ROOT);
  }

  private String name() {
    Token token = next();
    if (token.quoted()) {
      return token.text();
    }
    if (!isName(token.text())) {
      throw error(token, "expected a name, found '" + token.text() + "'");
    }
    return token.text().toLowerCase(Locale.ROOT);
  }

  private static boolean isName(String text) {
    return !text.isEmpty() && (Character.isLetter(text.charAt(0)) || text.charAt(0) == '_');
  }

  private boolean accept(String word) {
    if (at < tokens.size() && peek().is(word)) {
      at++;
      return true;
    }
    return false;
  }

  private void expect(String word) {
    Token token = next();
    if (!token.is(word)) {
      throw error(token, "expected " + word + ", found '" + token.text() + "'");
    }
  }

  private Token peek() {
    return tokens.get(at);
  }

  private Token next() {
    if (at >= tokens.size()) {
      int line = tokens.isEmpty() ? 1 : tokens.get(tokens.size() - 1).line();
      throw new SqlAnalysisException(source + ":" + line + ": the statement ends too early");
    }
    return tokens.get(at++);
  }

  private SqlAnalysisException error(Token token, String what) {
    return new SqlAnalysisException(source + ":" + token.line() + ": " + what);
  }

  /** Words, double-quoted names and the punctuation ( ) , . ; with their lines; comments skipped. */
  private static List<Token> tokens(String text, String source) {
    List<Token> tokens = new ArrayList<>();
    int line = 1;
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '\n') {
        line++;
        i++;
      } else if (Character.isWhitespace(c)) {
        i++;
      } else if (text.startsWith("--", i)) {
        while (i < text.length() && text.charAt(i) != '\n') {
          i++;
        }
      } else if (text.startsWith("/*", i)) {
        int end = text.indexOf("*/", i + 2);
        if (end < 0) {
          throw new SqlAnalysisException(source + ":" + line + ": a comment is not closed");
        }
        line += count(text, i, end, '\n');
        i = end + 2;
      } else if (c == '"') {
        StringBuilder name = new StringBuilder();
        int j = i + 1;
        while (true) {
          if (j >= text.length()) {
            throw new SqlAnalysisException(source + ":" + line + ": a quoted name is not closed");
          }
          if (text.charAt(j) == '"') {
            if (j + 1 < text.length() && text.charAt(j + 1) == '"') {
              name.append('"');
              j += 2;
              continue;
            }
            break;
          }
          name.append(text.charAt(j++));
        }
        tokens.add(new Token(name.toString(), true, line));
        line += count(text, i, j, '\n');
        i = j + 1;
      } else if ("(),.;".indexOf(c) >= 0) {
        tokens.add(new Token(String.valueOf(c), false, line));
        i++;
      } else if (Character.isLetterOrDigit(c) || c == '_' || c == '$') {
        int j = i;
        while (j < text.length()
            && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '_' || text.charAt(j) == '$')) {
          j++;
        }
        tokens.add(new Token(text.substring(i, j), false, line));
        i = j;
      } else {
        throw new SqlAnalysisException(source + ":" + line + ": unexpected character '" + c + "'");
      }
    }
    return tokens;
  }

  private static int count(String text, int from, int to, char c) {
    int n = 0;
    for (int i = from; i < to; i++) {
      if (text.charAt(i) == c) {
        n++;
      }
    }
    return n;
  }
}
