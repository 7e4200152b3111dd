package rolepolicy.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import rolepolicy.TestData;

/** The policy text of the prompts, as each shipped profile's rules make it. */
class PolicyPromptTextTest {
  @Test
  void specV1SaysWhatItJudgesAndWhatItDoesNot() {
    assertEquals("""
        Every column has one usage policy:
        - Public: use it anywhere.
        - JoinOnly: never select it; never aggregate it.
        - AggOnly: never select it bare; never join on it or filter on it; aggregate it only with COUNT or AVG.
        - Hidden: never select it, aggregate it, join on it or filter on it.
        GROUP BY, HAVING and ORDER BY are not checked: any column may be used there.
        Never write SELECT *: name the columns. COUNT(*) counts rows and is always allowed.""",
        PolicyPromptText.of(TestData.rules()));
  }

  @Test
  void strictJudgesEveryClause() {
    assertEquals("""
        Every column has one usage policy:
        - Public: use it anywhere.
        - JoinOnly: never select it; never name it bare in HAVING or ORDER BY; never aggregate it, anywhere.
        - AggOnly: never select it bare; never join on it, filter on it or group by it; \
        never name it bare in HAVING or ORDER BY; aggregate it only with COUNT or AVG, anywhere.
        - Hidden: never use it anywhere.
        Never write SELECT *: name the columns. COUNT(*) counts rows and is always allowed.""",
        PolicyPromptText.of(TestData.rules("strict")));
  }
}
