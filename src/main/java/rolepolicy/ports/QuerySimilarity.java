package rolepolicy.ports;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/**
 * DAIL-SQL's query similarity (Gao et al., VLDB 2024; repository BeachWang/DAIL-SQL,
 * {@code utils/utils.py}): the skeleton of a query ({@code sql2skeleton}) and the Jaccard
 * similarity of two skeletons ({@code jaccard_similarity}), the figure DAIL reports as "query
 * similarity" of selected examples ({@code record_example_quality} in
 * {@code prompt/PromptICLTemplate.py}).
 *
 * <p>DAIL tokenises with the Python package {@code sql_metadata} (its {@code Parser.tokens}, on
 * {@code sqlparse}'s lexer), so this class carries a port of the parts it uses: sqlparse 0.4's
 * lexer rules, sql_metadata's joining of dotted names and its table-alias detection. See
 * {@code docs/retrieval.md} for what follows their code and what does not.
 */
public final class QuerySimilarity {
  private QuerySimilarity() {}

  /** The names {@link #dailSkeleton} masks, of each schema in the given order: a key of what it depends on. */
  public static String names(java.util.Collection<Schema> schemas) {
    StringBuilder key = new StringBuilder();
    for (Schema schema : schemas) {
      key.append(schema.dbId()).append('\0').append(String.join("\0", schema.tables())).append('\0');
      for (rolepolicy.model.SchemaColumn c : schema.columns()) {
        key.append(c.name()).append('\0');
      }
      key.append('\n');
    }
    return key.toString();
  }

  /** DAIL's {@code sql2skeleton(sql, db_schema)}: values and schema names become {@code _}. */
  public static String dailSkeleton(String sql, Schema schema) {
    Names names = new Names(schema);
    List<String> masked = new ArrayList<>();
    for (Token token : tokens(normalize(sql))) {
      String value = token.value;
      boolean mask = names.contains(value) || isStringValue(value)
          || isDigits(value) || isNegativeInt(value) || isFloat(value);
      masked.add(mask ? "_" : value.strip());
    }
    String skeleton = String.join(" ", masked);

    // join conditions and the joined tables go
    skeleton = skeleton.replace("on _ = _ and _ = _", "on _ = _")
        .replace("on _ = _ or _ = _", "on _ = _")
        .replace(" on _ = _", "");
    skeleton = JOIN_CHAIN.matcher(skeleton).replaceAll("_ ");
    // "_ , _ , _" becomes "_"
    while (skeleton.contains("_ , _")) {
      skeleton = skeleton.replace("_ , _", "_");
    }
    // comparisons, then the conditions of a WHERE, become "_"
    for (String op : List.of("=", "!=", ">", ">=", "<", "<=")) {
      skeleton = skeleton.replace("_ " + op + " _", "_");
    }
    while (skeleton.contains("where _ and _") || skeleton.contains("where _ or _")) {
      skeleton = skeleton.replace("where _ and _", "where _").replace("where _ or _", "where _");
    }
    while (skeleton.contains("  ")) {
      skeleton = skeleton.replace("  ", " ");
    }
    // whatever follows ORDER BY is masked
    String[] words = skeleton.split(" ", -1);
    for (int i = 2; i < words.length; i++) {
      if (words[i - 2].equals("order") && words[i - 1].equals("by")) {
        words[i] = "_";
      }
    }
    return String.join(" ", words);
  }

  /**
   * DAIL's {@code jaccard_similarity}: over the space-separated tokens counted with multiplicity
   * (a multiset), |A ∩ B| / (|A| + |B| − |A ∩ B|).
   */
  public static double jaccard(String skeletonA, String skeletonB) {
    return jaccard(new Bag(skeletonA), new Bag(skeletonB));
  }

