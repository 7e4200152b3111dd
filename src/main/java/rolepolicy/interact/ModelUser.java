package rolepolicy.interact;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import rolepolicy.llm.ChatEndpoint;
import rolepolicy.llm.PromptTemplate;

/** A simulated user who answers a clarification question from the gold SQL, through a model. */
public final class ModelUser {
  public static final Set<String> PLACEHOLDERS = Set.of("question", "gold_sql", "clarification");

  private final ChatEndpoint endpoint;
  private final PromptTemplate template;

  public ModelUser(ChatEndpoint endpoint, Path template) {
    this.endpoint = endpoint;
    this.template = PromptTemplate.read(template, PLACEHOLDERS);
  }

  /** The answer and its perplexity (null when the endpoint gave none). */
  public SqlSource.Generation answer(InteractQuestion question, String clarification) {
    ChatEndpoint.Completion c = endpoint.completion(template.render(Map.of(
        "question", question.question(),
        "gold_sql", question.goldSql() == null ? "(no answer: the question is refused)" : question.goldSql(),
        "clarification", clarification)));
    return new SqlSource.Generation(c.text().strip(), c.perplexity());
  }
}
