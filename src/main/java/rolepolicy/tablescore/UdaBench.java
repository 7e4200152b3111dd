package rolepolicy.tablescore;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import rolepolicy.db.DuckDb;
import rolepolicy.db.Execution;
import rolepolicy.io.AtomicOutput;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.InputException;
import rolepolicy.tablescore.QueryOutcome.Status;
import rolepolicy.tablescore.QueryOutcome.Where;

/**
 * Scores a system's result tables on UDA-Bench ({@code Query/<Dataset>/<Category>/*.sql}, the
 * ground-truth CSVs and the attribute file of each dataset) and writes, per query, {@code
 * <out>/<Dataset>/<Category>/<sql file stem>/<N>/}: {@code sql.json}, {@code result.csv} (a copy),
 * and {@code acc_result/} with {@code acc.json}, {@code gold_result.csv}, {@code
 * matched_gold_result.csv} and {@code matched_result.csv}; and {@code <out>/summary.json}. All
 * files are written at the end, together, or none.
 */
public final class UdaBench {
  /**
   * @param root the {@code Query} folder
   * @param datasets the datasets to score (folder names), or empty for all
   * @param results the system's results, laid out like the output ({@code
   *     <results>/<Dataset>/<Category>/<stem>/<N>/result.csv}); null scores the gold result itself
   */
  public record Options(
      Path root, List<String> datasets, Path results, Path out, KeyColumns keys, CellJudge judge,
      String judgeName, double timeoutSeconds, Readings readings) {
    /** With this project's readings. */
    public Options(Path root, List<String> datasets, Path results, Path out, KeyColumns keys, CellJudge judge,
        String judgeName, double timeoutSeconds) {
      this(root, datasets, results, out, keys, judge, judgeName, timeoutSeconds, Readings.OURS);
    }
  }

  /** {@code sql.json}: the query and each selected attribute's description and value type. */
  @JsonPropertyOrder({"dataset", "category", "file", "query", "label", "sql", "gold_sql", "aggregation", "columns"})
  record SqlFile(
      String dataset, String category, String file, int query, String label, String sql,
      @JsonProperty("gold_sql") String goldSql, boolean aggregation, List<SqlColumn> columns) {}

  @JsonPropertyOrder({"name", "role", "table", "attribute", "function", "added", "value_type", "description"})
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record SqlColumn(
      String name, ColumnRole role, String table, String attribute, String function, Boolean added,
      @JsonProperty("value_type") String valueType, String description) {}

  /** {@code acc.json}. */
  @JsonPropertyOrder({"status", "reason", "keys", "gold_rows", "result_rows", "matched_rows", "columns",
      "avg_precision", "avg_recall", "avg_f1", "warnings"})
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record AccFile(
      Status status, String reason, List<String> keys,
      @JsonProperty("gold_rows") Integer goldRows,
      @JsonProperty("result_rows") Integer resultRows,
      @JsonProperty("matched_rows") Integer matchedRows,
      List<ColumnScore> columns,
      @JsonProperty("avg_precision") Double precision,
      @JsonProperty("avg_recall") Double recall,
      @JsonProperty("avg_f1") Double f1,
      List<String> warnings) {}

  private final Options options;
  private final TableScorer scorer;

  public UdaBench(Options options) {
    this.options = options;
    this.scorer = new TableScorer(options.judge(), options.readings());
  }

  /** The dataset folders under the root: those with an attribute file, by name. */
  public static List<Path> datasets(Path root, List<String> names) {
    if (!Files.isDirectory(root)) {
      throw new InputException(root + ": UDA-Bench Query folder not found");
    }
    List<Path> all;
    try (Stream<Path> dirs = Files.list(root)) {
      all = dirs.filter(Files::isDirectory).filter(d -> attributeFile(d) != null).sorted().toList();
    } catch (IOException e) {
      throw new InputException(root + ": cannot list (" + InputException.reason(e) + ")", e);
    }
    if (names.isEmpty()) {
      return all;
    }
    List<Path> chosen = new ArrayList<>();
    for (String name : names) {
      Path match = all.stream().filter(d -> d.getFileName().toString().equalsIgnoreCase(name)).findFirst()
          .orElseThrow(() -> new InputException(root + ": no dataset '" + name + "' (have: "
              + String.join(", ", all.stream().map(d -> d.getFileName().toString()).toList()) + ")"));
      chosen.add(match);
    }
    return chosen;
  }

