package rolepolicy.interact;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import rolepolicy.llm.ChatEndpoint;
import rolepolicy.llm.ModelAnswer;
import rolepolicy.llm.PromptTemplate;

/**
 * A model behind an OpenAI-compatible endpoint writes each round's SQL, repairs failing SQL and, by
 * the clarification-question method, asks the clarification questions, from prompt templates read
 * at start-up. The baseline method asks none: each later round's prompt shows the SQL written before
 * (wrong) and asks again. Either may show user-study examples (few-shot).
 */
public final class ModelSource implements SqlSource {
  /** The placeholders every template may use. */
  public static final Set<String> PLACEHOLDERS = Set.of(
      "schema", "policies", "question", "evidence", "sqls", "clarifications", "sql", "error", "no_ambiguity", "examples");

  /** The paper's methods: rounds after a wrong one without a question, or with one. */
  public enum Method {
    BASELINE, QUESTIONS;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * The template files of a model source, in one folder; {@code policies} renders a policy dataset's
   * column policies; {@code baseline} (the baseline's later rounds) and {@code example} (one
   * user-study example) are null when not used.
   */
  public record Templates(PromptTemplate generate, PromptTemplate repair, PromptTemplate ask, PromptTemplate policies,
      PromptTemplate baseline, PromptTemplate example) {
    public Templates(PromptTemplate generate, PromptTemplate repair, PromptTemplate ask, PromptTemplate policies) {
      this(generate, repair, ask, policies, null, null);
    }

    public static Templates read(Path folder, String policyRules) {
      return read(folder, Method.QUESTIONS, false, policyRules);
    }

    /**
     * The templates a method needs, and the example template when examples are shown;
     * {@code policyRules} is the profile's policy text ({@code {{policy_rules}}}).
     */
    public static Templates read(Path folder, Method method, boolean examples, String policyRules) {
      return new Templates(
          PromptTemplate.read(folder.resolve("interact-generate.txt"), PLACEHOLDERS),
          PromptTemplate.read(folder.resolve("interact-repair.txt"), PLACEHOLDERS),
          PromptTemplate.read(folder.resolve("interact-ask.txt"), PLACEHOLDERS),
          PromptTemplate.read(folder.resolve("interact-policies.txt"), Set.of("column_policies", "policy_rules"))
              .with("policy_rules", policyRules),
          method == Method.BASELINE ? PromptTemplate.read(folder.resolve("interact-baseline.txt"), PLACEHOLDERS) : null,
          examples ? PromptTemplate.read(folder.resolve("interact-example.txt"), UserStudy.PLACEHOLDERS) : null);
    }
  }

  /** The user-study examples shown (few-shot): {@code shots} per question, 0 for none. */
  public record Shots(UserStudy study, int shots) {
    public static final Shots NONE = new Shots(null, 0);
  }

  /** Round 0's answer text of a question, or null to write it from the generate template. */
  public interface RoundZero {
    /** The round-0 answer, or null to have the generate template give it. */
    Generation answer(InteractQuestion question);

    /** How the round-0 answers are named in the output. */
    String describe();
  }

  private final ChatEndpoint endpoint;
  private final Templates templates;
  private final Function<String, String> schemaOf;
  private final Function<InteractQuestion, String> policiesOf;
  private final RoundZero roundZero;
  private final Method method;
  private final Shots shots;

  /** {@code schemaOf} gives a database's schema as the prompts show it (its CREATE TABLE statements). */
  public ModelSource(ChatEndpoint endpoint, Templates templates, Function<String, String> schemaOf) {
    this(endpoint, templates, schemaOf, q -> null, null);
  }

  public ModelSource(ChatEndpoint endpoint, Templates templates, Function<String, String> schemaOf,
      Function<InteractQuestion, String> policiesOf, RoundZero roundZero) {
    this(endpoint, templates, schemaOf, policiesOf, roundZero, Method.QUESTIONS, Shots.NONE);
  }

  /**
   * {@code policiesOf} gives a question's column policies as {@code table(column policy, …)} lines, or
   * null when it has none; {@code roundZero} gives round 0 (null: the generate template gives it).
   */
  public ModelSource(ChatEndpoint endpoint, Templates templates, Function<String, String> schemaOf,
      Function<InteractQuestion, String> policiesOf, RoundZero roundZero, Method method, Shots shots) {
    if (method == Method.BASELINE && templates.baseline() == null || shots.shots() > 0 && templates.example() == null) {
      throw new IllegalArgumentException("the baseline needs its template, examples theirs");
    }
    this.method = method;
    this.shots = shots;
    this.endpoint = endpoint;
    this.templates = templates;
    this.schemaOf = schemaOf;
    this.policiesOf = policiesOf;
    this.roundZero = roundZero;
  }

  @Override
  public Generation generate(InteractQuestion question, Conversation conversation) {
    if (conversation.round() == 0 && conversation.sqls().isEmpty() && roundZero != null) {
      Generation answer = roundZero.answer(question);
      if (answer != null) {
        return answer;
      }
    }
    // round 0 is the same for both methods; the baseline's later rounds show the wrong SQL and ask again
    PromptTemplate template = method == Method.BASELINE && conversation.round() > 0 ? templates.baseline() : templates.generate();
    return complete(template.render(values(question, conversation)));
  }

  @Override
  public Generation repair(InteractQuestion question, Conversation conversation, String failed, String error) {
    Map<String, String> values = values(question, conversation);
    values.put("sql", failed);
    values.put("error", error);
    return complete(templates.repair().render(values));
  }

  /** By the clarification-question method, the model's question or {@link #NO_AMBIGUITY}; the baseline asks none. */
  @Override
  public Generation ask(InteractQuestion question, Conversation conversation) {
    if (method == Method.BASELINE) {
      return null;
    }
    ChatEndpoint.Completion c = endpoint.completion(templates.ask().render(values(question, conversation)));
    String answer = c.text().strip();
    return new Generation(ModelAnswer.isMarker(answer, NO_AMBIGUITY) ? NO_AMBIGUITY : answer, c.perplexity());
  }

  @Override
  public List<QuestionLog.Example> examples(InteractQuestion question) {
    return shots.shots() == 0 ? null : shots.study().examples(question, shots.shots());
  }

  private Generation complete(String prompt) {
    return generation(endpoint.completion(prompt));
  }

  /** A model's answer as a generation: its text, perplexity, and whether it was cut off at the token limit. */
  public static Generation generation(ChatEndpoint.Completion c) {
    return new Generation(c.text(), c.perplexity(), ModelAnswer.read(c.text(), c.finishReason()).kind() == ModelAnswer.Kind.TRUNCATED);
  }

  @Override
  public boolean modelAnswers() {
    return true;
  }

  @Override
  public String describe() {
    return "model " + endpoint.settings().describe() + ", method " + method.label()
        + (shots.shots() == 0 ? ", zero-shot" : ", " + shots.shots() + "-shot from " + shots.study().file())
        + (endpoint.asksLogprobs() ? "" : ", no log-probabilities")
        + (roundZero == null ? "" : ", round 0 " + roundZero.describe());
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
    values.put("examples", shots.shots() == 0 ? "" : shots.study().render(examples(question), templates.example()));
    return values;
  }
}
