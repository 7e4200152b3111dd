package rolepolicy.interact;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import rolepolicy.interact.QuestionLog.CqEntry;

/** A clarification entry is read back as written (a resumed run reads its progress file). */
class QuestionLogJsonTest {
  @Test
  void aClarificationWithEditsNotOfferedReadsBackAsWritten() throws Exception {
    ObjectMapper json = new ObjectMapper();
    CqEntry entry = new CqEntry(0, 0, "rules", "q?", List.of(new QuestionLog.Option("REFUSE", "No answer", "r")), "ask", null,
        List.of(new QuestionLog.NotOffered("R1", "Propose R1", "the edited text violates [t.a_id SelectExpr JoinOnly]")));
    String text = json.writeValueAsString(entry);
    assertEquals(entry, json.readValue(text, CqEntry.class));
    CqEntry model = new CqEntry(1, 2, "model", "which?", null, null);
    assertEquals("{\"order\":1,\"round\":2,\"asked_by\":\"model\",\"question\":\"which?\"}", json.writeValueAsString(model));
    assertEquals(model, json.readValue(json.writeValueAsString(model), CqEntry.class));
  }
}
