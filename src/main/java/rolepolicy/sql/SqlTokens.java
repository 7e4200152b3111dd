package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits SQL text into tokens without parsing it, so that text no parser reads can be checked too
 * (the skeleton's leak check, the QA report). An unterminated quote runs to the end of the text.
 */
public final class SqlTokens {
  public enum Type {
    /** {@code 'text'}: content is the text, {@code ''} read as one quote. */
    STRING,
    /** {@code "name"}, {@code `name`} or {@code [name]}: content is the name. */
    QUOTED,
    WORD,
    NUMBER,
    OTHER
  }

  /**
   * One token.
   *
   * @param text as written
   * @param content a string's or quoted name's content; else the text
   */
  public record Token(Type type, String text, String content) {
    public boolean isDoubleQuoted() {
      return type == Type.QUOTED && text.startsWith("\"");
    }
  }

  /** What may stand beside a word in SQL without being part of it. */
  public static final String WORD_CHAR = "[\\p{L}\\p{N}_$]";

  private static final Pattern TOKEN =
      Pattern.compile(
          "(?<string>'(?:[^']|'')*+'?)"
              + "|(?<quoted>\"(?:[^\"]|\"\")*+\"?|`[^`]*+`?|\\[[^\\]]*+\\]?)"
              + "|(?<number>(?:\\d++(?:\\.\\d*+)?+|\\.\\d++)(?:[eE][+-]?\\d++)?+(?!"
              + WORD_CHAR
              + "))"
              + "|(?<word>"
              + WORD_CHAR
              + "++)"
              + "|(?<space>\\s++)"
              + "|(?<other>.)",
          Pattern.DOTALL);

  private SqlTokens() {}

  /** The tokens of a text, spaces left out. */
  public static List<Token> of(String text) {
    List<Token> tokens = new ArrayList<>();
    Matcher m = TOKEN.matcher(text);
    while (m.find()) {
      if (m.group("string") != null) {
        tokens.add(new Token(Type.STRING, m.group(), unquote(m.group(), '\'')));
      } else if (m.group("quoted") != null) {
        char open = m.group().charAt(0);
        tokens.add(new Token(Type.QUOTED, m.group(), unquote(m.group(), open == '[' ? ']' : open)));
      } else if (m.group("number") != null) {
        tokens.add(new Token(Type.NUMBER, m.group(), m.group()));
      } else if (m.group("word") != null) {
        tokens.add(new Token(Type.WORD, m.group(), m.group()));
      } else if (m.group("other") != null) {
        tokens.add(new Token(Type.OTHER, m.group(), m.group()));
      }
    }
    return tokens;
  }

  /** The text with every string and quoted name blanked out (replaced by as many spaces). */
  public static String withoutQuotes(String text) {
    StringBuilder bare = new StringBuilder(text.length());
    Matcher m = TOKEN.matcher(text);
    while (m.find()) {
      boolean quoted = m.group("string") != null || m.group("quoted") != null;
      bare.append(quoted ? " ".repeat(m.group().length()) : m.group());
    }
    return bare.toString();
  }

  private static final Set<String> SET_OPERATORS = Set.of("INTERSECT", "UNION", "EXCEPT");

  /**
   * Whether INTERSECT, UNION or EXCEPT stands outside every parenthesis, string and quoted name,
   * that is, joins the top-level query to another.
   */
  public static boolean hasTopLevelSetOperation(String sql) {
    int depth = 0;
    for (Token token : of(sql)) {
      if (token.type() == Type.OTHER && token.text().equals("(")) {
        depth++;
      } else if (token.type() == Type.OTHER && token.text().equals(")")) {
        depth--;
      } else if (depth == 0
          && token.type() == Type.WORD
          && SET_OPERATORS.contains(token.text().toUpperCase(Locale.ROOT))) {
        return true;
      }
    }
    return false;
  }

  /** The content between the quotes; a doubled closing quote inside stands for one. */
  private static String unquote(String quoted, char close) {
    int end =
        quoted.length() > 1 && quoted.charAt(quoted.length() - 1) == close
            ? quoted.length() - 1
            : quoted.length();
    String content = quoted.substring(1, end);
    return close == '\'' || close == '"'
        ? content.replace(String.valueOf(close) + close, String.valueOf(close))
        : content;
  }
}
