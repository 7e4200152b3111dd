package rolepolicy.ports;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The tokens of SQL text as Spider's {@code process_sql.py} makes them: single quotes made double,
 * each quoted stretch kept as one token, the rest split by the rules of NLTK's {@code
 * word_tokenize} (its Treebank-style word tokenizer; the Punkt sentence splitter before it is not
 * applied: it may split only at {@code . ? !} followed by white space or some punctuation, outside
 * the quoted stretches, which on the SQL at hand occurs only in texts the script's parser fails on
 * either way: see ExactMatchScriptReferenceTest), lower-cased, and {@code ! > <} joined with a
 * following {@code =}.
 */
final class SpiderScriptTokens {
  /**
   * One rule; {@code anyOf}: characters of which every match holds one (null: no such), {@code word}: a
   * word every match holds, in any case (null: none). A text without them is left as it is, unread.
   */
  private record Rule(Pattern pattern, String replacement, String anyOf, String word) {
    String apply(String text) {
      if (anyOf != null && text.chars().noneMatch(c -> anyOf.indexOf(c) >= 0)
          || word != null && !text.toLowerCase(Locale.ROOT).contains(word)) {
        return text;
      }
      return pattern.matcher(text).replaceAll(replacement);
    }
  }

  private static Rule rule(String regex, String replacement) {
    return new Rule(Pattern.compile(regex), replacement, null, null);
  }

  private static Rule rule(String regex, String replacement, String anyOf) {
    return new Rule(Pattern.compile(regex), replacement, anyOf, null);
  }

  private static Rule word(String regex, String replacement, String word) {
    return new Rule(Pattern.compile(regex), replacement, null, word);
  }

  /** NLTK's rules, in its order: starting quotes, punctuation, brackets, dashes. */
  private static final List<Rule> BEFORE_PADDING = List.of(
      rule("([«“‘„]|[`]+)", " $1 ", "«“‘„`"),
      rule("^\"", "``", "\""),
      rule("(``)", " $1 ", "`"),
      rule("([ (\\[{<])(\"|'{2})", "$1 `` ", "\"'"),
      rule("(?i)(?<!\\w)(')(?!(?:re|ve|ll|m|t|s|d|n)\\b)(?=\\w)", "$1 ", "'"),
      rule("([^.])(\\.)([\\])}>\"'»”’ ]*+)\\s*$", "$1 $2 $3 ", "."),
      rule("([:,])([^\\d])", " $1 $2", ":,"),
      rule("([:,])$", " $1 ", ":,"),
      rule("\\.{2,}", " $0 ", "."),
      rule("[;@#$%&]", " $0 ", ";@#$%&"),
      rule("[\\u2012-\\u2015]", " $0 ", "\u2012\u2013\u2014\u2015"),
      rule("([^.])(\\.)([\\])}>\"']*+)\\s*$", "$1 $2$3 ", "."),
      rule("[?!]", " $0 ", "?!"),
      rule("([^'])' ", "$1 ' ", "'"),
      rule("[*]", " $0 ", "*"),
      rule("[\\]\\[(){}<>]", " $0 ", "[](){}<>"),
      rule("--", " -- ", "-"));

  /** Ending quotes and contractions, applied to the text padded with a space each side. */
  private static final List<Rule> AFTER_PADDING = List.of(
      rule("([»”’])", " $1 ", "»”’"),
      rule("''", " '' ", "'"),
      rule("\"", " '' ", "\""),
      rule("\\s+", " "),
      rule("([^' ])('[sS]|'[mM]|'[dD]|') ", "$1 $2 ", "'"),
      rule("([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", "$1 $2 ", "'"),
      word("(?i)\\b(can)(not)\\b", " $1 $2 ", "cannot"),
      rule("(?i)\\b(d)('ye)\\b", " $1 $2 ", "'"),
      word("(?i)\\b(gim)(me)\\b", " $1 $2 ", "gimme"),
      word("(?i)\\b(gon)(na)\\b", " $1 $2 ", "gonna"),
      word("(?i)\\b(got)(ta)\\b", " $1 $2 ", "gotta"),
      word("(?i)\\b(lem)(me)\\b", " $1 $2 ", "lemme"),
      rule("(?i)\\b(more)('n)\\b", " $1 $2 ", "'"),
      word("(?i)\\b(wan)(na)(?=\\s)", " $1 $2 ", "wanna"),
      rule("(?i) ('t)(is)\\b", " $1 $2 ", "'"),
      rule("(?i) ('t)(was)\\b", " $1 $2 ", "'"));

  private SpiderScriptTokens() {}

  static List<String> tokenize(String sql) {
    String text = sql.replace('\'', '"');
    List<Integer> quotes = new ArrayList<>();
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '"') {
        quotes.add(i);
      }
    }
    if (quotes.size() % 2 != 0) {
      throw new SpiderScript.Failure("AssertionError: Unexpected quote");
    }
    // each quoted stretch becomes a key named by its place in the text, in one pass
    Map<String, String> values = new HashMap<>();
    StringBuilder keyed = new StringBuilder(text.length());
    int from = 0;
    for (int i = 0; i < quotes.size(); i += 2) {
      int open = quotes.get(i);
      int close = quotes.get(i + 1);
      String key = "__val_" + open + "_" + close + "__";
      values.put(key, text.substring(open, close + 1));
      keyed.append(text, from, open).append(key);
      from = close + 1;
    }
    text = keyed.append(text, from, text.length()).toString();
    for (Rule r : BEFORE_PADDING) {
      text = r.apply(text);
    }
    text = " " + text + " ";
    for (Rule r : AFTER_PADDING) {
      text = r.apply(text);
    }
    List<String> toks = new ArrayList<>();
    for (String word : text.strip().split("\\s+")) {
      if (!word.isEmpty()) {
        String lower = word.toLowerCase(Locale.ROOT);
        toks.add(values.getOrDefault(lower, lower));
      }
    }
    return joinEquals(toks);
  }

  /**
   * The script's join of {@code ! > <} with a following {@code =}, from the last {@code =} back,
   * built in one pass: at the first token the one before is the (joined) last.
   */
  private static List<String> joinEquals(List<String> toks) {
    List<String> reversed = new ArrayList<>(toks.size());
    int i = toks.size() - 1;
    for (; i >= 1; i--) {
      String tok = toks.get(i);
      String pre = toks.get(i - 1);
      if (tok.equals("=") && isJoined(pre)) {
        reversed.add(pre + "=");
        i--;
      } else {
        reversed.add(tok);
      }
    }
    List<String> joined = new ArrayList<>(toks.size() + 1);
    if (i == 0) {
      joined.add(toks.get(0));
    }
    for (int j = reversed.size() - 1; j >= 0; j--) {
      joined.add(reversed.get(j));
    }
    if (i == 0 && toks.get(0).equals("=")) {
      String pre = joined.get(joined.size() - 1);
      if (isJoined(pre)) {
        List<String> wrapped = new ArrayList<>(joined.subList(0, joined.size() - 1));
        wrapped.add(pre + "=");
        wrapped.addAll(joined.subList(1, joined.size()));
        return wrapped;
      }
    }
    return joined;
  }

  private static boolean isJoined(String tok) {
    return tok.equals("!") || tok.equals(">") || tok.equals("<");
  }
}
