package rolepolicy.ports;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The tokenizer as first ported, step by step as the script does it (each quoted stretch cut out
 * of the whole text in turn, each join rebuilding the list): the reference the linear one is
 * compared with.
 */
final class ReferenceTokens {
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
      rule("([^.])(\\.)([\\])}>\"'»”’ ]*)\\s*$", "$1 $2 $3 ", "."),
      rule("([:,])([^\\d])", " $1 $2", ":,"),
      rule("([:,])$", " $1 ", ":,"),
      rule("\\.{2,}", " $0 ", "."),
      rule("[;@#$%&]", " $0 ", ";@#$%&"),
      rule("[\\u2012-\\u2015]", " $0 ", "\u2012\u2013\u2014\u2015"),
      rule("([^.])(\\.)([\\])}>\"']*)\\s*$", "$1 $2$3 ", "."),
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

  private ReferenceTokens() {}

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
    Map<String, String> values = new HashMap<>();
    for (int i = quotes.size() - 1; i >= 0; i -= 2) {
      int open = quotes.get(i - 1);
      int close = quotes.get(i);
      String key = "__val_" + open + "_" + close + "__";
      values.put(key, text.substring(open, close + 1));
      text = text.substring(0, open) + key + text.substring(close + 1);
    }
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
    for (int i = toks.size() - 1; i >= 0; i--) {
      if (toks.get(i).equals("=")) {
        int before = Math.floorMod(i - 1, toks.size());
        String pre = toks.get(before);
        if (pre.equals("!") || pre.equals(">") || pre.equals("<")) {
          List<String> joined = new ArrayList<>(i == 0 ? toks.subList(0, toks.size() - 1) : toks.subList(0, i - 1));
          joined.add(pre + "=");
          joined.addAll(toks.subList(i + 1, toks.size()));
          toks = joined;
        }
      }
    }
    return toks;
  }
}
