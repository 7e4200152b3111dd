package rolepolicy.interact;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import rolepolicy.llm.ChatEndpoint;
import rolepolicy.llm.ModelAnswer;
import rolepolicy.llm.PromptTemplate;

/**
 * A model behind an OpenAI-compatible endpoint writes each round's SQL, repairs failing SQL and asks
 * the clarification questions, from prompt templates read at start-up.
 */
public final class ModelSource implements SqlSource {
  /** The placeholders every template may use. */
  public static final Set<String> PLACEHOLDERS = Set.of(
      "schema", "policies", "question", "evidence", "sqls", "clarifications", "sql", "error", "no_ambiguity");

  /** The template files of a model source, in one folder; {@code policies} renders a policy dataset's column policies. */
  public record Templates(PromptTemplate generate, PromptTemplate repair, PromptTemplate ask, PromptTemplate policies) {
    public static Templates read(Path folder) {
      return new Templates(
          PromptTemplate.read(folder.resolve("interact-generate.txt"), PLACEHOLDERS),
          PromptTemplate.read(folder.resolve("interact-repair.txt"), PLACEHOLDERS),
          PromptTemplate.read(folder.resolve("interact-ask.txt"), PLACEHOLDERS),
          PromptTemplate.read(folder.resolve("interact-policies.txt"), Set.of("column_policies")));
    }
  }

  /** Round 0's answer text of a question, or null to write it from the generate template. */
  public interface RoundZero {
    String answer(InteractQuestion question);

    /** How the round-0 answers are named in the output. */
    String describe();
  }

  private final ChatEndpoint endpoint;
  private final Templates templates;
  private final Function<String, String> schemaOf;
  private final Function<InteractQuestion, String> policiesOf;
  private final RoundZero roundZero;

  /** {@code schemaOf} gives a database's schema as the prompts show it (its CREATE TABLE statements). */
  public ModelSource(ChatEndpoint endpoint, Templates templates, Function<String, String> schemaOf) {
    this(endpoint, templates, schemaOf, q -> null, null);
  }

  /**
   * {@code policiesOf} gives a question's column policies as {@code table(column policy, …)} lines, or
   * null when it has none; {@code roundZero} gives round 0 (null: the generate template gives it).
   */
  public ModelSource(ChatEndpoint endpoint, Templates templates, Function<String, String> schemaOf,
      Function<InteractQuestion, String> policiesOf, RoundZero roundZero) {
    this.endpoint = endpoint;
    this.templates = templates;
    this.schemaOf = schemaOf;
    this.policiesOf = policiesOf;
    this.roundZero = roundZero;
  }

  @Override
  public String generate(InteractQuestion question, Conversation conversation) {
    if (conversation.round() == 0 && conversation.sqls().isEmpty() && roundZero != null) {
      String answer = roundZero.answer(question);
      if (answer != null) {
        return answer;
      }
    }
    return endpoint.complete(templates.generate().render(values(question, conversation)));
  }

  @Override
  public String repair(InteractQuestion question, Conversation conversation, String failed, String error) {
    Map<String, String> values = values(question, conversation);
    values.put("sql", failed);
    values.put("error", error);
    return endpoint.complete(templates.repair().render(values));
  }

  @Override
  public String ask(InteractQuestion question, Conversation conversation) {
    String answer = endpoint.complete(templates.ask().render(values(question, conversation))).strip();
    return ModelAnswer.isMarker(answer, NO_AMBIGUITY) ? NO_AMBIGUITY : answer;
  }

  @Override
  public boolean modelAnswers() {
    return true;
  }

  @Override
  public String describe() {
    return "model " + endpoint.settings().describe() + (roundZero == null ? "" : ", round 0 " + roundZero.describe());
  }

  private Map<String, String> values(InteractQuestion question, Conversation conversation) {
    Map<String, String> values = new HashMap<>();
    values.put("schema", schemaOf.apply(question.dbId()));
    String policies = policiesOf.apply(question);
    values.put("policies", policies == null ? "" : templates.policies().render(Map.of("column_policies", policies)).strip());
    values.put("question", question.question());
    values.put("evidence", question.evidence() == null ? "" : question.evidence());
    values.put("sqls", String.join("\n\n", conversation.sqls()));
    StringBuilder cqas = new StringBuilder();
    for (Conversation.Exchange e : conversation.exchanges()) {
      cqas.append("Question: ").append(e.question()).append("\nAnswer: ").append(e.answer()).append("\n\n");
    }
    values.put("clarifications", cqas.toString().strip());
    values.put("no_ambiguity", NO_AMBIGUITY);
    values.put("sql", conversation.sqls().isEmpty() ? "" : conversation.sqls().get(conversation.sqls().size() - 1));
    values.put("error", "");
    return values;
  }
}
