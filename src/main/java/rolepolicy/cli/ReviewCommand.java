package rolepolicy.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.sqlite.SQLiteConfig;
import org.kie.api.KieBase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.engine.PolicyReview;
import rolepolicy.engine.RuleBase;
import rolepolicy.model.PolicyOverride;
import rolepolicy.model.ReviewFlag;
import rolepolicy.model.SchemaColumn;
import rolepolicy.io.InputException;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/**
 * The reviewer's worksheet (issue 5): every column with its automatic policy and rule, its table,
 * type and key role, its final policy when overridden, and a few sample values; suspicious
 * policies are flagged. It reads and prints only: policies come from the same rules and overrides
 * as {@code generate}. Spider is read from one folder ({@code --spider}); any other benchmark in
 * Spider's format from its schema file ({@code --tables}) and, where there are SQLite files, their
 * folder ({@code --db}).
 */
@Command(
    name = "review",
    mixinStandardHelpOptions = true,
    description = {
      "Print the policy review worksheet of one database or all: each column's automatic policy,"
          + " the rule that assigned it, its type, key role, final policy and sample values.",
      "Lines starting with '!' are flagged: Hidden or AggOnly in a table that does not look like"
          + " it describes people, JoinOnly on a column that is no key, a key left Public."
    })
public final class ReviewCommand implements Callable<Integer> {
  private static final int SAMPLES = 3;
  private static final int SAMPLE_WIDTH = 28;

  @Spec CommandSpec spec;

  private PolicyReview review;

  @Option(names = "--database", paramLabel = "ID", description = "Review only this database (default: all, in tables.json order).")
  String db;

  @Mixin SpiderOption spiderFolder;

  @Option(
      names = "--tables",
      paramLabel = "FILE",
      description =
          "Any benchmark's Spider-format schema file (KaggleDBQA_tables.json, BIRD's dev_tables.json)"
              + " instead of --spider's; sample values come from --db. Without --overrides, no overrides"
              + " are applied: data/overrides.json is Spider's.")
  Path tables;

  @Mixin DatabasesOption databaseFolder;

  @Mixin PolicyOptions policy;

  /** One column's line of the worksheet. */
  private record Row(ColumnPolicy policy, String key, List<String> samples, List<String> flags) {}

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    checkSources();
    Path tablesFile = tables != null ? tables : spiderFolder.spider.resolve("tables.json");
    Map<String, Schema> schemas = SchemaReader.read(tablesFile);
    if (db != null && !schemas.containsKey(db)) {
      List<String> close = closeIds(db, schemas.keySet());
      throw new InputException("unknown database '" + db + "': not in " + tablesFile
          + (close.isEmpty() ? "" : "; did you mean " + String.join(" or ", close) + "?"));
    }
    // data/overrides.json, the default, belongs to Spider: another benchmark's review applies
    // only the overrides it is given.
    boolean overridesGiven = tables == null || policy.overrides != null;
    List<PolicyOverride> overrideList = overridesGiven ? policy.readOverrides() : List.of();
    String overridesSource = overridesGiven ? policy.overridesSource() : "no overrides";
    Path overridesFile = overridesGiven ? policy.overridesFile() : null;
    KieBase rules = RuleBase.load(policy.ruleSet());
    Map<String, DatabasePolicies> policies =
        new PolicyAssigner(rules).assign(schemas, overrideList, overridesSource, policy.policyFacts());
    review = new PolicyReview(rules);

