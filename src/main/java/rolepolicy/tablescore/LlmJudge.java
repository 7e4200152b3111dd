package rolepolicy.tablescore;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import rolepolicy.io.OutputGuard;
import rolepolicy.llm.ChatEndpoint;
import rolepolicy.llm.PromptTemplate;
import rolepolicy.io.InputException;

/**
 * A judge that asks a model whether two cells mean the same, with the attribute's description in
 * the prompt (an editable template). Cells the deterministic judge finds equal, and pairs where one
 * side is empty, are decided without a request. Every answer is kept in a cache file (JSON Lines)
 * under the model, the template's text, the attribute and the two values: a rerun asks nothing twice.
 */
public final class LlmJudge implements CellJudge, AutoCloseable {
  /** The placeholders a judge template may use. */
  public static final Set<String> PLACEHOLDERS = Set.of("attribute", "description", "value_type", "gold", "result");

  @JsonPropertyOrder({"key", "attribute", "gold", "result", "same"})
  record Cached(String key, String attribute, String gold, String result, boolean same) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ChatEndpoint endpoint;
  private final PromptTemplate template;
  private final CellJudge first;
  private final Path cacheFile;
  private final Map<String, Boolean> cache = new HashMap<>();
  private BufferedWriter cacheWriter;
  private int requests;

  public LlmJudge(ChatEndpoint endpoint, PromptTemplate template, CellJudge first, Path cacheFile) {
    this.endpoint = endpoint;
    this.template = template;
    this.first = first;
    this.cacheFile = cacheFile;
    load();
  }

  /** Whether the cache file holds this tool's earlier judgements, appended to (else it is written anew). */
  private boolean continued;

  private void load() {
    continued = OutputGuard.current().continueLog(cacheFile);
    if (!continued || !Files.isRegularFile(cacheFile)) {
      return;
    }
    try {
      for (String line : Files.readAllLines(cacheFile, StandardCharsets.UTF_8)) {
        try {
          Cached c = JSON.readValue(line, Cached.class);
          cache.put(c.key(), c.same());
        } catch (IOException e) {
          // a line cut short when an earlier run stopped: that judgement is asked again
        }
      }
    } catch (IOException e) {
      throw new InputException(cacheFile + ": cannot read the judge cache (" + InputException.reason(e) + ")", e);
    }
  }

  @Override
  public boolean same(ScoredColumn column, Object gold, Object result) {
    if (first.same(column, gold, result)) {
      return true;
    }
    String g = CellText.text(gold);
    String r = CellText.text(result);
    if (g == null || r == null) {
      return false;
    }
    String attribute = column.name();
    String key = key(attribute, g, r);
    Boolean known = cache.get(key);
    if (known != null) {
      return known;
    }
    String answer = endpoint.complete(template.render(Map.of(
        "attribute", attribute,
        "description", column.description() == null ? "" : column.description(),
        "value_type", column.valueType() == null ? "" : column.valueType(),
        "gold", g,
        "result", r)));
    requests++;
    boolean same = verdict(answer, attribute);
    cache.put(key, same);
    remember(new Cached(key, attribute, g, r, same));
    return same;
  }

  /** YES or NO, the first word of the answer (case and punctuation aside). */
  static boolean verdict(String answer, String attribute) {
    String word = answer.replaceFirst("^[^A-Za-z]+", "").split("[^A-Za-z]+", 2)[0].toUpperCase(Locale.ROOT);
    return switch (word) {
      case "YES" -> true;
      case "NO" -> false;
      default -> throw new JudgeException("the judge's answer for " + attribute + " is not YES or NO: '"
          + abbreviate(answer) + "'");
    };
  }

  private String key(String attribute, String gold, String result) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      // the endpoint's URL and the request's settings (model, temperature, …): another judge is other judgements
      String judge = endpoint.url() + " " + endpoint.requestBody(List.of());
      for (String part : List.of(judge, template.text(), attribute, gold, result)) {
        sha.update(part.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private void remember(Cached judgement) {
    try {
      if (cacheWriter == null) {
        if (cacheFile.toAbsolutePath().getParent() != null) {
          Files.createDirectories(cacheFile.toAbsolutePath().getParent());
        }
        OutputGuard.recordLog(cacheFile);
        cacheWriter = Files.newBufferedWriter(cacheFile, StandardCharsets.UTF_8,
            StandardOpenOption.CREATE, continued ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING);
      }
      cacheWriter.write(JSON.writeValueAsString(judgement));
      cacheWriter.newLine();
      cacheWriter.flush();
    } catch (IOException e) {
      throw new InputException(cacheFile + ": cannot write the judge cache (" + InputException.reason(e) + ")", e);
    }
  }

  /** Requests sent to the endpoint so far (cached and deterministic decisions send none). */
  public int requests() {
    return requests;
  }

  private static String abbreviate(String s) {
    String line = s.strip().replace('\n', ' ');
    return line.length() > 80 ? line.substring(0, 80) + "…" : line;
  }

  @Override
  public void close() {
    if (cacheWriter != null) {
      try {
        cacheWriter.close();
      } catch (IOException e) {
        // every line was flushed when written
      }
    }
  }
}
