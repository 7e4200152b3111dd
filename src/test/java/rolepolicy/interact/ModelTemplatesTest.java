package rolepolicy.interact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rolepolicy.llm.ChatEndpoint;
import rolepolicy.llm.LocalChatServer;
import rolepolicy.llm.LocalChatServer.Reply;
import rolepolicy.run.Digest;

/** The shipped templates of {@code interact --model}: what each prompt carries. */
class ModelTemplatesTest {
  private static final Path PROMPTS = Path.of("data/prompts");

  @Test
  void aRepairAfterAClarificationKeepsTheClarification() throws IOException {
    try (LocalChatServer server = new LocalChatServer(r -> Reply.text("SELECT 1"))) {
      ChatEndpoint endpoint = new ChatEndpoint(new ChatEndpoint.Connection(server.baseUrl(), "m", null, 5, 0), Map.of());
      ModelSource source = new ModelSource(endpoint, ModelSource.Templates.read(PROMPTS, rolepolicy.engine.PolicyPromptText.of(rolepolicy.TestData.rules())), db -> "singer(name, age)",
          q -> null, null, ModelSource.Method.QUESTIONS, ModelSource.Shots.NONE);
      Conversation conversation = new Conversation();
      conversation.sqls().add("SELECT nme FROM singer");
      conversation.exchanges().add(new Conversation.Exchange("Which singers? A) all B) the French ones", "B) the French ones"));
      InteractQuestion question = new InteractQuestion(0, "q0", "concert_singer", "Name the singers.", null, null, null);
      source.repair(question, conversation, "SELECT nme FROM singer", "no such column: nme");
      String prompt = server.requests().get(0).prompt();
      assertTrue(prompt.contains("Which singers? A) all B) the French ones\nAnswer: B) the French ones"), prompt);
      assertTrue(prompt.contains("no such column: nme"), prompt);
    }
  }

  @Test
  void theGenerationAndBaselinePromptsDoNotCallEveryEarlierQueryAWrongResult() throws IOException {
    for (String name : List.of("interact-generate.txt", "interact-baseline.txt")) {
      String text = Files.readString(PROMPTS.resolve(name));
      assertTrue(text.contains("{{sqls}}"), name);
      assertTrue(!text.contains("gave a wrong result"), name + ": an earlier query may have broken a policy and never run:\n" + text);
      assertTrue(text.contains("or a column used\nagainst its policy"), name);
    }
  }

  @Test
  void editingAnyTemplateChangesThePromptsDigest(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
    for (Path file : Files.newDirectoryStream(PROMPTS, "*.txt")) {
      Files.copy(file, dir.resolve(file.getFileName()));
    }
    String before = Digest.templates(dir);
    assertEquals(before, Digest.templates(dir), "the same files, the same digest");
    Path ask = dir.resolve("interact-ask.txt");
    Files.writeString(ask, Files.readString(ask) + "\nBe brief.\n");
    assertTrue(!before.equals(Digest.templates(dir)));
  }
}
