package rolepolicy.rules.mutation;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Variants of one rule file, derived mechanically: each condition of a rule's {@code when} part
 * removed in turn (a whole pattern, or one constraint of a pattern), each comparison flipped
 * ({@code ==} ↔ {@code !=}, {@code <} ↔ {@code >=}, {@code >} ↔ {@code <=}), and each
 * {@code salience} swapped with that of the next rule in the file.
 */
public final class DrlMutants {
  private DrlMutants() {}

  /**
   * One variant.
   *
   * @param file the rule file's name
   * @param rules the rules it changes (two for a salience swap)
   * @param kind {@code remove-pattern}, {@code remove-constraint}, {@code flip} or {@code swap-salience}
   * @param what the change, in words (line numbers of the original file)
   * @param text the whole file as changed
   */
  public record Mutant(String file, List<String> rules, String kind, String what, String text) {}

  /** A rule's place in the file: its name, its salience line, its {@code when} part. */
  record Rule(String name, int salienceStart, int salienceEnd, String salience, int whenStart, int whenEnd) {}

  private static final Pattern RULE = Pattern.compile("(?m)^rule \"([^\"]+)\"");
  private static final Pattern SALIENCE = Pattern.compile("(?m)^\\s*salience\\s+(-?\\d+)\\s*$");
  private static final Pattern WHEN = Pattern.compile("(?m)^when\\s*$");
  private static final Pattern THEN = Pattern.compile("(?m)^then\\s*$");
  private static final Pattern OPERATOR = Pattern.compile("==|!=|<=|>=|<|>");

  public static List<Mutant> of(String file, String text) {
    List<Rule> rules = rules(text);
    List<Mutant> mutants = new ArrayList<>();
    for (Rule rule : rules) {
      removals(file, text, rule, mutants);
      flips(file, text, rule, mutants);
    }
    for (int i = 0; i + 1 < rules.size(); i++) {
      Rule a = rules.get(i);
      Rule b = rules.get(i + 1);
      if (a.salience() != null && b.salience() != null && !a.salience().equals(b.salience())) {
        String swapped = text.substring(0, a.salienceStart()) + b.salience() + text.substring(a.salienceEnd(), b.salienceStart())
            + a.salience() + text.substring(b.salienceEnd());
        mutants.add(new Mutant(file, List.of(a.name(), b.name()), "swap-salience",
            "salience " + a.salience() + " and " + b.salience() + " swapped", swapped));
      }
    }
    return mutants;
  }

  static List<Rule> rules(String text) {
    List<Rule> rules = new ArrayList<>();
    Matcher m = RULE.matcher(text);
    List<int[]> starts = new ArrayList<>();
    List<String> names = new ArrayList<>();
    while (m.find()) {
      starts.add(new int[] {m.start()});
      names.add(m.group(1));
    }
    for (int i = 0; i < starts.size(); i++) {
      int start = starts.get(i)[0];
      int end = i + 1 < starts.size() ? starts.get(i + 1)[0] : text.length();
      String block = text.substring(start, end);
      Matcher when = WHEN.matcher(block);
      Matcher then = THEN.matcher(block);
      if (!when.find() || !then.find(when.end())) {
        throw new IllegalArgumentException("rule \"" + names.get(i) + "\": no when/then");
      }
      Matcher salience = SALIENCE.matcher(block.substring(0, when.start()));
      boolean has = salience.find();
      rules.add(new Rule(names.get(i),
          has ? start + salience.start(1) : -1, has ? start + salience.end(1) : -1, has ? salience.group(1) : null,
          start + when.end(), start + then.start()));
    }
    return rules;
  }

  /** Each top-level condition removed, and each constraint of a plain pattern. */
  private static void removals(String file, String text, Rule rule, List<Mutant> out) {
    for (int[] ce : conditions(text, rule.whenStart(), rule.whenEnd())) {
      String condition = text.substring(ce[0], ce[1]).strip();
      out.add(new Mutant(file, List.of(rule.name()), "remove-pattern",
          "line " + line(text, ce[0]) + ": '" + oneLine(condition) + "' removed",
          text.substring(0, ce[0]) + text.substring(ce[1])));
      if (condition.startsWith("not (") || condition.startsWith("exists (")) {
        continue; // a group of patterns: removed whole only
      }
      int open = text.indexOf('(', ce[0]);
      if (open < 0 || open >= ce[1]) {
        continue;
      }
      int close = matching(text, open);
      List<int[]> constraints = constraints(text, open + 1, close);
      for (int c = 0; c < constraints.size(); c++) {
        int[] span = constraints.get(c);
        // drop the constraint with its separating comma
        int from = c == 0 ? span[0] : constraints.get(c - 1)[1];
        int to = c == 0 && constraints.size() > 1 ? constraints.get(1)[0] : span[1];
        String removed = text.substring(span[0], span[1]).strip();
        if (removed.isEmpty() || removed.matches("\\$\\w+\\s*:\\s*[\\w.]+")) {
          continue; // a binding only: removing it breaks the rule, it decides nothing
        }
        out.add(new Mutant(file, List.of(rule.name()), "remove-constraint",
            "line " + line(text, span[0]) + ": constraint '" + oneLine(removed) + "' removed",
            text.substring(0, from) + text.substring(to)));
      }
    }
  }

