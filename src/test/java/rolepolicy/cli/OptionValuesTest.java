package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A bad command line is exit 2 with a message naming the option, before any work: no command at
 * all, a value out of range, an unknown choice, an option given twice.
 */
class OptionValuesTest {
  @Test
  void noCommandPrintsTheUsageAndWritesNothing() {
    CommandRun r = CommandRun.of();
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("error: no command given: name one of those below"), r.err());
    assertTrue(r.err().contains("generate") && r.err().contains("evaluate"), r.err());
    assertEquals("", r.out(), "generate did not run");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "stand-in --pred p.jsonl --port 99999|--port must be from 0 to 65535, not 99999",
      "run --llm-url http://127.0.0.1:9/v1 --llm-model m --llm-retries -1|--llm-retries must be at least 0, not -1",
      "run --llm-url http://127.0.0.1:9/v1 --llm-model m --llm-timeout 0|--llm-timeout must be above 0, not 0",
      "score-tables --results r --llm-max-bytes 0|--llm-max-bytes must be at least 1, not 0",
      "generate --rule-firings 0|--rule-firings must be at least 1, not 0",
      "generate --rule-timeout -1|--rule-timeout must be above 0, not -1",
      "predictions --from bogus --out o|--from must be original, gold, negative or refuse, not 'bogus'",
      "run --llm-timeout 3 --llm-timeout 4|--llm-timeout is given more than once (3, then 4): give it once",
      "stand-in --pred p.jsonl --port 1 --port 2|--port is given more than once: give it once"})
  void aBadValueNamesItsOption(String line, String message) {
    CommandRun r = CommandRun.of(line.split(" "));
    assertEquals(2, r.code(), r.err());
    assertEquals(message, r.err().lines().findFirst().orElse(""), r.err());
    assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    assertEquals("", r.out());
  }
}
