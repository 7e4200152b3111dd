package rolepolicy.generate;

import rolepolicy.io.DatasetWriter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.File;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.engine.Audit;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.generate.Records.QuestionRecord;
import rolepolicy.spider.Question;

/** A question that repeats a recent one's SQL text and AST reuses its outcome; nothing else does. */
class RepeatedQueryTest {
  private static QuestionGenerator newGenerator() {
    return new QuestionGenerator(
        new QuestionEngine(TestData.rules()), TestData.schemas(), TestData.autoPolicies());
  }

  /** dev.json's third question: SELECT name, country, age FROM singer ORDER BY age DESC. */
  private static Question devQuestion(int index, String text, JsonNode sql) throws IOException {
    JsonNode original =
        DatasetWriter.JSON.readTree(new File(TestData.spiderDir().resolve("dev.json").toString())).get(2);
    return new Question(
        index,
        original.get("db_id").asText(),
        text == null ? original.get("question").asText() : text,
        original.get("query").asText(),
        sql == null ? original.get("sql") : sql);
  }

  @Test
  void aRepeatedQueryGivesTheSameRecordAndAuditAsAFreshGenerator() throws IOException {
    Question first = devQuestion(3, null, null);
    Question repeat = devQuestion(4, "Another wording of the same question", first.sql().deepCopy());

    QuestionGenerator generator = newGenerator();
    QuestionRecord decided = generator.generate("dev_0003", first, new Audit());
    Audit reusedAudit = new Audit();
    QuestionRecord reused = generator.generate("dev_0004", repeat, reusedAudit);
    assertSame(decided.goldLabel(), reused.goldLabel(), "the outcome was reused, not decided again");
    Audit freshAudit = new Audit();
    QuestionRecord fresh = newGenerator().generate("dev_0004", repeat, freshAudit);

    assertEquals(fresh, reused);
    assertFalse(freshAudit.firings().isEmpty());
    assertEquals(freshAudit.firings(), reusedAudit.firings());
  }

  @Test
  void theSameTextWithAnotherAstIsDecidedAgain() throws IOException {
    Question first = devQuestion(3, null, null);
    JsonNode edited = first.sql().deepCopy();
    ((ArrayNode) edited.at("/select/1/2/1/1")).set(1, JsonNodeFactory.instance.numberNode(10));
    Question sameTextOtherAst = devQuestion(4, null, edited);

    QuestionGenerator generator = newGenerator();
    QuestionRecord original = generator.generate("dev_0003", first, null);
    QuestionRecord other = generator.generate("dev_0004", sameTextOtherAst, null);

    assertNotEquals(original.goldLabel(), other.goldLabel());
    assertNotSame(original.goldLabel(), other.goldLabel());
    assertEquals(newGenerator().generate("dev_0004", sameTextOtherAst, null), other);
    assertEquals(original, generator.generate("dev_0003", first, null));
  }

  @Test
  void anOutcomeDecidedWithoutAnAuditIsDecidedAgainWhenAnAuditIsAsked() throws IOException {
    Question question = devQuestion(3, null, null);
    QuestionGenerator generator = newGenerator();
    generator.generate("dev_0003", question, null);

    Audit audit = new Audit();
    generator.generate("dev_0003", question, audit);
    Audit fresh = new Audit();
    newGenerator().generate("dev_0003", question, fresh);

    assertFalse(audit.firings().isEmpty());
    assertEquals(fresh.firings(), audit.firings());
  }
}
