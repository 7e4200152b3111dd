package rolepolicy.ports;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The tokens of process_sql.py's tokenize, each rule of NLTK's word tokenizer met at least once (the
 * expected lists are the script's own output, with word_tokenize(text, preserve_line=True)); a rule
 * is skipped only on a text without the characters or word every one of its matches holds.
 */
class SpiderScriptTokensTest {
  private static void tokens(String sql, String... expected) {
    assertEquals(List.of(expected), SpiderScriptTokens.tokenize(sql), sql);
  }

  @Test
  void operatorsAndValues() {
    tokens("SELECT count(*) FROM t WHERE a >= 3 AND b != 'x y' OR c <= 2",
        "select", "count", "(", "*", ")", "from", "t", "where", "a", ">=", "3", "and", "b", "!=", "\"x y\"", "or", "c", "<=", "2");
  }

  @Test
  void contractionsAreSplitAsNltkSplitsThem() {
    tokens("SELECT cannot , gimme FROM t WHERE wanna > 1 AND lemme < 2 AND gotta = 3 AND gonna = 4",
        "select", "can", "not", ",", "gim", "me", "from", "t", "where", "wan", "na", ">", "1", "and", "lem", "me", "<", "2",
        "and", "got", "ta", "=", "3", "and", "gon", "na", "=", "4");
  }

  @Test
  void punctuation() {
    tokens("SELECT a.b , c:d FROM t WHERE x = 1.5 ; ? ! @ # $ % & ...",
        "select", "a.b", ",", "c", ":", "d", "from", "t", "where", "x", "=", "1.5", ";", "?", "!", "@", "#", "$", "%", "&", "...");
    tokens("SELECT [x] {y} <z> FROM t -- note.",
        "select", "[", "x", "]", "{", "y", "}", "<", "z", ">", "from", "t", "--", "note", ".");
    tokens("SELECT a \u2013 b , \u00abx\u00bb FROM t.", "select", "a", "\u2013", "b", ",", "\u00ab", "x", "\u00bb", "from", "t", ".");
  }

  @Test
  void backticksAndQuotes() {
    tokens("SELECT `a` FROM t WHERE b = 'it''s' AND c = \"d\"",
        "select", "`", "a", "`", "from", "t", "where", "b", "=", "__val_28_31____val_32_34__", "and", "c", "=", "\"d\"");
  }
}
