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

  @Test
  void aCasesOwnLiteralsAreMaskedWhereverTheQuestionWritesThem() {
    var schema = TestData.schemas().get("formula_1");
    assertEquals("What are the <mask> of the <mask> that belong to <unk> or <unk>?",
        QuestionMasker.mask("What are the names of the drivers that belong to France or Belgium?", schema,
            "SELECT forename FROM drivers WHERE nationality = 'France' OR nationality = \"Belgium\""));
    var flights = TestData.schemas().get("flight_4");
    assertEquals("How many <mask> land at <unk>?", QuestionMasker.mask("How many routes land at John F Kennedy International Airport?",
        flights, "SELECT count(*) FROM routes AS T1 JOIN airports AS T2 ON T1.dst_apid = T2.apid"
            + " WHERE T2.name = 'John F Kennedy International Airport'"));
  }

  @Test
  void aOneCharacterLiteralIsMaskedOnlyAsWritten() {
    var schema = TestData.schemas().get("concert_singer");
    assertEquals("How many <mask> are <unk>, a <mask>?",
        QuestionMasker.mask("How many singers are F, a singer?", schema, "SELECT count(*) FROM singer WHERE is_male = 'F'"));
  }

  @Test
  void aRawNameWithUnderscoresIsMasked() {
    var schema = TestData.schemas().get("student_assessment");
    assertEquals("What are the <mask> of all <mask> with <mask> <unk>?",
        QuestionMasker.mask("What are the ids of all courses with course_id 301?", schema));
  }
}
