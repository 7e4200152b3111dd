package rolepolicy.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one reader of model answers (run, interact, evaluate's REFUSE): the SQL in a code block or
 * bare, REFUSE alone or with a reason, prose around either. A model's thinking ({@code <think>…
 * </think>}, as DeepSeek-R1, QwQ and Qwen3 write it without a reasoning parser) is set aside first;
 * then the final answer decides: the last of the fenced blocks, the REFUSE markers and the queries
 * that begin a line.
 */
public final class ModelAnswer {
  private ModelAnswer() {}

  /**
   * What an answer says: SQL, REFUSE, neither (then {@code problem} says why), or nothing final
   * because the endpoint cut it off at its token limit ({@code finish_reason: "length"}).
   */
  public enum Kind { SQL, REFUSE, NONE, TRUNCATED }

  /**
   * One answer read.
   *
   * @param text the SQL, {@code REFUSE}, or null
   * @param reason the reason given after REFUSE, or null
   * @param problem why no SQL or REFUSE was found, or null
   */
  public record Read(Kind kind, String text, String reason, String problem) {
    /** The answer as a prediction line of {@code evaluate}: the SQL on one line, REFUSE, or empty. */
    public String prediction() {
      return kind == Kind.NONE || kind == Kind.TRUNCATED ? "" : oneLine(text);
    }
  }

  public static final String REFUSE = "REFUSE";