  private static Path attributeFile(Path dataset) {
    try (Stream<Path> files = Files.list(dataset)) {
      return files.filter(f -> f.getFileName().toString().endsWith("_attributes.json")).sorted().findFirst().orElse(null);
    } catch (IOException e) {
      return null;
    }
  }

  /** Scores every query and writes the outputs; {@code progress} hears each dataset as it is done. */
  public Summary run(Consumer<String> progress) {
    List<QueryOutcome> outcomes = new ArrayList<>();
    Map<String, Map<String, Map<String, Integer>>> castFailures = new LinkedHashMap<>();
    Map<String, Map<String, Map<String, Integer>>> widened = new LinkedHashMap<>();
    try (AtomicOutput output = new AtomicOutput(options.out())) {
      for (Path dataset : datasets(options.root(), options.datasets())) {
        String name = dataset.getFileName().toString();
        List<QueryOutcome> of = dataset(dataset, output, castFailures, widened);
        outcomes.addAll(of);
        progress.accept(name + ": " + of.size() + " queries, "
            + of.stream().filter(o -> o.status() == Status.SCORED).count() + " scored");
      }
      Summary summary = Summary.of(
          options.results() == null ? "the gold result itself (self-check)" : options.results().toString(),
          options.judgeName(), options.readings().label(), outcomes, castFailures, widened);
      DatasetWriter.write(output.stage(options.out().resolve("summary.json")), summary);
      output.commit();
      return summary;
    }
  }

  /** A dataset's attribute file and its queries, by SQL file. */
  private record Dataset(Path folder, Attributes attributes, Map<Path, List<QueryFile.Query>> files, List<String> tableNames) {
    String name() {
      return folder.getFileName().toString();
    }

    GroundTruth load(double timeoutSeconds) {
      return GroundTruth.load(folder, attributes, tableNames, timeoutSeconds);
    }
  }

  private static Dataset read(Path folder) {
    Attributes attributes = Attributes.read(attributeFile(folder));
    Map<Path, List<QueryFile.Query>> files = new LinkedHashMap<>();
    Set<String> tableNames = new LinkedHashSet<>();
    for (Path file : sqlFiles(folder)) {
      List<QueryFile.Query> queries = QueryFile.read(file);
      files.put(file, queries);
      queries.forEach(q -> tableNames.addAll(UdaQuery.tableNames(q.sql())));
    }
    tableNames.addAll(attributes.tableNames());
    return new Dataset(folder, attributes, files, List.copyOf(tableNames));
  }

  private List<QueryOutcome> dataset(Path folder, AtomicOutput output,
      Map<String, Map<String, Map<String, Integer>>> castFailures, Map<String, Map<String, Map<String, Integer>>> widened) {
    Dataset dataset = read(folder);
    String name = dataset.name();
    List<QueryOutcome> outcomes = new ArrayList<>();
    try (GroundTruth truth = dataset.load(options.timeoutSeconds())) {
      if (!truth.castFailures().isEmpty()) {
        castFailures.put(name, truth.castFailures());
      }
      if (!truth.widened().isEmpty()) {
        widened.put(name, truth.widened());
      }
      for (Map.Entry<Path, List<QueryFile.Query>> file : dataset.files().entrySet()) {
        String category = file.getKey().getParent().getFileName().toString();
        String stem = file.getKey().getFileName().toString().replaceFirst("\\.sql$", "");
        for (QueryFile.Query query : file.getValue()) {
          Where where = new Where(name, category, stem, query.ordinal(), query.label());
          Path out = options.out().resolve(name).resolve(category).resolve(stem).resolve(String.valueOf(query.ordinal()));
          outcomes.add(query(query, where, out, dataset.attributes(), truth, output));
        }
      }
    }
    return outcomes;
  }

