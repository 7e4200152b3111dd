package rolepolicy.skeleton;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/** What of a schema and of a query survives in a masked question: names, their spoken forms, values. */
class QuestionLeakCheckTest {
  private static final Schema SCHEMA =
      new Schema(
          "leaky",
          List.of("singer", "concert"),
          List.of(
              new SchemaColumn("leaky", 0, "", "*", "text", false),
              new SchemaColumn("leaky", 1, "singer", "Singer_ID", "number", true),
              new SchemaColumn("leaky", 2, "singer", "Home_Town", "text", false),
              new SchemaColumn("leaky", 3, "concert", "From", "text", false),
              new SchemaColumn("leaky", 4, "concert", "is_a", "text", false)));

  private static final String SQL =
      "SELECT count(*) FROM singer WHERE Home_Town = 'France' OR Home_Town LIKE \"%John F Kennedy%\" OR Singer_ID > 30";

  private static List<String> leaks(String question) {
    return LeakCheck.questionLeaks(question, SCHEMA, SQL);
  }

  @Test
  void aMaskedQuestionLeaksNothing() {
    assertEquals(List.of(), leaks("How many <mask> have a <mask> <mask> of <unk>, from <unk> or over <unk>?"));
  }

  @Test
  void aNameLeaksAsWrittenOrSpokenInAnyCase() {
    assertEquals(List.of("table singer", "column Singer_ID"), leaks("Which SINGER has the singer_id?"));
    assertEquals(List.of("column Home_Town"), leaks("What is the <mask>'s home town?"));
    assertEquals(List.of(), leaks("What is the <mask> of <mask> singers?"), "a plural is the masker's business, not a name");
  }

  @Test
  void aNameOfFunctionWordsOrSingleLettersIsGrammar() {
    assertEquals(List.of(), leaks("Which <mask> is a <mask> from <unk>?"));
  }

  @Test
  void aValueLeaksAsAWholeWordOrPhraseWithoutItsWildcards() {
    assertEquals(List.of("literal France", "literal John F Kennedy", "literal 30"),
        leaks("Which <mask> are from france, or from John F Kennedy, or over 30?"));
    assertEquals(List.of(), leaks("Which <mask> are French, or over 300?"));
  }

  @Test
  void aOneCharacterValueLeaksOnlyAsWritten() {
    String sql = "SELECT count(*) FROM singer WHERE Home_Town = 'F'";
    assertEquals(List.of(), LeakCheck.questionLeaks("How many are from f, or a?", SCHEMA, sql));
    assertEquals(List.of("literal F"), LeakCheck.questionLeaks("How many are from F?", SCHEMA, sql));
  }

  @Test
  void literalTextsAreTheValuesAQuestionWouldWrite() {
    assertEquals(List.of("France", "John F Kennedy", "30"), LeakCheck.literalTexts(SQL));
  }
}
