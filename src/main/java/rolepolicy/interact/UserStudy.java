package rolepolicy.interact;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import rolepolicy.llm.PromptTemplate;
import rolepolicy.io.InputException;
import rolepolicy.io.JsonFiles;

/**
 * The paper's user study ({@code ../shared/sphinteract/user_study.json}: 64 KaggleDBQA questions,
 * the SQL users wrote for each, and the clarification questions and answers that settle them) as
 * few-shot examples: a question's examples are the study's questions nearest to it by the cosine
 * similarity of their sentence embeddings, most similar first (ties: the earlier in the file). A
 * question of the study is never its own example (same database, same words up to case and spaces).
 */
public final class UserStudy {
  /** The placeholders of the example template ({@code interact-example.txt}). */
  public static final Set<String> PLACEHOLDERS = Set.of("question", "db", "type", "reason", "sqls", "clarifications");

  /** One question of the study. */
  record Item(int index, String db, String question, String type, String reason, List<String> sqls,
      List<String> asked, List<String> answers, float[] vector) {}

  private final Path file;
  private final List<Item> items;
  private final Function<String, float[]> embed;
  private final Map<Integer, List<QuestionLog.Example>> chosen = new ConcurrentHashMap<>();

  private UserStudy(Path file, List<Item> items, Function<String, float[]> embed) {
    this.file = file;
    this.items = items;
    this.embed = embed;
  }

  /** Reads the study and embeds its questions with {@code embed}. */
  public static UserStudy read(Path file, Function<String, float[]> embed) {
    JsonNode all = JsonFiles.read(file);
    if (!all.isArray() || all.isEmpty()) {
      throw new InputException(file + ": expected the user study, an array of questions");
    }
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      JsonNode n = all.get(i);
      if (!n.path("nl").isTextual() || !n.path("db").isTextual()) {
        throw new InputException(file + ": question #" + (i + 1) + " has no 'nl' or 'db'");
      }
      String nl = n.get("nl").asText();
      items.add(new Item(i, n.get("db").asText(), nl, n.path("Type").asText(""), n.path("Reason").asText(""),
          texts(n.get("sql")), texts(n.get("Question2Ask")), texts(n.get("Answer2Question")), embed.apply(nl)));
    }
    return new UserStudy(file, items, embed);
  }

  public Path file() {
    return file;
  }

  public int size() {
    return items.size();
  }

  /** The {@code k} examples of a question, most similar first; the same on every call. */
  public List<QuestionLog.Example> examples(InteractQuestion q, int k) {
    return chosen.computeIfAbsent(q.index(), i -> nearest(q, k));
  }

  private List<QuestionLog.Example> nearest(InteractQuestion q, int k) {
    float[] v = embed.apply(q.question());
    String own = normal(q.question());
    record Scored(Item item, double similarity) {}
    return items.stream()
        .filter(it -> !(it.db().equalsIgnoreCase(q.dbId()) && normal(it.question()).equals(own)))
        .map(it -> new Scored(it, cosine(v, it.vector())))
        .sorted(Comparator.comparingDouble(Scored::similarity).reversed().thenComparingInt(s -> s.item().index()))
        .limit(k)
        .map(s -> new QuestionLog.Example(s.item().index(), s.item().db(), s.item().question(),
            Math.round(s.similarity() * 1e6) / 1e6))
        .toList();
  }

  /** The examples as the prompts show them: each through the example template, one after another. */
  public String render(List<QuestionLog.Example> examples, PromptTemplate template) {
    List<String> parts = new ArrayList<>();
    for (QuestionLog.Example e : examples) {
      Item it = items.get(e.index());
      StringBuilder cqas = new StringBuilder();
      for (int i = 0; i < it.asked().size(); i++) {
        cqas.append("Question: ").append(it.asked().get(i)).append("\nAnswer: ")
            .append(i < it.answers().size() ? it.answers().get(i) : "(none)").append("\n");
      }
      parts.add(template.render(Map.of(
          "question", it.question(),
          "db", it.db(),
          "type", it.type(),
          "reason", it.reason(),
          "sqls", String.join("\n", distinct(it.sqls())),
          "clarifications", cqas.isEmpty() ? "(none asked: the question is clear)" : cqas.toString().strip())).strip());
    }
    return String.join("\n\n", parts);
  }

  /** The SQL variants without repeats that differ only in case, spaces or a final semicolon. */
  private static List<String> distinct(List<String> sqls) {
    Map<String, String> seen = new java.util.LinkedHashMap<>();
    for (String s : sqls) {
      seen.putIfAbsent(normal(s.strip().replaceAll(";\\s*$", "")), s.strip());
    }
    return new ArrayList<>(new LinkedHashSet<>(seen.values()));
  }

  private static List<String> texts(JsonNode n) {
    List<String> out = new ArrayList<>();
    if (n != null && n.isArray()) {
      n.forEach(x -> out.add(x.asText()));
    }
    return out;
  }

  private static String normal(String s) {
    return s.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
  }

  static double cosine(float[] a, float[] b) {
    double dot = 0;
    double na = 0;
    double nb = 0;
    for (int i = 0; i < a.length; i++) {
      dot += a[i] * b[i];
      na += a[i] * a[i];
      nb += b[i] * b[i];
    }
    return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
  }
}
