package rolepolicy.report;

import rolepolicy.html.Html;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import rolepolicy.report.Counts.Counter;
import rolepolicy.report.QaFigures.Check;
import rolepolicy.report.QaFigures.Distribution;
import rolepolicy.report.QaFigures.PolicyFigures;
import rolepolicy.io.InputException;

/** The policy distribution over the policy files {@code policies/<db_id>.json} (SPEC §3). */
public final class PolicyQa {
  static final List<String> POLICIES = List.of("Public", "JoinOnly", "AggOnly", "Hidden");

  /** SPEC §3's figures for Spider's tables.json, percent. */
  static final Map<String, Double> EXPECTED =
      Map.of("Public", 63.2, "JoinOnly", 28.1, "AggOnly", 2.7, "Hidden", 6.0);

  static final int EXPECTED_COLUMNS = 4503;
  static final double EXPECTED_TABLES_HIDDEN = 17.1;
  static final double EXPECTED_TABLES_AGGONLY = 11.3;
  static final double EXPECTED_DATABASES_EITHER = 76.5;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One column of a policy file; {@code overrideRule} is empty when no override applies. */
  public record Column(
      String db, String table, String key, String auto, String autoRule, String fin, String overrideRule) {}

  private final List<Column> columns;
  private final String source;

  private PolicyQa(String source, List<Column> columns) {
    this.source = source;
    this.columns = columns;
  }

  /** Reads every {@code *.json} of the folder, in name order. */
  public static PolicyQa read(Path policiesDir) {
    if (!Files.isDirectory(policiesDir)) {
      throw new InputException(policiesDir + ": folder not found (the policy files of a generated dataset)");
    }
    List<Path> files;
    try (Stream<Path> list = Files.list(policiesDir)) {
      files = list.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
    } catch (IOException e) {
      throw new InputException(policiesDir + ": cannot list (" + InputException.reason(e) + ")", e);
    }
    if (files.isEmpty()) {
      throw new InputException(policiesDir + ": no policy files (<db_id>.json)");
    }
    List<Column> columns = new ArrayList<>();
    for (Path file : files) {
      JsonNode root;
      try {
        root = JSON.readTree(file.toFile());
      } catch (IOException e) {
        throw new InputException(file + ": cannot read as JSON (" + InputException.reason(e) + ")", e);
      }
      String db = text(root, "db_id", file);
      JsonNode list = root.get("columns");
      if (list == null || !list.isArray()) {
        throw new InputException(file + ": missing 'columns' list");
      }
      for (JsonNode c : list) {
        columns.add(
            new Column(
                db,
                text(c, "table", file).toLowerCase(Locale.ROOT),
                text(c, "column", file),
                text(c, "auto_policy", file),
                c.path("auto_rule").asText(""),
                text(c, "final_policy", file),
                c.path("override_rule").asText("")));
      }
    }
    return new PolicyQa(policiesDir.toString(), columns);
  }

