package rolepolicy.casebank;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import rolepolicy.llm.ModelAnswer;
import rolepolicy.llm.PromptTemplate;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;
import rolepolicy.sql.SqlEdits;

/**
 * One few-shot prompt per question: the schema with each column's policy, the retrieved examples,
 * the question and the answer format, through a template file read at run time.
 */
public final class PromptWriter {
  /** {@code policy_rules}, the profile's policy text, is filled in once per run ({@link PromptTemplate#with}). */
  public static final Set<String> PLACEHOLDERS = Set.of("schema", "examples", "question", "policy_rules");

  /** One line of the prompts file. */
  @JsonPropertyOrder({"id", "db_id", "prompt", "examples", "retrieval"})
  public record PromptLine(String id, @JsonProperty("db_id") String dbId, String prompt, List<Example> examples,
      String retrieval) {}

  /** An example used: its case id and type ({@code specific} or {@code skeleton}). */
  public record Example(String id, String type) {}

  private final CaseBank bank;
  private final PromptTemplate template;
  private final CaseBank.Method policy;
  private final int k;
  private final DraftSelection drafts;
  private final SchemaStyle schemaStyle;

  public PromptWriter(CaseBank bank, PromptTemplate template, CaseBank.Method policy, int k, SchemaStyle schemaStyle) {
    this(bank, template, policy, k, null, schemaStyle);
  }

  /** {@code drafts}: how a draft SQL re-selects the examples (two-stage prompts), or null when no draft is given. */
  public PromptWriter(CaseBank bank, PromptTemplate template, CaseBank.Method policy, int k, DraftSelection drafts,
      SchemaStyle schemaStyle) {
    this.bank = bank;
    this.template = template;
    this.policy = policy;
    this.k = k;
    this.drafts = drafts;
    this.schemaStyle = schemaStyle;
  }

  /** The prompt of one question, given its database's schema and final column policies. */
  public PromptLine prompt(String id, String dbId, String question, Schema schema, Map<String, String> policies) {
    return prompt(id, dbId, question, schema, policies, null);
  }

  /** The prompt of one record of a generated split: its question and its columns' final policies. */
  public PromptLine prompt(JsonNode record, Schema schema, String draft) {
    Map<String, String> policies = new LinkedHashMap<>();
    record.path("column_policies").fields().forEachRemaining(e -> policies.put(e.getKey(), e.getValue().asText()));
    return prompt(record.path("id").asText(), record.path("db_id").asText(), record.path("question").asText(), schema,
        policies, draft);
  }

  /** The prompt of one question with its examples chosen again by a draft SQL (null: none, as above). */
  public PromptLine prompt(String id, String dbId, String question, Schema schema, Map<String, String> policies, String draft) {
    boolean bySkeleton = draft != null || policy == CaseBank.Method.SKELETON_VOTE;
    if (bySkeleton && drafts == null) {
      throw new IllegalStateException("a draft or the skeleton vote needs a PromptWriter with a DraftSelection");
    }
    CaseBank.Retrieval retrieval = !bySkeleton ? bank.retrieve(question, dbId, schema, policy, k)
        : drafts.retrieve(question, dbId, schema, policy, k, draft);
    List<Example> used = new ArrayList<>();
    StringBuilder examples = new StringBuilder();
    for (CaseBank.Hit hit : retrieval.hits()) {
      Case c = hit.kase();
      used.add(new Example(c.id(), hit.type()));
      examples.append(example(c, hit.type().equals("specific"))).append("\n\n");
    }
    String prompt = template.render(Map.of(
        "schema", schemaText(schema, policies, schemaStyle),
        "examples", examples.length() == 0 ? "(no examples)" : examples.toString().strip(),
        "question", question));
    return new PromptLine(id, dbId, prompt, used, retrieval.type() + ": " + retrieval.why());
  }