  private static final Pattern FENCED = Pattern.compile("```(?:sql|sqlite)?[ \\t]*\\n?(.*?)```", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
  /** SQL's start: SELECT, or a WITH that opens a common table expression. */
  private static final Pattern START = Pattern.compile("(?i)\\b(select\\b|with\\s+(?:recursive\\s+)?[\\w\"`]+\\s*(?:\\([^)]*\\)\\s*)?as\\s*\\()");
  /** A line that gives REFUSE: the word first (after markdown or "Answer:"), alone or with a reason. */
  private static final Pattern REFUSE_LINE =
      Pattern.compile("(?m)^[ \\t>*_`#-]*(?:answer\\s*:\\s*)?[*_`]*REFUSE[*_`]*(?![\\w])[ \\t]*(.*)$", Pattern.CASE_INSENSITIVE);
  /** A capitalised word, then a colon or a lower-case word. */
  private static final Pattern PROSE_START = Pattern.compile("([A-Z][a-z]+)(?::|\\s+([a-z]+)\\b)");
  /** Words that may start a continuation line of a query. */
  private static final Set<String> SQL_WORDS = Set.of("select", "from", "where", "join", "inner", "left", "right",
      "outer", "cross", "natural", "on", "using", "and", "or", "not", "group", "order", "having", "limit", "offset",
      "union", "intersect", "except", "with", "as", "case", "when", "then", "else", "end", "in", "between", "like",
      "is", "null", "by", "asc", "desc", "distinct", "all", "exists", "count", "sum", "avg", "min", "max", "cast");

  /** A model's thinking: {@code <think>…</think>}, or an opening tag never closed (thinking cut off). */
  private static final Pattern THINKING = Pattern.compile("(?is)<think(?:ing)?>.*?(?:</think(?:ing)?>|\\z)");
  /** REFUSE in capitals anywhere as a word ("I must REFUSE: …", "… so: REFUSE"). */
  private static final Pattern REFUSE_WORD = Pattern.compile("(?<![\\w'\"])REFUSE(?![\\w'\"])[ \\t]*(.*)$", Pattern.MULTILINE);

  /** The answer proper: the model's thinking removed. */
  public static String withoutThinking(String answer) {
    return answer == null ? "" : THINKING.matcher(answer).replaceAll("").strip();
  }

  /**
   * Reads an answer, its thinking set aside: the last of its fenced blocks, REFUSE markers (a line
   * that gives REFUSE, or REFUSE in capitals) and queries beginning a line decides; with none of
   * them, a query within prose is the SQL; else {@link Kind#NONE}.
   */
  public static Read read(String answer) {
    String text = withoutThinking(answer);
    int fenceAt = -1;
    int fenceEnd = -1;
    String fenceBody = null;
    List<int[]> sqlFences = new ArrayList<>(); // {start, end} of fenced blocks holding SQL
    Matcher fenced = FENCED.matcher(text);
    while (fenced.find()) {
      fenceAt = fenced.start();
      fenceEnd = fenced.end();
      fenceBody = fenced.group(1);
      if (bestStart(fenceBody) >= 0) {
        sqlFences.add(new int[] {fenced.start(), fenced.end()});
      }
    }
    Matcher refuse = null;
    int refuseAt = -1;
    for (Pattern marker : List.of(REFUSE_LINE, REFUSE_WORD)) {
      Matcher m = marker.matcher(text);
      while (m.find()) {
        int at = m.start();
        boolean counts = marker == REFUSE_WORD || upperOrAlone(m);
        if (counts && at > refuseAt && sqlFences.stream().noneMatch(f -> f[0] <= at && at < f[1])) {
          refuseAt = at;
          refuse = marker.matcher(text);
          refuse.find(at);
        }
      }
    }
    int lineSqlAt = lastLineStartSql(text, sqlFences);
    int fenceSqlAt = fenceAt >= 0 && bestStart(fenceBody) >= 0 ? fenceAt : -1;
    int sqlAt = Math.max(lineSqlAt, fenceSqlAt);
    if (refuseAt >= 0 && refuseAt > sqlAt) {
      String reason = bareReason(refuse.group(1));
      if (reason.isEmpty()) { // the reason on the lines below: the first that holds one
        reason = text.substring(refuse.end()).lines().map(ModelAnswer::bareReason).filter(l -> !l.isEmpty())
            .findFirst().orElse("");
      }
      return new Read(Kind.REFUSE, REFUSE, reason.isEmpty() ? null : reason, null);
    }
    try {
      String sql = sqlAt < 0 ? extract(text)
          : sqlAt == fenceSqlAt ? statement(fenceBody.substring(bestStart(fenceBody))).strip()
          : statement(text.substring(lineSqlAt)).strip();
      return new Read(Kind.SQL, sql, null, null);
    } catch (NoSqlException e) {
      return new Read(Kind.NONE, null, null, e.getMessage());
    }
  }

  /**
   * Reads an answer with the endpoint's {@code finish_reason}: an answer cut off at the token limit
   * ({@code length}) is {@link Kind#TRUNCATED}, whatever it holds so far.
   */
  public static Read read(String answer, String finishReason) {
    if ("length".equals(finishReason)) {
      return new Read(Kind.TRUNCATED, null, null,
          "the endpoint cut the answer off at its token limit (finish_reason length): " + abbreviate(withoutThinking(answer)));
    }
    return read(answer);
  }

  /** The start of the last query that begins a line outside the SQL fences, or -1. */
  private static int lastLineStartSql(String text, List<int[]> sqlFences) {
    int last = -1;
    Matcher m = START.matcher(text);
    while (m.find()) {
      int at = m.start(1);
      int lineStart = text.lastIndexOf('\n', at - 1) + 1;
      boolean inFence = sqlFences.stream().anyMatch(f -> f[0] <= at && at < f[1]);
      if (!inFence && text.substring(lineStart, at).isBlank() && !prose(text.substring(lineStart, lineEnd(text, at)))) {
        last = at;
      }
    }
    return last;
  }

  private static int lineEnd(String text, int at) {
    int end = text.indexOf('\n', at);
    return end < 0 ? text.length() : end;
  }

  /** SQL on one line, evaluate's format: {@code --} comments dropped (they would swallow what follows), line breaks made spaces. */
  static String oneLine(String sql) {
    StringBuilder out = new StringBuilder();
    char quote = 0;
    for (int i = 0; i < sql.length(); i++) {
      char ch = sql.charAt(i);
      if (quote != 0) {
        quote = ch == quote ? 0 : quote;
        if (ch == '\n' || ch == '\r') {
          out.append(' '); // a line break in a string: one line is the format
          continue;
        }
      } else if (ch == '\'' || ch == '"' || ch == '`') {
        quote = ch;
      } else if (ch == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
        while (i + 1 < sql.length() && sql.charAt(i + 1) != '\n') {
          i++;
        }
        continue;
      }
      if (quote == 0 && (ch == '\n' || ch == '\r')) {
        while (out.length() > 0 && Character.isWhitespace(out.charAt(out.length() - 1))) {
          out.setLength(out.length() - 1);
        }
        out.append(' ');
        while (i + 1 < sql.length() && Character.isWhitespace(sql.charAt(i + 1))) {
          i++;
        }
      } else {
        out.append(ch);
      }
    }
    return out.toString().strip();
  }

  private static String bareReason(String text) {
    return text.replaceAll("^[\\s:\\-–—(*_`]+|[\\s)*_`.]+$", "");
  }

  /**
   * REFUSE written in capitals, alone on its line, or followed by a dash or colon and its reason:
   * "refuse" in a sentence is no answer.
   */
  private static boolean upperOrAlone(Matcher refuse) {
    String line = refuse.group();
    return line.contains(REFUSE) || refuse.group(1).isBlank() || refuse.group(1).matches("[:\\-–—].*");
  }


  /**
   * Whether a prediction line of {@code evaluate} is REFUSE: the word alone, or followed by a
   * reason ({@code REFUSE (Hidden column)}, {@code REFUSE: …}).
   */
  public static boolean isRefusal(String prediction) {
    String text = prediction == null ? "" : prediction.strip();
    return text.regionMatches(true, 0, REFUSE, 0, REFUSE.length())
        && (text.length() == REFUSE.length() || !Character.isLetterOrDigit(text.charAt(REFUSE.length()))
            && text.charAt(REFUSE.length()) != '_');
  }

  /**
   * Whether an asking model's answer is the marker {@code marker} (e.g. NO AMBIGUITY) alone: the
   * whole answer, or its first line with no question after it. A question that merely mentions
   * the words is a question.
   */
  public static boolean isMarker(String answer, String marker) {
    if (answer == null) {
      return false;
    }
    List<String> lines = answer.strip().lines().map(ModelAnswer::bare).filter(l -> !l.isEmpty()).toList();
    return !lines.isEmpty() && lines.get(0).equalsIgnoreCase(marker) && lines.stream().skip(1).noneMatch(l -> l.contains("?"));
  }

  private static String bare(String line) {
    return line.strip().replaceAll("^[\\s>*_`\"'.:-]+|[\\s*_`\"'.!:]+$", "");
  }

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
   * The SQL of a model's answer, its thinking set aside: within the last fenced code block that holds
   * a query if there is one (else the last one), the first
   * statement that starts with SELECT or a WITH … AS ( — in capitals if one is, at the start of a
   * line if one is — up to its first {@code ;} outside quotes, or without one up to a blank line
   * or a line of prose.
   *
   * @throws NoSqlException when the answer holds no SQL
   */
  public static String extract(String answer) {
    String text = withoutThinking(answer);
    Matcher fenced = FENCED.matcher(text);
    String last = null;
    while (fenced.find()) {
      last = bestStart(fenced.group(1)) >= 0 || last == null ? fenced.group(1) : last;
    }
    if (last != null) {
      text = last;
    }
    int start = bestStart(text);
    if (start < 0) {
      throw new NoSqlException("the model's answer has no SQL in it: " + abbreviate(answer == null ? "" : answer.strip()));
    }
    return statement(text.substring(start)).strip();
  }


  /** The start of the likeliest query: capitals at a line start, capitals, any case at a line start, any. */
  private static int bestStart(String text) {
    List<int[]> found = new ArrayList<>(); // {start, rank}
    Matcher m = START.matcher(text);
    while (m.find()) {
      String word = m.group(1).substring(0, m.group(1).startsWith("w") || m.group(1).startsWith("W") ? 4 : 6);
      boolean capitals = word.equals(word.toUpperCase(Locale.ROOT));
      int lineStart = text.lastIndexOf('\n', m.start(1) - 1) + 1;
      boolean atLineStart = text.substring(lineStart, m.start(1)).isBlank();
      found.add(new int[] {m.start(1), (capitals ? 0 : 2) + (atLineStart ? 0 : 1)});
    }
    return found.stream().min((a, b) -> a[1] != b[1] ? Integer.compare(a[1], b[1]) : Integer.compare(a[0], b[0]))
        .map(a -> a[0]).orElse(-1);
  }

  /** The statement at the text's start: up to its first {@code ;} outside quotes, else up to a blank line or prose. */
  static String statement(String text) {
    char quote = 0;
    int lineStart = 0;
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (quote != 0) {
        quote = ch == quote ? 0 : quote;
      } else if (ch == '\'' || ch == '"' || ch == '`') {
        quote = ch;
      } else if (ch == ';') {
        return text.substring(0, i);
      } else if (ch == '\n') {
        lineStart = i + 1;
        int end = text.indexOf('\n', lineStart);
        String line = text.substring(lineStart, end < 0 ? text.length() : end);
        if (line.isBlank() || prose(line)) {
          return text.substring(0, i);
        }
      }
    }
    return text;
  }

  /** A line that reads as a sentence: a capitalised word that is no SQL word, then a lower-case word that is none either. */
  static boolean prose(String line) {
    if (!line.isEmpty() && Character.isWhitespace(line.charAt(0))) {
      return false; // an indented line continues the query
    }
    String stripped = line.strip();
    if (stripped.endsWith(":")) {
      return true;
    }
    Matcher words = PROSE_START.matcher(stripped);
    if (!words.lookingAt() || SQL_WORDS.contains(words.group(1).toLowerCase(Locale.ROOT))) {
      return false;
    }
    return words.group(2) == null || !SQL_WORDS.contains(words.group(2));
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