  /** {@link #jaccard(String, String)} of skeletons already split: one compared with many is split once. */
  public static double jaccard(Bag a, Bag b) {
    int shared = 0;
    for (int i = 0, j = 0; i < a.tokens.length && j < b.tokens.length; ) {
      int order = a.tokens[i].compareTo(b.tokens[j]);
      if (order == 0) {
        shared += Math.min(a.counts[i++], b.counts[j++]);
      } else if (order < 0) {
        i++;
      } else {
        j++;
      }
    }
    return (double) shared / (a.size + b.size - shared);
  }

  /**
   * A skeleton's space-separated tokens counted (a multiset): what {@link #jaccard(Bag, Bag)} compares,
   * as its distinct tokens in order with their counts, so that two bags are compared in one pass.
   */
  public static final class Bag {
    private final String[] tokens;
    private final int[] counts;
    private final int size;

    public Bag(String skeleton) {
      String[] all = skeleton.strip().split(" ", -1);
      java.util.TreeMap<String, Integer> counted = new java.util.TreeMap<>();
      for (String token : all) {
        counted.merge(token, 1, Integer::sum);
      }
      tokens = counted.keySet().toArray(new String[0]);
      counts = counted.values().stream().mapToInt(Integer::intValue).toArray();
      size = all.length;
    }
  }

  /** The Jaccard similarity of the two queries' DAIL skeletons. */
  public static double similarity(String sqlA, Schema a, String sqlB, Schema b) {
    return jaccard(dailSkeleton(sqlA, a), dailSkeleton(sqlB, b));
  }

  /**
   * The names DAIL masks: lower-cased tables, lower-cased columns and {@code *}, and every
   * {@code table.column} pair of the database (any table with any column, lower-cased), plus
   * {@code Table.*} with the table's original case.
   */
  private static final class Names {
    private final Set<String> tables = new HashSet<>();
    private final Set<String> columns = new HashSet<>();
    private final Set<String> tableStars = new HashSet<>();

    Names(Schema schema) {
      columns.add("*");
      for (String table : schema.tables()) {
        tables.add(lower(table));
        tableStars.add(table + ".*");
        for (SchemaColumn column : schema.columns()) { // Spider's "*" is among them
          columns.add(lower(column.name()));
        }
      }
    }

    boolean contains(String value) {
      if (tables.contains(value) || columns.contains(value) || tableStars.contains(value)) {
        return true;
      }
      // table.column for any table and any column: try every dot as the separator
      for (int dot = value.indexOf('.'); dot >= 0; dot = value.indexOf('.', dot + 1)) {
        if (tables.contains(value.substring(0, dot)) && columns.contains(value.substring(dot + 1))) {
          return true;
        }
      }
      return false;
    }
  }

  // ---- DAIL's sql_normalization ----

  /** DAIL's {@code sql_normalization}: spaced tokens, lower case, ASC made explicit, no aliases. */
  static String normalize(String sql) {
    String s = sql.strip();
    if (s.endsWith(";")) {
      s = s.substring(0, s.length() - 1);
    }
    s = s.replace('"', '\'');
    List<String> values = new ArrayList<>();
    for (Token token : tokens(s)) {
      values.add(token.value);
    }
    s = lowerOutsideQuotes(String.join(" ", values));
    s = addAsc(s);
    return removeTableAliases(s);
  }

  /** Lower case except between single quotes, one character at a time as DAIL's {@code lower}. */
  private static String lowerOutsideQuotes(String s) {
    StringBuilder out = new StringBuilder(s.length());
    boolean quoted = false;
    for (int i = 0; i < s.length(); i += Character.charCount(s.codePointAt(i))) {
      String c = s.substring(i, i + Character.charCount(s.codePointAt(i)));
      out.append(quoted ? c : lower(c));
      if (c.equals("'")) {
        quoted = !quoted;
      }
    }
    return out.toString();
  }

  // DAIL's add_asc pattern: an ORDER BY key, possibly an arithmetic or comparison of keys
  private static final String ORDER_KEY = "(?:\\w+ \\( \\S+ \\)|\\w+\\.\\w+|\\w+)";
  private static final Pattern ORDER_BY = Pattern.compile(
      "order by " + ORDER_KEY + "(?: (?:\\+|\\-|\\<|\\<\\=|\\>|\\>\\=) " + ORDER_KEY + ")*",
      Pattern.UNICODE_CHARACTER_CLASS);

