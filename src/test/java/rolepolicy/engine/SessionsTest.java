package rolepolicy.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;

/** A session's facts come back in the order they entered it, whatever the fact store's own order. */
class SessionsTest {
  /** A fact no rule matches; its hash code is unrelated to its number, so no store keeps the order by chance. */
  record Marker(int n) {
    @Override
    public int hashCode() {
      return Integer.reverse(n * 0x9E3779B9);
    }
  }

  @Test
  void theFactsComeBackInTheOrderTheyWereInserted() {
    Sessions sessions = new Sessions(TestData.rules());
    List<Object> facts = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      facts.add(new Marker(i));
    }
    for (int round = 0; round < 3; round++) { // a pooled session, reset and used again, keeps to it
      assertEquals(facts, sessions.fire(facts, null, "test"));
    }
  }
}