  private static String text(JsonNode node, String field, Path file) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw new InputException(file + ": missing text field '" + field + "'");
    }
    return value.asText();
  }

  /** Every column of the policy files, in file and column order. */
  public List<Column> columns() {
    return columns;
  }

  /** db_id → column key → final policy. */
  public Map<String, Map<String, String>> finalPolicies() {
    Map<String, Map<String, String>> result = new TreeMap<>();
    columns.forEach(c -> result.computeIfAbsent(c.db(), k -> new LinkedHashMap<>()).put(c.key(), c.fin()));
    return result;
  }

  public PolicyFigures figures() {
    Set<String> databases = new HashSet<>();
    Set<String> tables = new HashSet<>();
    Counter byRule = new Counter();
    Counter overrides = new Counter();
    for (Column c : columns) {
      databases.add(c.db());
      tables.add(c.db() + "\u0000" + c.table());
      byRule.add(c.autoRule());
      if (!c.auto().equals(c.fin())) {
        overrides.add(c.auto() + " → " + c.fin());
      }
    }
    Distribution auto = distribution(true);
    Distribution fin = distribution(false);
    if (columns.size() != EXPECTED_COLUMNS) {
      String notCompared = String.format(
          Locale.ROOT,
          "SPEC §3's figures are for the %s columns of Spider's tables.json; these %s columns are another schema"
              + " (or part of Spider's), so their shares are not compared with SPEC's.",
          Html.number(EXPECTED_COLUMNS), Html.number(columns.size()));
      return new PolicyFigures(source, databases.size(), tables.size(), columns.size(), auto, fin, byRule.byCount(),
          overrides.byCount(), List.of(), notCompared);
    }
    List<Check> checks = new ArrayList<>();
    checks.add(
        new Check(
            "policy.columns", "columns in the policy files", columns.size(), 0, columns.size(),
            Html.number(EXPECTED_COLUMNS), EXPECTED_COLUMNS, EXPECTED_COLUMNS, true, null, null));
    for (String policy : POLICIES) {
      checks.add(
          share(
              "policy.auto." + policy.toLowerCase(Locale.ROOT),
              "columns " + policy + " (automatic policy)",
              auto.columns().get(policy),
              columns.size(),
              EXPECTED.get(policy)));
    }
    checks.add(share("policy.auto.tables_hidden", "tables with a Hidden column", auto.tablesWithHidden(), tables.size(), EXPECTED_TABLES_HIDDEN));
    checks.add(share("policy.auto.tables_aggonly", "tables with an AggOnly column", auto.tablesWithAggOnly(), tables.size(), EXPECTED_TABLES_AGGONLY));
    checks.add(
        share("policy.auto.databases_either", "databases with a Hidden or AggOnly column", auto.databasesWithHiddenOrAggOnly(), databases.size(), EXPECTED_DATABASES_EITHER));
    List<Check> explained = new ArrayList<>();
    for (Check c : checks) {
      explained.add(c.inRange() ? c : SplitQa.withExplanation(c, explain(c, auto, tables.size(), databases.size()), null));
    }
    return new PolicyFigures(
        source, databases.size(), tables.size(), columns.size(), auto, fin, byRule.byCount(), overrides.byCount(), explained, null);
  }

  /** In range when the share, rounded to one decimal as SPEC states it, equals SPEC's. */
  private static Check share(String id, String label, int count, int total, double expected) {
    double value = Counts.percent(count, total);
    return new Check(
        id, label, count, total, value, String.format(Locale.ROOT, "%.1f %%", expected),
        expected - 0.05, expected + 0.05, Math.abs(value - expected) < 0.05 + 1e-9, null, null);
  }

  /** Why one share differs from SPEC §3's, in words of its own: no two checks share a sentence. */
  private String explain(Check c, Distribution auto, int tables, int databases) {
    String id = c.id().substring("policy.auto.".length());
    return switch (id) {
      case "tables_hidden" -> String.format(Locale.ROOT, "The %s Hidden columns lie in %s of the %s tables.",
          Html.number(auto.columns().get("Hidden")), Html.number(auto.tablesWithHidden()), Html.number(tables));
      case "tables_aggonly" -> String.format(Locale.ROOT, "The %s AggOnly columns lie in %s of the %s tables.",
          Html.number(auto.columns().get("AggOnly")), Html.number(auto.tablesWithAggOnly()), Html.number(tables));
      case "databases_either" -> String.format(Locale.ROOT, "%s of the %s databases hold neither a Hidden nor an AggOnly column.",
          Html.number(databases - auto.databasesWithHiddenOrAggOnly()), Html.number(databases));
      default -> {
        String policy = POLICIES.stream().filter(p -> p.toLowerCase(Locale.ROOT).equals(id)).findFirst().orElseThrow();
        Counter byRule = new Counter();
        columns.stream().filter(col -> col.auto().equals(policy)).forEach(col -> byRule.add(col.autoRule()));
        yield "The naming rules of rules/policy.drl make " + Html.number(auto.columns().get(policy)) + " columns "
            + policy + ": " + byRule.byCount().entrySet().stream()
                .map(e -> e.getKey() + " " + Html.number(e.getValue()))
                .reduce((a, b) -> a + "; " + b)
                .orElse("none")
            + ".";
      }
    };
  }

  private Distribution distribution(boolean automatic) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    POLICIES.forEach(p -> counts.put(p, 0));
    Set<String> hiddenTables = new HashSet<>();
    Set<String> aggOnlyTables = new HashSet<>();
    Set<String> restrictedDbs = new HashSet<>();
    for (Column c : columns) {
      String policy = automatic ? c.auto() : c.fin();
      counts.merge(policy, 1, Integer::sum);
      String table = c.db() + "\u0000" + c.table();
      if ("Hidden".equals(policy)) {
        hiddenTables.add(table);
        restrictedDbs.add(c.db());
      } else if ("AggOnly".equals(policy)) {
        aggOnlyTables.add(table);
        restrictedDbs.add(c.db());
      }
    }
    Map<String, Double> percent = new LinkedHashMap<>();
    counts.forEach((p, n) -> percent.put(p, Counts.percent(n, columns.size())));
    return new Distribution(counts, percent, hiddenTables.size(), aggOnlyTables.size(), restrictedDbs.size());
  }
}