    for (Schema schema : schemas.values()) {
      if (db == null || db.equals(schema.dbId())) {
        new Samples(sqliteFile(schema.dbId())).close(); // a file that is no database stops the run before any output
      }
    }
    out.printf(
        Locale.ROOT,
        "review: %s; rules %s; overrides %s (%d entries)%n",
        db == null ? schemas.size() + " databases" : db,
        policy.rules,
        overridesFile == null ? "none" : overridesFile,
        overrideList.size());
    for (Schema schema : schemas.values()) {
      if (db == null || db.equals(schema.dbId())) {
        out.println();
        print(out, schema, policies.get(schema.dbId()));
      }
    }
    out.flush();
    return 0;
  }

  /**
   * --spider names one folder; --tables (with --db or not) names the files themselves.
   * Mixing the two, or --db without --tables, is a usage error; a --db that is no
   * folder is bad input.
   */
  private void checkSources() {
    Path folder = databaseFolder.dir;
    if (folder != null && !Files.isDirectory(folder) && folder.getNameCount() == 1) {
      throw new ParameterException(spec.commandLine(), "--db is the folder of SQLite databases; '" + folder
          + "' is no folder: to review one database give --database " + folder);
    }
    boolean spiderGiven = spec.commandLine().getParseResult().hasMatchedOption("--spider");
    if (spiderGiven && (tables != null || databaseFolder.dir != null)) {
      throw new ParameterException(
          spec.commandLine(),
          "--spider names the tables file and the databases folder itself: give either --spider or --tables [--db]");
    }
    if (databaseFolder.dir != null && tables == null) {
      throw new ParameterException(spec.commandLine(), "--db needs --tables (the schemas of its databases)");
    }
    if (databaseFolder.dir != null && !Files.isDirectory(databaseFolder.dir)) {
      throw new InputException(databaseFolder.dir + ": folder not found (--db)");
    }
  }

  /** The ids within two edits of {@code id}, closest first, at most three. */
  static List<String> closeIds(String id, java.util.Collection<String> ids) {
    record Candidate(String id, int distance) {}
    return ids.stream()
        .map(other -> new Candidate(other, rolepolicy.explain.QuestionLookup.distance(id.toLowerCase(Locale.ROOT), other.toLowerCase(Locale.ROOT))))
        .filter(c -> c.distance() <= 2)
        .sorted(java.util.Comparator.comparingInt(Candidate::distance).thenComparing(Candidate::id))
        .limit(3)
        .map(Candidate::id)
        .toList();
  }


  /** Where a database's SQLite file would be; null when no folder of databases is given. */
  private Path sqliteFile(String dbId) {
    Path folder = tables == null ? spiderFolder.spider.resolve("database") : databaseFolder.dir;
    return folder == null ? null : folder.resolve(dbId).resolve(dbId + ".sqlite");
  }

  /** The sample source of the worksheet's database line. */
  private String samplesSource(Path file) {
    if (file == null) {
      return "none (no --db given): reviewed from the schema only";
    }
    Object shown = tables == null ? spiderFolder.spider.relativize(file) : file;
    return Files.isRegularFile(file) ? shown.toString() : "none (no " + shown + "): reviewed from the schema only";
  }

  private void print(PrintWriter out, Schema schema, DatabasePolicies policies) {
    Path file = sqliteFile(schema.dbId());
    Map<String, List<ReviewFlag>> flags = review.flags(schema, policies);
    List<Row> rows = new ArrayList<>();
    try (Samples samples = new Samples(file)) {
      for (ColumnPolicy c : policies.columns()) {
        SchemaColumn column = c.column();
        rows.add(
            new Row(
                c,
                PolicyReview.keyRole(schema, column),
                samples.of(column.table(), column.name()),
                flags.getOrDefault(column.key(), List.of()).stream().map(ReviewFlag::text).toList()));
      }
    }
    long flagged = rows.stream().filter(r -> !r.flags().isEmpty()).count();
    long overridden = rows.stream().filter(r -> r.policy().overrideRule() != null).count();
    out.printf(
        Locale.ROOT,
        "== %s: %d tables, %d columns, %d flagged, %d overridden; samples: %s%n",
        schema.dbId(),
        schema.tables().size(),
        rows.size(),
        flagged,
        overridden,
        samplesSource(file));
    List<String[]> cells = new ArrayList<>();
    cells.add(new String[] {"table.column", "type", "key", "auto", "final", "rule", "samples"});
    for (Row r : rows) {
      ColumnPolicy c = r.policy();
      cells.add(
          new String[] {
            c.column().table() + "." + c.column().name(),
            c.column().type(),
            r.key(),
            c.autoPolicy().name(),
            c.overrideRule() == null ? "=" : c.finalPolicy().name(),
            c.autoRule(),
            String.join(" | ", r.samples())
          });
    }
    int[] width = new int[6];
    for (String[] line : cells) {
      for (int i = 0; i < width.length; i++) {
        width[i] = Math.max(width[i], line[i].length());
      }
    }
    for (int i = 0; i < cells.size(); i++) {
      Row r = i == 0 ? null : rows.get(i - 1);
      StringBuilder line = new StringBuilder(r != null && !r.flags().isEmpty() ? "! " : "  ");
      String[] cell = cells.get(i);
      for (int j = 0; j < width.length; j++) {
        line.append(String.format(Locale.ROOT, "%-" + width[j] + "s  ", cell[j]));
      }
      out.println((line + cell[6]).stripTrailing());
      if (r != null) {
        if (r.policy().overrideRule() != null) {
          out.println("      override: " + r.policy().overrideReason());
        }
        r.flags().forEach(f -> out.println("      flag: " + f));
      }
    }
  }

  /** Distinct sample values of a column, from the database opened read-only; nothing without one. */
  private static final class Samples implements AutoCloseable {
    private final Connection connection;
    private final Map<String, List<String>> cache = new LinkedHashMap<>();

    Samples(Path file) {
      Connection opened = null;
      if (file != null && Files.isRegularFile(file)) {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        try {
          opened =
              config.createConnection("jdbc:sqlite:" + file.toAbsolutePath().toUri() + "?mode=ro");
        } catch (SQLException e) {
          throw new InputException(file + ": cannot open read-only: " + e.getMessage(), e);
        }
        try (PreparedStatement statement = opened.prepareStatement("SELECT count(*) FROM sqlite_master");
            ResultSet result = statement.executeQuery()) {
          result.next();
        } catch (SQLException e) {
          close(opened);
          throw new InputException(file + ": not a readable SQLite database ("
              + e.getMessage().replaceAll("\\s+", " ").strip() + ")", e);
        }
      }
      this.connection = opened;
    }

    List<String> of(String table, String column) {
      if (connection == null) {
        return List.of();
      }
      return cache.computeIfAbsent(table + "." + column, k -> query(table, column));
    }

    private List<String> query(String table, String column) {
      String sql =
          "SELECT DISTINCT " + quote(column) + " FROM " + quote(table)
              + " WHERE " + quote(column) + " IS NOT NULL AND " + quote(column) + " <> '' LIMIT " + SAMPLES;
      List<String> values = new ArrayList<>();
      try (PreparedStatement statement = connection.prepareStatement(sql);
          ResultSet result = statement.executeQuery()) {
        while (result.next()) {
          values.add(shorten(result.getString(1)));
        }
      } catch (SQLException e) {
        values.add("(no samples: " + e.getMessage().replaceAll("\\s+", " ").strip() + ")");
      }
      return values;
    }

    private static String quote(String identifier) {
      return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    private static String shorten(String value) {
      String flat = value == null ? "" : value.replaceAll("\\s+", " ").strip();
      return flat.length() <= SAMPLE_WIDTH ? flat : flat.substring(0, SAMPLE_WIDTH - 1) + "…";
    }

    @Override
    public void close() {
      close(connection);
    }

    private static void close(Connection connection) {
      if (connection != null) {
        try {
          connection.close();
        } catch (SQLException e) {
          // read-only: nothing to lose
        }
      }
    }
  }
}
