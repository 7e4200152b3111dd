package rolepolicy.generate;

import rolepolicy.io.DatasetWriter;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rolepolicy.engine.Audit;
import rolepolicy.engine.RuleBase.RuleName;
import rolepolicy.io.InputException;

/**
 * The audit trail that {@code generate} writes beside its outputs: {@code audit/<split>.jsonl},
 * one line per question with every rule firing, and {@code audit/rules.json}, every rule of the
 * rule base that made them. {@code diff}, {@code report} and the audit page read it back.
 */
public final class AuditTrail {
  public static final String FOLDER = "audit";
  public static final String RULES_FILE = "rules.json";

  private AuditTrail() {}

  public static Path splitFile(Path dataDir, String split) {
    return dataDir.resolve(FOLDER).resolve(split + ".jsonl");
  }

  public static Path rulesFile(Path dataDir) {
    return dataDir.resolve(FOLDER).resolve(RULES_FILE);
  }

  /** One audit line read back. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Line(String id, @JsonProperty("db_id") String dbId, List<Audit.Firing> firings) {
    public Line {
      firings = firings == null ? List.of() : List.copyOf(firings);
    }
  }

  /** Writes the rule list: {@code [{"file": ..., "rule": ...}]}, by file, in file order. */
  public static void writeRules(List<RuleName> rules, Path file) {
    DatasetWriter.write(file, rules);
  }

  private static final ObjectReader LINE = DatasetWriter.JSON.readerFor(Line.class);

  /** The audit lines of a split by id, in file order; empty when the folder has no audit file. */
  public static Map<String, Line> read(Path dataDir, String split) {
    Path file = splitFile(dataDir, split);
    Map<String, Line> lines = new LinkedHashMap<>();
    if (!Files.isRegularFile(file)) {
      return lines;
    }
    try (BufferedReader reader = Files.newBufferedReader(file)) {
      int number = 0;
      for (String text = reader.readLine(); text != null; text = reader.readLine()) {
        number++;
        if (text.isBlank()) {
          continue;
        }
        Line line;
        try {
          line = LINE.readValue(text);
        } catch (IOException e) {
          throw new InputException(file + ":" + number + ": not an audit line (" + e.getMessage().lines().findFirst().orElse("") + ")", e);
        }
        if (line.id() == null) {
          throw new InputException(file + ":" + number + ": audit line without id");
        }
        lines.put(line.id(), line);
      }
    } catch (IOException e) {
      throw new InputException(file + ": cannot read (" + InputException.reason(file, e) + ")", e);
    }
    return lines;
  }

  /** The rules of the rule base that generated the folder; null when it has no rule list. */
  public static List<RuleName> readRules(Path dataDir) {
    Path file = rulesFile(dataDir);
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try {
      return DatasetWriter.JSON.readValue(file.toFile(), new TypeReference<List<RuleName>>() {});
    } catch (IOException e) {
      throw new InputException(file + ": not a rule list (" + e.getMessage().lines().findFirst().orElse("") + ")", e);
    }
  }
}
