package rolepolicy.casebank;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import rolepolicy.TestData;

class QuestionMaskerTest {
  @Test
  void schemaNamesBecomeMasksAndValuesUnknowns() {
    var schema = TestData.schemas().get("concert_singer");
    assertEquals("What is the <mask> <mask> of all <mask> from <unk>?",
        QuestionMasker.mask("What is the average age of all singers from 'France'?", schema));
    assertEquals("Show the <mask> and <mask> of <mask> with more than <unk> <mask>.",
        QuestionMasker.mask("Show the name and capacity of stadiums with more than 2 concerts.", schema));
  }

  @Test
  void stopWordsInsideANameAreNotMasked() {
    // concert_singer has is_male and singer_in_concert: "is" and "in" still name nothing
    var schema = TestData.schemas().get("concert_singer");
    assertEquals("Which <mask> is in the <mask>?", QuestionMasker.mask("Which singer is in the concert?", schema));
  }

  @Test
  void aPossessiveIsNotAQuotedValue() {
    var schema = TestData.schemas().get("concert_singer");
    assertEquals("What is each <mask>'s <mask> and the <mask> <mask> it is in?",
        QuestionMasker.mask("What is each singer's name and the concert theme it is in?", schema));
  }
}