  /**
   * One example: a specific case as its question, the policies of the columns its SQL touches, and
   * its SQL or REFUSE with the reason; a skeleton case the same with its masked question, its
   * columns' placeholders and its skeleton (for REFUSE, the shape of the query it would take).
   */
  static String example(Case c, boolean specific) {
    StringBuilder out = new StringBuilder();
    out.append(specific ? "Question: " + c.question() : "Question (names and values masked): " + c.maskedQuestion())
        .append('\n');
    Map<String, String> policies = specific ? c.policies() : c.shapePolicies();
    if (policies != null && !policies.isEmpty()) {
      List<String> columns = new ArrayList<>();
      policies.forEach((column, policy) -> columns.add(column + " " + policy));
      out.append("Column policies: ").append(String.join(", ", columns)).append('\n');
    }
    if (c.refuse()) {
      if (!specific && !c.skeleton().isEmpty()) {
        out.append("Query it would take: ").append(c.skeleton()).append('\n');
      }
      return out.append("Answer: ").append(ModelAnswer.REFUSE).append(" — ")
          .append(specific ? c.refusal() : c.shapeRefusal()).toString();
    }
    return out.append(specific ? "Answer: " + c.goldSql() : "Answer shape: " + c.skeleton()).toString();
  }

  /** Draft SQL per question from predictions: REFUSE, an empty line or no SQL is no draft (null). */
  public static List<String> drafts(List<String> predictions) {
    return predictions.stream().map(p -> {
      ModelAnswer.Read read = ModelAnswer.read(p);
      return read.kind() == ModelAnswer.Kind.SQL ? read.text() : null;
    }).toList();
  }

  /** Each table with its columns and their policies (a column not in {@code policies} is Public), in the style given. */
  public static String schemaText(Schema schema, Map<String, String> policies, SchemaStyle style) {
    return switch (style) {
      case CREATE_TABLE -> createTables(schema, policies);
      case POLICIES -> policyLines(schema, policies);
    };
  }

  /**
   * One CREATE TABLE per table: each column with its Spider type and its policy as a comment, then
   * the primary key and the foreign keys ({@code FOREIGN KEY (a) REFERENCES t(b)}, one per Spider pair).
   */
  private static String createTables(Schema schema, Map<String, String> policies) {
    StringBuilder out = new StringBuilder();
    for (String table : schema.tables()) {
      List<SchemaColumn> columns = schema.columnsOf(table);
      List<String> keys = new ArrayList<>();
      List<String> primary = columns.stream().filter(SchemaColumn::primaryKey).map(c -> sqlName(c.name())).toList();
      if (!primary.isEmpty()) {
        keys.add("PRIMARY KEY (" + String.join(", ", primary) + ")");
      }
      for (Schema.ForeignKey fk : schema.foreignKeys()) {
        SchemaColumn from = schema.column(fk.column());
        SchemaColumn to = schema.column(fk.references());
        if (from.table().equals(table)) {
          keys.add("FOREIGN KEY (" + sqlName(from.name()) + ") REFERENCES " + sqlName(to.table()) + "(" + sqlName(to.name()) + ")");
        }
      }
      out.append("CREATE TABLE ").append(sqlName(table)).append(" (\n");
      for (int i = 0; i < columns.size(); i++) {
        SchemaColumn c = columns.get(i);
        out.append("  ").append(sqlName(c.name())).append(c.type().isEmpty() ? "" : " " + c.type())
            .append(i < columns.size() - 1 || !keys.isEmpty() ? "," : "")
            .append(" -- ").append(policies.getOrDefault(c.key(), "Public")).append('\n');
      }
      for (int i = 0; i < keys.size(); i++) {
        out.append("  ").append(keys.get(i)).append(i < keys.size() - 1 ? "," : "").append('\n');
      }
      out.append(");\n");
    }
    return out.toString().strip();
  }

  /** A name as SQLite reads it: bare when it can be, else double-quoted. */
  private static String sqlName(String name) {
    return SqlEdits.bareName(name) ? name : "\"" + name.replace("\"", "\"\"") + "\"";
  }

  /** {@code singer(singer_id JoinOnly, name Public, …)}, one line per table. */
  private static String policyLines(Schema schema, Map<String, String> policies) {
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
