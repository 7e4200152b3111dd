package rolepolicy.casebank;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import rolepolicy.llm.PromptTemplate;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/**
 * One few-shot prompt per question: the schema with each column's policy, the retrieved examples,
 * the question and the answer format, through a template file read at run time.
 */
public final class PromptWriter {
  public static final Set<String> PLACEHOLDERS = Set.of("schema", "examples", "question");

  /** One line of the prompts file. */
  @JsonPropertyOrder({"id", "db_id", "prompt", "examples", "retrieval"})
  public record PromptLine(String id, @JsonProperty("db_id") String dbId, String prompt, List<Example> examples,
      String retrieval) {}

  /** An example used: its case id and type ({@code specific} or {@code skeleton}). */
  public record Example(String id, String type) {}

  private final CaseBank bank;
  private final PromptTemplate template;
  private final CaseBank.Policy policy;
  private final int k;

  public PromptWriter(CaseBank bank, PromptTemplate template, CaseBank.Policy policy, int k) {
    this.bank = bank;
    this.template = template;
    this.policy = policy;
    this.k = k;
  }

  /** The prompt of one question, given its database's schema and final column policies. */
  public PromptLine prompt(String id, String dbId, String question, Schema schema, Map<String, String> policies) {
    CaseBank.Retrieval retrieval = bank.retrieve(question, dbId, schema, policy, k);
    List<Example> used = new ArrayList<>();
    StringBuilder examples = new StringBuilder();
    for (CaseBank.Hit hit : retrieval.hits()) {
      Case c = hit.kase();
      used.add(new Example(c.id(), hit.type()));
      if (hit.type().equals("specific")) {
        examples.append("Question: ").append(c.question()).append('\n')
            .append("Answer: ").append(c.refuse() ? "REFUSE (" + c.reason() + ")" : c.goldSql()).append("\n\n");
      } else {
        examples.append("Question (names and values masked): ").append(c.maskedQuestion()).append('\n')
            .append("Answer shape: ").append(c.refuse() ? "REFUSE (" + c.reason() + ")" : c.skeleton()).append("\n\n");
      }
    }
    String prompt = template.render(Map.of(
        "schema", schemaText(schema, policies),
        "examples", examples.length() == 0 ? "(no examples)" : examples.toString().strip(),
        "question", question));
    return new PromptLine(id, dbId, prompt, used, retrieval.type() + ": " + retrieval.why());
  }

  /** Each table with its columns and their policies: {@code singer(singer_id JoinOnly, name Public, …)}. */
  static String schemaText(Schema schema, Map<String, String> policies) {
    StringBuilder out = new StringBuilder();
    for (String table : schema.tables()) {
      List<String> columns = new ArrayList<>();
      for (SchemaColumn c : schema.columnsOf(table)) {
        columns.add(c.name() + " " + policies.getOrDefault(c.key(), "Public"));
      }
      out.append(table).append('(').append(String.join(", ", columns)).append(")\n");
    }
    return out.toString().strip();
  }
}