  /**
   * The floor a benchmark compares with: load each dataset's ground truth and run every query it
   * can analyse, without scoring or writing anything. Returns the number of queries run.
   */
  public int runGoldOnly() {
    int ran = 0;
    for (Path folder : datasets(options.root(), options.datasets())) {
      Dataset dataset = read(folder);
      try (GroundTruth truth = dataset.load(options.timeoutSeconds())) {
        for (List<QueryFile.Query> queries : dataset.files().values()) {
          for (QueryFile.Query query : queries) {
            try {
              if (query.extra() != null) {
                continue;
              }
              ran += truth.query(UdaQuery.analyse(query.sql(), options.keys(), dataset.attributes(), truth).goldSql())
                  .status() == Execution.Status.OK ? 1 : 0;
            } catch (UdaQuery.Unscorable e) {
              // not run: the same queries the scored run leaves out
            }
          }
        }
      }
    }
    return ran;
  }

  private static String raggedRow(Path file) {
    try {
      return Csv.raggedRow(file);
    } catch (IOException e) {
      throw new InputException(file + ": cannot read (" + InputException.reason(file, e) + ")", e);
    }
  }

  private static List<Path> sqlFiles(Path dataset) {
    try (Stream<Path> files = Files.walk(dataset, 2)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".sql") && !f.getParent().equals(dataset))
          .sorted().toList();
    } catch (IOException e) {
      throw new InputException(dataset + ": cannot list (" + InputException.reason(e) + ")", e);
    }
  }

  private QueryOutcome query(QueryFile.Query query, Where where, Path folder, Attributes attributes,
      GroundTruth truth, AtomicOutput output) {
    Path acc = folder.resolve("acc_result");
    UdaQuery analysed;
    try {
      if (query.extra() != null) {
        throw new UdaQuery.Unscorable(query.extra());
      }
      analysed = UdaQuery.analyse(query.sql(), options.keys(), attributes, truth);
    } catch (UdaQuery.Unscorable e) {
      return notScored(where, Status.NOT_RUN, query.where() + ": " + e.getMessage(), acc, output);
    }
    writeJson(output, folder.resolve("sql.json"), sqlFile(where, analysed, attributes));
    Execution gold = truth.gold(analysed);
    if (gold.status() != Execution.Status.OK) {
      return notScored(where, Status.NOT_RUN,
          query.where() + ": the ground truth cannot run it: " + firstLine(gold.message()), acc, output);
    }
    writeCsv(output, acc.resolve("gold_result.csv"), gold.columns(), gold.rows());
    Table goldTable = new Table(gold.columns(), gold.rows());
    Table result;
    if (options.results() == null) {
      result = asText(goldTable);
    } else {
      Path file = options.results().resolve(where.dataset()).resolve(where.category()).resolve(where.file())
          .resolve(String.valueOf(where.query())).resolve("result.csv");
      if (!Files.isRegularFile(file)) {
        return notScored(where, Status.NOT_SCORED, query.where() + ": no result.csv at " + file, acc, output);
      }
      String ragged = raggedRow(file);
      if (ragged != null) {
        return notScored(where, Status.NOT_SCORED, file + ": not a whole table: " + ragged, acc, output);
      }
      Execution read = truth.query("SELECT * FROM " + DuckDb.readCsv(file));
      if (read.status() != Execution.Status.OK) {
        return notScored(where, Status.NOT_SCORED, file + ": not a readable CSV file: " + firstLine(read.message()), acc, output);
      }
      result = new Table(read.columns(), read.rows());
      if (!file.toAbsolutePath().normalize().equals(folder.resolve("result.csv").toAbsolutePath().normalize())) {
        copy(output, file, folder.resolve("result.csv"));
      }
    }
    List<ScoredColumn> columns = scoredColumns(analysed, attributes);
    int[] index;
    try {
      index = resultIndex(columns, result.columns());
    } catch (UdaQuery.Unscorable e) {
      return notScored(where, Status.NOT_SCORED, query.where() + ": result.csv " + e.getMessage(), acc, output);
    }
    TableScore score;
    try {
      score = scorer.score(columns, goldTable, result, index, false);
    } catch (JudgeException e) {
      return notScored(where, Status.NOT_SCORED, query.where() + ": " + e.getMessage(), acc, output);
    }
    writeJson(output, acc.resolve("acc.json"), new AccFile(Status.SCORED, null, score.keys(), score.goldRows(),
        score.resultRows(), score.matchedRows(), score.columns(), score.precision(), score.recall(), score.f1(),
        score.warnings()));
    writeCsv(output, acc.resolve("matched_gold_result.csv"), gold.columns(), score.matchedGold());
    writeCsv(output, acc.resolve("matched_result.csv"), gold.columns(), score.matchedResult());
    return QueryOutcome.scored(where, score);
  }

  /** The gold result as a system would give it in a CSV file: every cell as text, blank as null. */
  static Table asText(Table gold) {
    List<List<Object>> rows = new ArrayList<>();
    for (List<Object> row : gold.rows()) {
      List<Object> text = new ArrayList<>(row.size());
      row.forEach(v -> text.add(CellText.text(v)));
      rows.add(text);
    }
    return new Table(gold.columns(), rows);
  }

  private static List<ScoredColumn> scoredColumns(UdaQuery query, Attributes attributes) {
    List<ScoredColumn> columns = new ArrayList<>();
    for (UdaQuery.OutputColumn c : query.columns()) {
      Attributes.Attribute a = c.attribute() == null ? null : attributes.get(c.table(), c.attribute());
      columns.add(new ScoredColumn(c.name(), c.role(), a == null ? null : a.description(), a == null ? null : a.valueType()));
    }
    return columns;
  }

  /**
   * For each gold column, the result column of the same name (without regard to case); a
   * qualified name {@code table.column} is also answered by a bare {@code column} that no other
   * gold column shares.
   */
  static int[] resultIndex(List<ScoredColumn> columns, List<String> header) throws UdaQuery.Unscorable {
    int[] index = new int[columns.size()];
    for (int c = 0; c < columns.size(); c++) {
      String name = columns.get(c).name();
      int found = indexOf(header, name);
      int dot = name.lastIndexOf('.');
      if (found < 0 && dot > 0) {
        String bare = name.substring(dot + 1);
        long sharing = columns.stream().filter(o -> bareName(o.name()).equalsIgnoreCase(bare)).count();
        if (sharing == 1) {
          found = indexOf(header, bare);
        }
      }
      if (found < 0) {
        String what = columns.get(c).role() == ColumnRole.KEY ? "key column" : "selected column";
        throw new UdaQuery.Unscorable("has no " + what + " '" + name + "' (its columns: " + String.join(", ", header) + ")");
      }
      index[c] = found;
    }
    return index;
  }

  private static String bareName(String name) {
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(dot + 1) : name;
  }

  private static int indexOf(List<String> header, String name) {
    for (int i = 0; i < header.size(); i++) {
      if (header.get(i).strip().equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  private static SqlFile sqlFile(Where where, UdaQuery query, Attributes attributes) {
    List<SqlColumn> columns = new ArrayList<>();
    for (UdaQuery.OutputColumn c : query.columns()) {
      Attributes.Attribute a = c.attribute() == null ? null : attributes.get(c.table(), c.attribute());
      columns.add(new SqlColumn(c.name(), c.role(), c.table(), c.attribute(), c.function(), c.added() ? true : null,
          a == null ? null : a.valueType(), a == null ? null : a.description()));
    }
    return new SqlFile(where.dataset(), where.category(), where.file(), where.query(), where.label(), query.sql(),
        query.goldSql(), query.aggregation(), columns);
  }

  private static QueryOutcome notScored(Where where, Status status, String reason, Path acc, AtomicOutput output) {
    writeJson(output, acc.resolve("acc.json"),
        new AccFile(status, reason, null, null, null, null, null, null, null, null, null));
    return QueryOutcome.failed(where, status, reason);
  }

  private static void writeJson(AtomicOutput output, Path file, Object value) {
    DatasetWriter.write(output.stage(file), value);
  }

  private static void writeCsv(AtomicOutput output, Path file, List<String> columns, List<List<Object>> rows) {
    try {
      Csv.write(output.stage(file), columns, rows);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void copy(AtomicOutput output, Path from, Path to) {
    try {
      Files.copy(from, output.stage(to), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new InputException(from + ": cannot copy (" + InputException.reason(e) + ")", e);
    }
  }

  private static String firstLine(String message) {
    return message == null ? "" : message.lines().findFirst().orElse("").strip();
  }
}
