package rolepolicy.report;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import rolepolicy.io.Plural;
import rolepolicy.engine.RuleBase.RuleName;
import rolepolicy.io.AtomicOutput;
import rolepolicy.generate.AuditTrail;
import rolepolicy.report.QaFigures.Check;
import rolepolicy.report.QaFigures.PolicyFigures;
import rolepolicy.report.QaFigures.SplitFigures;
import rolepolicy.io.InputException;

/** Computes the QA figures of a generated dataset folder and writes qa.json and report.html. */
public final class QaReport {
  /** The split files looked for in the data folder, in report order. */
  public static final List<String> SPLITS = List.of("dev", "train", "test");

  public static final String JSON_FILE = "qa.json";
  public static final String HTML_FILE = "report.html";

  private static final ObjectWriter JSON =
      JsonMapper.builder()
          .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .build()
          .writer(
              new DefaultPrettyPrinter()
                  .withObjectIndenter(new DefaultIndenter("  ", "\n"))
                  .withArrayIndenter(new DefaultIndenter("  ", "\n")))
          .with(SerializationFeature.INDENT_OUTPUT);

  private QaReport() {}

  /**
   * The figures of every split file of {@code dataDir} ({@code train.json}, {@code dev.json},
   * {@code test.json}) and of its policy files; {@code spiderDir} holds the Spider split files for
   * the structure figures.
   */
  public static QaFigures compute(Path dataDir, Path spiderDir) {
    return compute(dataDir, spiderDir, List.of());
  }

  /**
   * As {@link #compute(Path, Path)} for the named splits ({@code <split>.json} each, which must
   * exist); none named means every one of {@link #SPLITS} that exists.
   */
  /** Fails when a record's database has no policy file: the figures would be computed without its policies. */
  private static void checkPolicies(Path file, List<SplitRecord> records, Path policiesDir, Set<String> withPolicies) {
    Map<String, Integer> missing = new TreeMap<>();
    records.stream().filter(r -> !withPolicies.contains(r.dbId())).forEach(r -> missing.merge(r.dbId(), 1, Integer::sum));
    if (!missing.isEmpty()) {
      int count = missing.values().stream().mapToInt(Integer::intValue).sum();
      throw new InputException(file + ": " + Plural.of(count, "record") + " ask of "
          + Plural.of(missing.size(), "database") + " without a policy file in " + policiesDir + ": "
          + String.join(", ", missing.entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + ")").toList())
          + "; generate the folder again");
    }
  }

  public static QaFigures compute(Path dataDir, Path spiderDir, List<String> named) {
    if (!Files.isDirectory(dataDir)) {
      throw new InputException(dataDir + ": folder not found (the --out folder of generate)");
    }
    // the split files first: an empty or unreadable one is named before the policy files are looked for
    Map<String, List<SplitRecord>> recordsBySplit = new LinkedHashMap<>();
    for (String split : named.isEmpty() ? SPLITS : named) {
      Path file = dataDir.resolve(split + ".json");
      if (!Files.isRegularFile(file)) {
        if (!named.isEmpty()) {
          InputException.requireFile(file, false, " (split " + split + " named in --splits)");
        }
        continue;
      }
      recordsBySplit.put(split, SplitRecord.read(file));
    }
    if (recordsBySplit.isEmpty()) {
      throw new InputException(dataDir + ": no split file (train.json, dev.json or test.json); run generate first");
    }
    PolicyQa policyQa = PolicyQa.read(dataDir.resolve("policies"));
    PolicyFigures policies = policyQa.figures();
    List<RuleName> rules = AuditTrail.readRules(dataDir);
    Map<String, Map<String, String>> finalPolicies = policyQa.finalPolicies();
    List<SplitFigures> splits = new ArrayList<>();
    for (Map.Entry<String, List<SplitRecord>> entry : recordsBySplit.entrySet()) {
      String split = entry.getKey();
      Path file = dataDir.resolve(split + ".json");
      List<SplitRecord> records = entry.getValue();
      checkPolicies(file, records, dataDir.resolve("policies"), finalPolicies.keySet());
      Path source = SpiderStructure.sourceOf(spiderDir, split);
      java.util.Set<String> databases = new java.util.TreeSet<>();
      records.forEach(r -> databases.add(r.dbId()));
      Map<String, AuditTrail.Line> audit = AuditTrail.read(dataDir, split);
      RuleCoverage.Coverage coverage =
          audit.isEmpty() ? null : RuleCoverage.of(rules, audit, policyQa.columns(), databases);
      splits.add(
          new SplitQa(split, records, finalPolicies)
              .figures(file.toString(), SpiderStructure.of(split, source, records.size()))
              .withCoverage(coverage));
    }
    List<Check> out = new ArrayList<>();
    policies.checks().stream().filter(c -> !c.inRange()).forEach(out::add);
    for (SplitFigures s : splits) {
      List<Check> checks = new ArrayList<>(List.of(s.q1(), s.q2(), s.q4().oneEdit()));
      if (s.structure().checks() != null) {
        checks.addAll(s.structure().checks());
      }
      checks.stream().filter(c -> !c.inRange()).forEach(out::add);
    }
    return new QaFigures(QaFigures.FORMAT, policies, splits, out);
  }

  /**
   * Writes {@code outDir/qa.json}, {@code outDir/report.html} and the audit page {@code
   * outDir/audit.html} of the splits of {@code dataDir}, all or none.
   */
  public static void write(QaFigures figures, Path dataDir, Path outDir) {
    String json = json(figures);
    String html = HtmlReport.render(figures);
    List<AuditPage.Split> pages = new ArrayList<>();
    for (SplitFigures s : figures.splits()) {
      pages.add(new AuditPage.Split(s.split(), SplitRecord.read(Path.of(s.file())), AuditTrail.read(dataDir, s.split())));
    }
    String audit = AuditPage.render(pages);
    try (AtomicOutput output = new AtomicOutput()) {
      Files.writeString(output.stage(outDir.resolve(JSON_FILE)), json, StandardCharsets.UTF_8);
      Files.writeString(output.stage(outDir.resolve(HTML_FILE)), html, StandardCharsets.UTF_8);
      Files.writeString(output.stage(outDir.resolve(AuditPage.FILE)), audit, StandardCharsets.UTF_8);
      output.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String json(QaFigures figures) {
    return json((Object) figures);
  }

  /** Any figures as the report's JSON: snake_case fields, two-space indent, LF, final newline. */
  public static String json(Object figures) {
    try {
      return JSON.writeValueAsString(figures) + "\n";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