  /** Appends {@code asc} to ORDER BY keys when the text has no {@code asc} or {@code desc} at all. */
  private static String addAsc(String s) {
    if (!s.contains("order by") || s.contains("asc") || s.contains("desc")) {
      return s;
    }
    List<String> keys = new ArrayList<>();
    Matcher m = ORDER_BY.matcher(s);
    while (m.find()) {
      keys.add(m.group());
    }
    for (String key : keys) {
      s = s.replace(key, key + " asc"); // every occurrence, once per match, as DAIL's does
    }
    return s;
  }

  /** DAIL's {@code remove_table_alias}: {@code T1.x} becomes {@code table.x}; {@code AS} pairs go. */
  private static String removeTableAliases(String s) {
    Map<String, String> found = tableAliases(s);
    List<String> words = splitKeepingQuotes(s);
    Map<String, String> aliases = new LinkedHashMap<>();
    for (int i = 1; i <= 10; i++) {
      String alias = "t" + i;
      if (found.containsKey(alias)) {
        aliases.put(alias, found.get(alias));
      }
    }
    for (String word : words) {
      String prefix = word.split("\\.", -1)[0];
      if (word.contains(".") && found.containsKey(prefix)) {
        aliases.put(prefix, found.get(prefix));
      }
    }
    List<String> out = new ArrayList<>();
    String previous = "";
    for (String word : words) {
      if (aliases.containsKey(word)) {
        if (previous.equals("as")) {
          out.remove(out.size() - 1);
        } else if (!previous.equals(aliases.get(word))) {
          out.add(aliases.get(word));
        }
      } else if (word.contains(".")) {
        String[] parts = word.split("\\.", -1);
        for (int i = 0; i < parts.length; i++) {
          if (parts[i].length() > 2 && parts[i].startsWith("'") && parts[i].endsWith("'")) {
            parts[i] = lower(parts[i].replace("'", ""));
          }
          parts[i] = aliases.getOrDefault(parts[i], parts[i]);
        }
        out.add(String.join(".", parts));
      } else {
        out.add(word);
      }
      previous = word;
    }
    // every remaining "as" goes with the word after it (column aliases)
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < out.size(); i++) {
      if (!out.get(i).equals("as") && !(i > 0 && out.get(i - 1).equals("as"))) {
        kept.add(out.get(i));
      }
    }
    return String.join(" ", kept);
  }

  /** DAIL's {@code sql_split}: words on single spaces, a quoted string kept whole. */
  private static List<String> splitKeepingQuotes(String s) {
    while (s.contains("  ")) {
      s = s.replace("  ", " ");
    }
    s = s.strip();
    List<String> words = new ArrayList<>();
    int i = 0;
    while (i < s.length()) {
      int start = i;
      if (s.charAt(i) == '\'') {
        int close = s.indexOf('\'', i + 1);
        i = close < 0 ? s.length() : close + 1;
        words.add(s.substring(start, i)); // spaces after a string are not skipped: "" comes next
      } else {
        while (i < s.length() && s.charAt(i) != ' ') {
          i++;
        }
        words.add(s.substring(start, i));
        while (i < s.length() && s.charAt(i) == ' ') {
          i++;
        }
      }
    }
    return words;
  }

  // ---- DAIL's masks ----

  private static final Pattern JOIN_CHAIN = Pattern.compile("_ (?:join _ ?)+");

  private static boolean isStringValue(String value) {
    return value.startsWith("'") && value.endsWith("'");
  }

  /** Python's {@code str.isdigit}: non-empty, digits only (decimal, or digit-valued like ²). */
  private static boolean isDigits(String value) {
    if (value.isEmpty()) {
      return false;
    }
    return value.codePoints().allMatch(c -> Character.isDigit(c)
        || (Character.getType(c) == Character.OTHER_NUMBER
            && Character.getNumericValue(c) >= 0 && Character.getNumericValue(c) <= 9));
  }

  private static boolean isNegativeInt(String value) {
    return value.startsWith("-") && isDigits(value.substring(1));
  }

  /** DAIL's {@code isFloat}: an optional minus, then one or two dot-separated runs of digits. */
  private static boolean isFloat(String value) {
    String unsigned = value.startsWith("-") ? value.substring(1) : value;
    String[] parts = unsigned.split("\\.", -1);
    if (parts.length > 2) {
      return false;
    }
    for (String part : parts) {
      if (!isDigits(part)) {
        return false;
      }
    }
    return true;
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }

  // ---- sql_metadata's Parser: tokens, tables, tables_aliases ----

  /** What sql_metadata asks of a sqlparse token type. */
  private enum Kind {
    /** whitespace: dropped */
    SPACE,
    /** a name that sqlparse never takes for a keyword (quoted, before a dot or a parenthesis) */
    NAME,
    /** a bare word: a name or a keyword, as sqlparse's keyword list says */
    WORD,
    /** a keyword matched by one of sqlparse's keyword rules ({@code ORDER BY}, {@code LEFT JOIN}) */
    KEYWORD,
    /** the keyword {@code AS} */
    AS,
    /** sqlparse's Punctuation */
    PUNCTUATION,
    /** operators, comparisons, numbers, strings, the wildcard and anything else */
    OTHER
  }

  /** One sql_metadata token: its value (dotted names joined) and the keyword it follows. */
  private static final class Token {
    final Kind kind;
    final String value;
    /** upper case, without spaces: sql_metadata's {@code normalized} */
    final String normalized;
    /** the last relevant keyword before this token, normalized; "" at the start */
    final String lastKeyword;
    boolean table;

    Token(Kind kind, String value, String lastKeyword) {
      this.kind = kind;
      this.value = value;
      this.normalized = normalize(value);
      this.lastKeyword = lastKeyword;
    }

    boolean nameOrKeyword() {
      return kind == Kind.NAME || kind == Kind.WORD || kind == Kind.KEYWORD || kind == Kind.AS;
    }

    static String normalize(String value) {
      return SPACES.matcher(value).replaceAll("").toUpperCase(Locale.ROOT);
    }
  }

  private static final Pattern SPACES = Pattern.compile("[ \n\t\r]");

  /** sql_metadata's keywords after which a keyword starts a new section (RELEVANT_KEYWORDS). */
  private static final Set<String> RELEVANT_KEYWORDS = Set.of(
      "SELECT", "WHERE", "HAVING", "ORDERBY", "GROUPBY", "ON", "SET", "USING",
      "FROM", "JOIN", "CROSSJOIN", "INNERJOIN", "FULLJOIN", "FULLOUTERJOIN", "LEFTJOIN",
      "RIGHTJOIN", "LEFTOUTERJOIN", "RIGHTOUTERJOIN", "NATURALJOIN", "INTO", "UPDATE", "TABLE",
      "DELETE", "REPLACE", "INSERT", "LIMIT", "OFFSET", "RETURNING", "VALUES", "INDEX", "KEY",
      "WITH", "WINDOW");

  /** sql_metadata's TABLE_ADJUSTMENT_KEYWORDS: a table name follows them. */
  private static final Set<String> TABLE_KEYWORDS = Set.of(
      "FROM", "JOIN", "CROSSJOIN", "INNERJOIN", "FULLJOIN", "FULLOUTERJOIN", "LEFTJOIN",
      "RIGHTJOIN", "LEFTOUTERJOIN", "RIGHTOUTERJOIN", "NATURALJOIN", "INTO", "UPDATE", "TABLE");

  /**
   * sql_metadata's {@code Parser.tokens}: sqlparse's tokens of the first statement without
   * whitespace, {@code a . b} joined into one token {@code a.b}, each with the last relevant keyword
   * before it.
   */
  private static List<Token> tokens(String sql) {
    List<Lexeme> lexemes = new ArrayList<>();
    for (Lexeme lexeme : firstStatement(lex(sql))) {
      if (lexeme.kind != Kind.SPACE) {
        lexemes.add(lexeme);
      }
    }
    List<Token> tokens = new ArrayList<>();
    String lastKeyword = "";
    boolean joining = false;
    for (int i = 0; i < lexemes.size(); i++) {
      Lexeme lexeme = lexemes.get(i);
      if (isDot(lexeme) || (i + 1 < lexemes.size() && isDot(lexemes.get(i + 1)))) {
        joining = true;
        continue;
      }
      String value = stripQuotes(lexeme.text);
      if (joining) {
        for (int j = i; j > 1 && isDot(lexemes.get(j - 1)); j -= 2) {
          value = stripQuotes(lexemes.get(j - 2).text) + "." + value;
        }
        joining = false;
      }
      Token token = new Token(lexeme.kind, value, lastKeyword);
      boolean extractFrom = token.normalized.equals("FROM")
          && tokens.size() >= 3 && tokens.get(tokens.size() - 3).normalized.equals("EXTRACT");
      boolean selectUsing = token.normalized.equals("USING") && lastKeyword.equals("SELECT");
      if (isRelevantKeyword(token) && !extractFrom && !selectUsing) {
        lastKeyword = token.normalized;
      }
      tokens.add(token);
    }
    return tokens;
  }

  private static boolean isDot(Lexeme lexeme) {
    return lexeme.text.equals(".");
  }

  /** SQLToken's value: backticks, then double quotes, stripped from both ends. */
  private static String stripQuotes(String text) {
    return strip(strip(text, '`'), '"');
  }

  private static String strip(String text, char c) {
    int start = 0;
    int end = text.length();
    while (start < end && text.charAt(start) == c) {
      start++;
    }
    while (end > start && text.charAt(end - 1) == c) {
      end--;
    }
    return text.substring(start, end);
  }

  /** A keyword in RELEVANT_KEYWORDS; every bare word in that list is a keyword to sqlparse. */
  private static boolean isRelevantKeyword(Token token) {
    return (token.kind == Kind.KEYWORD || token.kind == Kind.WORD)
        && RELEVANT_KEYWORDS.contains(token.normalized);
  }

  /** sql_metadata's {@code Parser.tables_aliases}: alias to table, the last definition winning. */
  private static Map<String, String> tableAliases(String sql) {
    List<Token> tokens = tokens(sql);
    List<String> tables = new ArrayList<>();
    for (int i = 0; i < tokens.size(); i++) {
      Token token = tokens.get(i);
      String previous = i > 0 ? tokens.get(i - 1).normalized : "";
      if (token.nameOrKeyword()
          && TABLE_KEYWORDS.contains(token.lastKeyword)
          && !previous.equals("AS") && !previous.equals("WITH")
          && !Set.of("AS", "SELECT", "IF", "SET", "WITH").contains(token.normalized)
          && !isTableAlias(tokens, i)) {
        token.table = true;
        String name = strip(token.value, '`');
        if (!tables.contains(name)) {
          tables.add(name);
        }
      }
    }
    Map<String, String> aliases = new LinkedHashMap<>();
    for (int i = 0; i < tokens.size(); i++) {
      Token token = tokens.get(i);
      boolean beforeAs = i + 1 < tokens.size() && tokens.get(i + 1).kind == Kind.AS;
      if (token.table
          || !TABLE_KEYWORDS.contains(token.lastKeyword)
          || !token.nameOrKeyword() || token.kind == Kind.AS || beforeAs) {
        continue;
      }
      boolean afterAs = i > 0 && tokens.get(i - 1).kind == Kind.AS;
      int tableAt = afterAs ? i - 2 : i - 1;
      String candidate = tableAt >= 0 ? tokens.get(tableAt).value : "";
      if (tables.contains(candidate)) {
        aliases.put(token.value, candidate);
      }
    }
    return aliases;
  }

  /** sql_metadata's test for "an alias without AS, or the alias of a subquery". */
  private static boolean isTableAlias(List<Token> tokens, int i) {
    Token previous = i > 0 ? tokens.get(i - 1) : null;
    String previousNormalized = previous == null ? "" : previous.normalized;
    boolean previousPunctuation = previous != null && previous.kind == Kind.PUNCTUATION;
    boolean withoutAs = !previousNormalized.equals(tokens.get(i).lastKeyword)
        && !previousPunctuation && !previousNormalized.equals("EXISTS");
    return withoutAs || (previous != null && previous.value.equals(")"));
  }

  // ---- sqlparse 0.4's lexer ----

  private record Lexeme(Kind kind, String text) {}

  private record Rule(Pattern pattern, Kind kind) {}

  private static final String LETTER = "[A-ZÀ-Ü]";
  private static final List<Rule> RULES = rules(
      "(--|# )\\+.*?(\\r\\n|\\r|\\n|$)", Kind.OTHER, // comment hints
      "/\\*\\+[\\s\\S]*?\\*/", Kind.OTHER,
      "(--|# ).*?(\\r\\n|\\r|\\n|$)", Kind.OTHER, // comments
      "/\\*[\\s\\S]*?\\*/", Kind.OTHER,
      "(\\r\\n|\\r|\\n)", Kind.SPACE,
      "\\s+?", Kind.SPACE,
      ":=", Kind.OTHER,
      "::", Kind.PUNCTUATION,
      "\\*", Kind.OTHER, // wildcard
      "`(``|[^`])*`", Kind.NAME,
      "´(´´|[^´])*´", Kind.NAME,
      "((?<!\\S)\\$(?:[_A-ZÀ-Ü]\\w*)?\\$)[\\s\\S]*?\\1", Kind.OTHER,
      "\\?", Kind.NAME, // placeholders: sql_metadata counts them as keywords; either way a name
      "%(\\(\\w+\\))?s", Kind.NAME,
      "(?<!\\w)[$:?]\\w+", Kind.NAME,
      "\\\\\\w+", Kind.OTHER,
      "(NOT\\s+)?(IN)\\b", Kind.OTHER, // comparison
      "(CASE|IN|VALUES|USING|FROM|AS)\\b", Kind.KEYWORD,
      "(@|##|#)" + LETTER + "\\w+", Kind.NAME,
      LETTER + "\\w*(?=\\s*\\.)", Kind.NAME,
      "(?<=\\.)" + LETTER + "\\w*", Kind.NAME,
      LETTER + "\\w*(?=\\()", Kind.NAME,
      "-?0x[\\dA-F]+", Kind.OTHER,
      "-?\\d+(\\.\\d+)?E-?\\d+", Kind.OTHER,
      "(?![_A-ZÀ-Ü])-?(\\d+(\\.\\d*)|\\.\\d+)(?![_A-ZÀ-Ü])", Kind.OTHER,
      "(?![_A-ZÀ-Ü])-?\\d+(?![_A-ZÀ-Ü])", Kind.OTHER,
      "'(''|\\\\'|[^'])*'", Kind.OTHER,
      "\"(\"\"|\\\\\"|[^\"])*\"", Kind.OTHER,
      "(\"\"|\".*?[^\\\\]\")", Kind.OTHER,
      "(?<![\\w\\])])(\\[[^\\]\\[]+\\])", Kind.NAME,
      "((LEFT\\s+|RIGHT\\s+|FULL\\s+)?(INNER\\s+|OUTER\\s+|STRAIGHT\\s+)?"
          + "|(CROSS\\s+|NATURAL\\s+)?)?JOIN\\b", Kind.KEYWORD,
      "END(\\s+IF|\\s+LOOP|\\s+WHILE)?\\b", Kind.KEYWORD,
      "NOT\\s+NULL\\b", Kind.KEYWORD,
      "NULLS\\s+(FIRST|LAST)\\b", Kind.KEYWORD,
      "UNION\\s+ALL\\b", Kind.KEYWORD,
      "CREATE(\\s+OR\\s+REPLACE)?\\b", Kind.KEYWORD,
      "DOUBLE\\s+PRECISION\\b", Kind.NAME, // Name.Builtin: a keyword to sql_metadata
      "GROUP\\s+BY\\b", Kind.KEYWORD,
      "ORDER\\s+BY\\b", Kind.KEYWORD,
      "HANDLER\\s+FOR\\b", Kind.KEYWORD,
      "(LATERAL\\s+VIEW\\s+)(EXPLODE|INLINE|PARSE_URL_TUPLE|POSEXPLODE|STACK)\\b", Kind.KEYWORD,
      "(AT|WITH')\\s+TIME\\s+ZONE\\s+'[^']+'", Kind.KEYWORD,
      "(NOT\\s+)?(LIKE|ILIKE|RLIKE)\\b", Kind.OTHER, // comparison
      "[0-9_A-ZÀ-Ü][_$#\\w]*", Kind.WORD,
      "[;:()\\[\\],\\.]", Kind.PUNCTUATION,
      "[<>=~!]+", Kind.OTHER,
      "[+/@#%^&|^-]+", Kind.OTHER);

  private static List<Rule> rules(Object... patternsAndKinds) {
    List<Rule> rules = new ArrayList<>();
    int flags = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.UNICODE_CHARACTER_CLASS;
    for (int i = 0; i < patternsAndKinds.length; i += 2) {
      rules.add(new Rule(
          Pattern.compile((String) patternsAndKinds[i], flags), (Kind) patternsAndKinds[i + 1]));
    }
    return List.copyOf(rules);
  }

  /** sqlparse's lexer: at each position the first rule that matches, else one character. */
  private static List<Lexeme> lex(String sql) {
    List<Matcher> matchers = new ArrayList<>();
    for (Rule rule : RULES) {
      matchers.add(rule.pattern.matcher(sql).useTransparentBounds(true).useAnchoringBounds(false));
    }
    List<Lexeme> lexemes = new ArrayList<>();
    int pos = 0;
    while (pos < sql.length()) {
      Lexeme lexeme = null;
      for (int r = 0; r < RULES.size() && lexeme == null; r++) {
        Matcher m = matchers.get(r).region(pos, sql.length());
        if (m.lookingAt() && m.end() > pos) {
          Kind kind = RULES.get(r).kind;
          if (kind == Kind.KEYWORD && m.group().equalsIgnoreCase("AS")) {
            kind = Kind.AS;
          }
          lexeme = new Lexeme(kind, m.group());
        }
      }
      if (lexeme == null) {
        lexeme = new Lexeme(Kind.OTHER, sql.substring(pos, sql.offsetByCodePoints(pos, 1)));
      }
      lexemes.add(lexeme);
      pos += lexeme.text.length();
    }
    return lexemes;
  }

  /** sqlparse's statement splitter, reduced: up to the first {@code ;} outside parentheses. */
  private static List<Lexeme> firstStatement(List<Lexeme> lexemes) {
    int level = 0;
    for (int i = 0; i < lexemes.size(); i++) {
      Lexeme lexeme = lexemes.get(i);
      if (lexeme.kind == Kind.PUNCTUATION && lexeme.text.equals("(")) {
        level++;
      } else if (lexeme.kind == Kind.PUNCTUATION && lexeme.text.equals(")")) {
        level--;
      } else if (lexeme.kind == Kind.KEYWORD && Token.normalize(lexeme.text).startsWith("END")) {
        level--;
      } else if (level <= 0 && lexeme.kind == Kind.PUNCTUATION && lexeme.text.equals(";")) {
        return lexemes.subList(0, i + 1);
      }
    }
    return lexemes;
  }
}