  /** Each comparison operator of the when part flipped to its negation. */
  private static void flips(String file, String text, Rule rule, List<Mutant> out) {
    Matcher m = OPERATOR.matcher(text);
    m.region(rule.whenStart(), rule.whenEnd());
    while (m.find()) {
      if (insideString(text, rule.whenStart(), m.start()) || insideComment(text, m.start())) {
        continue;
      }
      String flipped = switch (m.group()) {
        case "==" -> "!=";
        case "!=" -> "==";
        case "<" -> ">=";
        case ">=" -> "<";
        case ">" -> "<=";
        case "<=" -> ">";
        default -> throw new IllegalStateException(m.group());
      };
      out.add(new Mutant(file, List.of(rule.name()), "flip",
          "line " + line(text, m.start()) + ": '" + m.group() + "' → '" + flipped + "' in '"
              + oneLine(lineText(text, m.start())) + "'",
          text.substring(0, m.start()) + flipped + text.substring(m.end())));
    }
  }

  /** The top-level conditions of a when part: spans of whole lines whose parentheses balance. */
  static List<int[]> conditions(String text, int from, int to) {
    List<int[]> conditions = new ArrayList<>();
    int start = -1;
    int depth = 0;
    int lineStart = from;
    while (lineStart < to) {
      int lineEnd = text.indexOf('\n', lineStart);
      lineEnd = lineEnd < 0 || lineEnd > to ? to : lineEnd + 1;
      String line = text.substring(lineStart, lineEnd);
      String code = line.replaceAll("//.*", "").strip();
      if (start < 0 && !code.isEmpty()) {
        start = lineStart;
      }
      depth += depth(code);
      if (start >= 0 && depth == 0 && !code.isEmpty()) {
        conditions.add(new int[] {start, lineEnd});
        start = -1;
      }
      lineStart = lineEnd;
    }
    return conditions;
  }

  /** The constraints between a pattern's parentheses: spans split at top-level commas. */
  static List<int[]> constraints(String text, int from, int to) {
    List<int[]> spans = new ArrayList<>();
    int start = from;
    for (int i = from; i < to; i++) {
      if (text.charAt(i) == ',' && depth(text, from, i) == 0 && quotes(text, from, i) % 2 == 0) {
        spans.add(new int[] {start, i});
        start = i + 1;
      }
    }
    if (!text.substring(start, to).isBlank() || !spans.isEmpty()) {
      spans.add(new int[] {start, to});
    }
    return spans;
  }

  private static int quotes(String text, int from, int to) {
    int n = 0;
    for (int i = from; i < to; i++) {
      n += text.charAt(i) == '"' ? 1 : 0;
    }
    return n;
  }

  /** The offset of the parenthesis that closes the one at {@code open}. */
  private static int matching(String text, int open) {
    for (int end = open + 1; end <= text.length(); end++) {
      if (depth(text, open, end) == 0) {
        return end - 1;
      }
    }
    throw new IllegalArgumentException("unbalanced parentheses at offset " + open);
  }

  private static int depth(String code) {
    return depth(code, 0, code.length());
  }

  /** Opening minus closing parentheses in {@code text[from, to)}, outside double quotes. */
  private static int depth(String text, int from, int to) {
    int depth = 0;
    boolean quoted = false;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (!quoted && c == '(') {
        depth++;
      } else if (!quoted && c == ')') {
        depth--;
      }
    }
    return depth;
  }

  private static boolean insideString(String text, int from, int at) {
    int lineStart = text.lastIndexOf('\n', at - 1) + 1;
    int quotes = 0;
    for (int i = Math.max(lineStart, from); i < at; i++) {
      quotes += text.charAt(i) == '"' ? 1 : 0;
    }
    return quotes % 2 == 1;
  }

  private static boolean insideComment(String text, int at) {
    int lineStart = text.lastIndexOf('\n', at - 1) + 1;
    return text.substring(lineStart, at).contains("//");
  }

  static int line(String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      line += text.charAt(i) == '\n' ? 1 : 0;
    }
    return line;
  }

  private static String lineText(String text, int offset) {
    int start = text.lastIndexOf('\n', offset - 1) + 1;
    int end = text.indexOf('\n', offset);
    return text.substring(start, end < 0 ? text.length() : end);
  }

  private static String oneLine(String s) {
    return s.strip().replaceAll("\\s+", " ");
  }
}
