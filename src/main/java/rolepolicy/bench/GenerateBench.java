package rolepolicy.bench;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.kie.api.KieBase;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.engine.RuleBase;
import rolepolicy.engine.RuleSet;
import rolepolicy.generate.DatasetGenerator;
import rolepolicy.io.RunTemp;
import rolepolicy.model.PolicyOverride;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.OwnedFolder;
import rolepolicy.generate.QuestionGenerator;
import rolepolicy.io.InputException;
import rolepolicy.spider.Question;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;
import rolepolicy.spider.SplitReader;

/**
 * Times {@code generate} (the {@code bench} command) the ways a user meets it: cold runs of the packaged jar and through
 * Maven, the rule build, the steady-state rate in one JVM next to the I/O floor measured in the same
 * run, and a scale run in a child JVM with a heap limit. Method: docs/benchmark.md.
 */
public final class GenerateBench {
  /** The speed and memory targets. */
  private static final double PYTHON_SECONDS = 2.8;
  private static final double TARGET_RATE = 20_000;
  private static final double TARGET_FLOOR_RATIO = 3;
  private static final double TARGET_HEAP_MB = 1024;

  /** The JVM flag that leaves out the C2 JIT compiler: the fast way to run short jobs. */
  private static final String C1 = "-XX:TieredStopAtLevel=1";

  /** What to time: the options of {@code bench} (docs/benchmark.md). */
  public record Plan(Path spider, List<String> splits, RuleSet rules, Path overridesFile, List<PolicyOverride> overrides,
      String overridesSource, Path jar, int runs, int c1Runs, int launcherRuns, int mavenRuns, int warmup, int scale,
      String scaleHeap, Integer threads, Path baselineJar, Path work, String measuredMain) {}

  /**
   * The prefix of the line the measured child JVM ({@code Plan.measuredMain}) prints to standard
   * error after the command: {@code measured: cpu_s=12.3 jit_s=6.1 peak_heap_mb=410.2 …}.
   */
  public static final String MEASURED = "measured: ";

  private final Path spider;
  private final List<String> splits;
  private final RuleSet rules;
  private final Path overridesFile;
  private final List<PolicyOverride> overrides;
  private final String overridesSource;
  private final Path jar;
  private final int runs;
  private final int c1Runs;
  private final int launcherRuns;
  private final int mavenRuns;
  private final int warmup;
  private final int scale;
  private final String scaleHeap;
  private final Integer threads;
  private final Path baselineJar;
  private final Path work;
  private final String measuredMain;

  public GenerateBench(Plan s) {
    spider = s.spider();
    splits = s.splits();
    rules = s.rules();
    overridesFile = s.overridesFile();
    overrides = s.overrides();
    overridesSource = s.overridesSource();
    jar = s.jar();
    runs = s.runs();
    c1Runs = s.c1Runs();
    launcherRuns = s.launcherRuns();
    mavenRuns = s.mavenRuns();
    warmup = s.warmup();
    scale = s.scale();
    scaleHeap = s.scaleHeap();
    threads = s.threads();
    baselineJar = s.baselineJar();
    work = s.work();
    measuredMain = s.measuredMain();
  }

  private PrintWriter out;

  /** One finished child process: wall seconds, exit code, what it printed. */
  record Child(double seconds, int code, String stdout, String stderr) {
    /** A figure of the {@code measured:} line of the measured child JVM, or NaN. */
    double measured(String name) {
      Matcher m = Pattern.compile(Pattern.quote(MEASURED) + ".*\\b" + name + "=([-0-9.]+)").matcher(stderr);
      return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    /** The seconds of a summary line of generate ("rules: ... in 1.92 s", "dev: ..., 2.10 s, ..."), or NaN. */
    double printed(String line) {
      Matcher m = Pattern.compile("(?m)^" + Pattern.quote(line) + ":.*?([0-9.]+) s\\b").matcher(stdout);
      return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }
  }

  /** Runs the benchmark, printing to {@code out}; 0, or 1 when the outputs of the ways of running differ. */
  /** Runs the benchmark; false when the outputs of the runs differ. */
  public boolean run(PrintWriter out) throws Exception {
    this.out = out;
    if (baselineJar != null && !Files.isRegularFile(baselineJar)) {
      throw new InputException(baselineJar + ": baseline jar not found");
    }
    if (!Files.isRegularFile(jar)) {
      throw new InputException(jar + ": packaged jar not found; build it with: mvn -B -q package -DskipTests");
    }
    List<Path> inputs = new ArrayList<>();
    for (String split : splits) {
      Path file = spider.resolve(split.equals("train") ? "train_spider.json" : "dev.json");
      InputException.requireFile(file, false, "");
      inputs.add(file);
    }
    boolean temporary = work == null;
    Path dir = temporary ? RunTemp.systemFolder("rolepolicy-bench") : OwnedFolder.claim(work, "bench", "--work");
    try {
      return bench(dir, inputs);
    } finally {
      if (temporary) {
        RunTemp.release(dir);
      }
    }
  }

  private boolean bench(Path dir, List<Path> inputs) throws Exception {
    int questions = 0;
    for (Path input : inputs) {
      questions += count(input);
    }
    long inBytes = 0;
    for (Path input : inputs) {
      inBytes += Files.size(input);
    }
    String what = String.join("+", splits);
    out.printf(Locale.ROOT, "machine: %d cores, %s RAM, %s %s; load average %.2f at start%n",
        Runtime.getRuntime().availableProcessors(), totalMemory(), System.getProperty("java.vm.name"),
        System.getProperty("java.runtime.version"), loadAverage());
    out.printf(Locale.ROOT, "input: %s, %,d questions, %.1f MB of JSON%n%n", what, questions, inBytes / 1e6);

    // 1. Cold end to end, as a user runs it.
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> generateArgs = new ArrayList<>(List.of("generate", "--spider", spider.toString(),
        "--splits", String.join(",", splits), "--rules", rules.folder().toString(), "--profile", rules.profile(), "--no-progress"));
    if (overridesFile != null) {
      generateArgs.addAll(List.of("--overrides", overridesFile.toString()));
    }
    List<Double> jarWall = new ArrayList<>();
    List<Double> jarRules = new ArrayList<>();
    Map<String, List<Double>> jarSplits = new LinkedHashMap<>();
    Path jarOut = dir.resolve("jar");
    List<Double> baseWall = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      Path runOut = i == 0 ? jarOut : dir.resolve("jar-" + i);
      Child run = child(dir, concat(List.of(java, "-jar", jar.toString()), generateArgs, List.of("--out", runOut.toString())));
      if (baselineJar != null) {
        baseWall.add(baseline(dir, List.of(java, "-jar", baselineJar.toString()), generateArgs));
      }
      jarWall.add(run.seconds());
      jarRules.add(run.printed("rules"));
      for (String split : splits) {
        jarSplits.computeIfAbsent(split, s -> new ArrayList<>()).add(run.printed(split));
      }
      if (i > 0) {
        delete(runOut);
      }
    }
    Spread cold = Spread.of(jarWall);
    out.printf(Locale.ROOT, "cold end to end, packaged jar: java -jar %s generate --splits %s%n", jar, String.join(",", splits));
    out.printf(Locale.ROOT, "  wall            %s%n", cold.format("s", "%.2f"));
    out.printf(Locale.ROOT, "  rules build     %s%n", Spread.of(jarRules).format("s", "%.2f"));
    for (var split : jarSplits.entrySet()) {
      out.printf(Locale.ROOT, "  %-15s %s%n", split.getKey(), Spread.of(split.getValue()).format("s", "%.2f"));
    }
    printBaseline(baseWall, jarWall);
    Child measured = child(dir, concat(List.of(java, "-cp", jar.toString(), measuredMain), generateArgs,
        List.of("--out", dir.resolve("measured").toString())));
    delete(dir.resolve("measured"));
    out.printf(Locale.ROOT, "  one more run, measured in the child: %.2f s wall, %.2f s CPU (JIT compilers %.2f s), peak heap %.0f MB,"
        + " live heap %.0f MB, peak RSS %.0f MB%n",
        measured.seconds(), measured.measured("cpu_s"), measured.measured("jit_s"), measured.measured("peak_heap_mb"),
        measured.measured("live_heap_mb"), measured.measured("peak_rss_mb"));
    Spread c1Cold = null;
    if (c1Runs > 0) {
      List<Double> c1 = new ArrayList<>();
      List<Double> c1Base = new ArrayList<>();
      for (int i = 0; i < c1Runs; i++) {
        Path runOut = dir.resolve("c1-" + i);
        c1.add(child(dir, concat(List.of(java, C1, "-jar", jar.toString()), generateArgs,
            List.of("--out", runOut.toString()))).seconds());
        delete(runOut);
        if (baselineJar != null) {
          c1Base.add(baseline(dir, List.of(java, C1, "-jar", baselineJar.toString()), generateArgs));
        }
      }
      c1Cold = Spread.of(c1);
      Child c1Measured = child(dir, concat(List.of(java, C1, "-cp", jar.toString(), measuredMain), generateArgs,
          List.of("--out", dir.resolve("measured").toString())));
      delete(dir.resolve("measured"));
      out.printf(Locale.ROOT, "cold end to end, packaged jar with the C1 JIT only: java %s -jar %s generate ...%n", C1, jar);
      out.printf(Locale.ROOT, "  wall            %s%n", c1Cold.format("s", "%.2f"));
      printBaseline(c1Base, c1);
      out.printf(Locale.ROOT, "  one more run, measured in the child: %.2f s wall, %.2f s CPU (JIT compilers %.2f s)%n",
          c1Measured.seconds(), c1Measured.measured("cpu_s"), c1Measured.measured("jit_s"));
    }

    Spread launched = null;
    Path launcherOut = dir.resolve("launcher");
    if (launcherRuns > 0) {
      launched = launcher(dir, generateArgs, launcherOut);
    }

    Spread maven = null;
    Path mavenOut = dir.resolve("maven");
    if (mavenRuns > 0) {
      maven = maven(dir, generateArgs, mavenOut);
    }

    // 2. Steady state in this JVM, next to the I/O floor.
    out.println();
    Steady steady = steady(dir, inputs, questions);

    // 3. The same bytes whichever way the tool runs.
    out.println();
    boolean same = sameBytes(jarOut, dir.resolve("steady"), launched == null ? null : launcherOut,
        maven == null ? null : mavenOut);

    // 4. Scale.
    Scale scaled = null;
    if (scale > 0) {
      out.println();
      scaled = scale(dir, inputs, java);
    }

    out.println();
    out.printf(Locale.ROOT, "load average %.2f at the end%n", loadAverage());
    out.println("targets:");
    target(cold.median() < PYTHON_SECONDS, String.format(Locale.ROOT,
        "cold end to end with the jar under %.1f s (the Python script): median %.2f s", PYTHON_SECONDS, cold.median()));
    if (c1Cold != null) {
      target(c1Cold.median() < PYTHON_SECONDS, String.format(Locale.ROOT,
          "the same with %s: median %.2f s", C1, c1Cold.median()));
    }
    if (launched != null) {
      target(launched.median() < PYTHON_SECONDS, String.format(Locale.ROOT,
          "the same with bin/rolepolicy: median %.2f s", launched.median()));
    }
    target(steady.rate().median() >= TARGET_RATE, String.format(Locale.ROOT,
        "steady state at least %,.0f questions/s: median %,.0f", TARGET_RATE, steady.rate().median()));
    target(steady.ratio().median() <= TARGET_FLOOR_RATIO, String.format(Locale.ROOT,
        "engine at most %.0fx the I/O floor: median %.1fx", TARGET_FLOOR_RATIO, steady.ratio().median()));
    if (scaled != null) {
      target(scaled.completed() && scaled.peakHeapMb() < TARGET_HEAP_MB, String.format(Locale.ROOT,
          "peak heap under 1 GiB at %,d questions (-Xmx%s): %.0f MB", scaled.questions(), scaleHeap, scaled.peakHeapMb()));
    }
    if (!same) {
      out.println("the outputs differ: see above");
      return false;
    }
    return true;
  }

  private void target(boolean met, String text) {
    out.printf(Locale.ROOT, "  %-8s %s%n", met ? "met" : "NOT MET", text);
  }

  /** One cold run of the baseline jar, its output discarded; its wall seconds. */
  private double baseline(Path dir, List<String> launch, List<String> generateArgs)
      throws IOException, InterruptedException {
    Path runOut = dir.resolve("baseline");
    double seconds = child(dir, concat(launch, generateArgs, List.of("--out", runOut.toString()))).seconds();
    delete(runOut);
    return seconds;
  }

  /** The baseline's runs and the ratio of each run to the baseline run next to it. */
  private void printBaseline(List<Double> baseWall, List<Double> wall) {
    if (baseWall.isEmpty()) {
      return;
    }
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < baseWall.size(); i++) {
      ratios.add(wall.get(i) / baseWall.get(i));
    }
    out.printf(Locale.ROOT, "  baseline        %s (%s, interleaved)%n", Spread.of(baseWall).format("s", "%.2f"), baselineJar);
    out.printf(Locale.ROOT, "  this / baseline %s%n", Spread.of(ratios).format("x", "%.2f"));
  }

  /**
   * Cold runs through bin/rolepolicy, and one more with its flags measured in the child. Needs the
   * project folder (the script) and the class-data archive that {@code mvn package} records.
   */
  private Spread launcher(Path dir, List<String> generateArgs, Path launcherOut)
      throws IOException, InterruptedException {
    Path script = Path.of("bin", "rolepolicy");
    Path scriptJar = Path.of("target", "rolepolicy.jar");
    Path archive = scriptJar.resolveSibling("rolepolicy.jsa");
    if (!jar.toAbsolutePath().normalize().equals(scriptJar.toAbsolutePath().normalize())) {
      out.printf(Locale.ROOT, "bin/rolepolicy: skipped (it runs %s, not %s)%n", scriptJar, jar);
      return null;
    }
    if (!Files.isRegularFile(script) || !Files.isRegularFile(archive)) {
      out.printf(Locale.ROOT, "bin/rolepolicy: skipped (run from the project folder after mvn package, which records %s)%n", archive);
      return null;
    }
    List<Double> walls = new ArrayList<>();
    for (int i = 0; i < launcherRuns; i++) {
      Path runOut = i == 0 ? launcherOut : dir.resolve("launcher-" + i);
      walls.add(child(dir, concat(List.of("bash", script.toString()), generateArgs, List.of("--out", runOut.toString()))).seconds());
      if (i > 0) {
        delete(runOut);
      }
    }
    Spread wall = Spread.of(walls);
    List<String> flags = List.of(C1, "-XX:+UseSerialGC", "-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Child measured = child(dir, concat(concat(List.of(java), flags), List.of("-cp", jar.toString(), measuredMain),
        concat(generateArgs, List.of("--out", dir.resolve("measured").toString()))));
    delete(dir.resolve("measured"));
    out.printf(Locale.ROOT, "cold end to end, bin/rolepolicy generate ... (java %s -jar %s)%n", String.join(" ", flags), jar);
    out.printf(Locale.ROOT, "  wall            %s%n", wall.format("s", "%.2f"));
    out.printf(Locale.ROOT, "  one more run, measured in the child: %.2f s wall, %.2f s CPU (JIT compilers %.2f s), peak heap %.0f MB%n",
        measured.seconds(), measured.measured("cpu_s"), measured.measured("jit_s"), measured.measured("peak_heap_mb"));
    return wall;
  }

  private Spread maven(Path dir, List<String> generateArgs, Path mavenOut) throws IOException, InterruptedException {
    if (!Files.isRegularFile(Path.of("pom.xml"))) {
      out.println("through Maven: skipped, no pom.xml in the current folder");
      return null;
    }
    List<Double> wall = new ArrayList<>();
    for (int i = 0; i < mavenRuns; i++) {
      Path runOut = i == 0 ? mavenOut : dir.resolve("maven-" + i);
      String args = String.join(" ", concat(generateArgs, List.of("--out", runOut.toString())));
      Child run;
      try {
        run = child(dir, List.of("mvn", "-q", "-B", "compile", "exec:java", "-Dexec.args=" + args));
      } catch (IOException e) {
        out.println("through Maven: skipped, cannot run mvn (" + e.getMessage() + ")");
        return null;
      }
      wall.add(run.seconds());
      if (i > 0) {
        delete(runOut);
      }
    }
    Spread spread = Spread.of(wall);
    out.printf(Locale.ROOT, "cold end to end, through Maven: mvn -q compile exec:java -Dexec.args=\"generate ...\"%n");
    out.printf(Locale.ROOT, "  wall            %s%n", spread.format("s", "%.2f"));
    return spread;
  }

  /** Steady-state figures: seconds per pass, questions/s, and the ratio to the I/O floor. */
  record Steady(Spread rate, Spread ratio) {}

  private Steady steady(Path dir, List<Path> inputs, int questions) throws IOException {
    long start = System.nanoTime();
    KieBase ruleBase = RuleBase.load(rules);
    double coldRules = (System.nanoTime() - start) / 1e9;
    Map<String, Schema> schemas = SchemaReader.read(spider.resolve("tables.json"));
    Map<String, DatabasePolicies> policies =
        new PolicyAssigner(ruleBase).assign(schemas, overrides, overridesSource);
    int workers = threads;
    QuestionEngine engine = new QuestionEngine(ruleBase);
    Path genOut = Files.createDirectories(dir.resolve("steady"));
    Path floorOut = Files.createDirectories(dir.resolve("floor"));
    // A new generator per pass, as a new run would have: its analyses and outcomes of recent
    // questions do not carry over from one pass to the next; the warm JIT and sessions do.
    DoubleSupplier pass = () -> timed(() -> {
      DatasetGenerator generator =
          new DatasetGenerator(new QuestionGenerator(engine, schemas, policies), workers);
      for (int s = 0; s < inputs.size(); s++) {
        generator.generate(splits.get(s), inputs.get(s), genOut.resolve(splits.get(s) + ".json"), null, bytes -> {});
      }
    });
    for (int i = 0; i < warmup; i++) {
      pass.getAsDouble();
    }
    List<JsonNode> outputs = new ArrayList<>();
    for (String split : splits) {
      outputs.add(DatasetWriter.JSON.readTree(genOut.resolve(split + ".json").toFile()));
    }
    DoubleSupplier floor = () -> timed(() -> {
      for (int s = 0; s < inputs.size(); s++) {
        ioFloor(inputs.get(s), outputs.get(s), floorOut.resolve(splits.get(s) + ".json"));
      }
    });
    floor.getAsDouble();
    List<Double> genSeconds = new ArrayList<>();
    List<Double> floorSeconds = new ArrayList<>();
    List<Double> rates = new ArrayList<>();
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < runs; i++) { // interleaved, so that both see the same machine
      double g = pass.getAsDouble();
      double f = floor.getAsDouble();
      genSeconds.add(g);
      floorSeconds.add(f);
      rates.add(questions / g);
      ratios.add(g / f);
    }
    start = System.nanoTime();
    RuleBase.load(rules);
    double warmRules = (System.nanoTime() - start) / 1e9;
    boolean floorSame = true;
    for (String split : splits) {
      floorSame &= sha256(genOut.resolve(split + ".json")).equals(sha256(floorOut.resolve(split + ".json")));
    }
    outputs.clear();
    Spread rate = Spread.of(rates);
    Spread ratio = Spread.of(ratios);
    List<String> flags = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("-XX:") || a.startsWith("-Xmx")).toList();
    out.printf(Locale.ROOT, "steady state in this JVM (%d worker threads, JVM flags %s, after %d untimed passes)%n",
        workers, flags.isEmpty() ? "none" : String.join(" ", flags), warmup);
    out.printf(Locale.ROOT, "  generate        %s%n", Spread.of(genSeconds).format("s", "%.3f"));
    out.printf(Locale.ROOT, "                  %s%n", rate.format("questions/s", "%,.0f"));
    out.printf(Locale.ROOT, "  I/O floor       %s%n", Spread.of(floorSeconds).format("s", "%.3f"));
    out.printf(Locale.ROOT, "                  (read the input as generate does, write the same output bytes with Jackson, no rules%s)%n",
        floorSame ? "" : "; WARNING: its bytes differ from generate's");
    out.printf(Locale.ROOT, "  engine / floor  %s%n", ratio.format("x", "%.1f"));
    out.printf(Locale.ROOT, "  rules build     %.2f s in this JVM cold, %.2f s again once warm%n", coldRules, warmRules);
    return new Steady(rate, ratio);
  }

  /** Reads the split as generate does and writes the given output records, with no rules run. */
  private static void ioFloor(Path input, JsonNode records, Path output) {
    int i = 0;
    try (SplitReader reader = new SplitReader(input);
        JsonGenerator writer = DatasetWriter.arrayWriter(output)) {
      for (Question question = reader.next(); question != null; question = reader.next()) {
        writer.writeTree(records.get(i++));
      }
      writer.writeEndArray();
      writer.writeRaw('\n');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private boolean sameBytes(Path jarOut, Path inProcess, Path launcherOut, Path mavenOut) throws IOException {
    boolean same = true;
    for (String split : splits) {
      String name = split + ".json";
      String jarSum = sha256(jarOut.resolve(name));
      StringBuilder others = new StringBuilder();
      boolean ok = true;
      Map<String, Path> compared = new LinkedHashMap<>();
      compared.put("in this JVM", inProcess);
      compared.put("through bin/rolepolicy", launcherOut);
      compared.put("through Maven", mavenOut);
      for (var other : compared.entrySet()) {
        if (other.getValue() != null) {
          String sum = sha256(other.getValue().resolve(name));
          ok &= sum.equals(jarSum);
          others.append(", ").append(sum.equals(jarSum) ? "the same" : "DIFFERENT: " + sum).append(' ').append(other.getKey());
        }
      }
      same &= ok;
      out.printf(Locale.ROOT, "%s: %s sha256 %s from the jar%s%n", name, ok ? "same bytes," : "DIFFERENT:", jarSum, others);
    }
    return same;
  }

  /** The largest scale run: its size, whether it finished, and its peak heap. */
  record Scale(int questions, boolean completed, double peakHeapMb) {}

  private Scale scale(Path dir, List<Path> inputs, String java) throws IOException, InterruptedException {
    Path scaled = Files.createDirectories(dir.resolve("scale"));
    Files.copy(spider.resolve("tables.json"), scaled.resolve("tables.json"));
    out.printf(Locale.ROOT, "scale: the splits repeated (each copy's SQL texts one space longer), one child JVM per size with -Xmx%s (java -Xmx%s -cp %s %s generate ...)%n",
        scaleHeap, scaleHeap, jar, measuredMain.substring(measuredMain.lastIndexOf('.') + 1));
    out.println("  questions    wall s  ms/1000 q  questions/s  CPU s  peak heap MB  live heap MB  peak RSS MB");
    int[] sizes = {scale / 4, scale / 2, scale};
    List<double[]> rows = new ArrayList<>();
    Scale last = null;
    for (int size : sizes) {
      repeat(inputs, size, scaled.resolve("dev.json"));
      Path result = dir.resolve("scale-out");
      List<String> command = new ArrayList<>(List.of(java, "-Xmx" + scaleHeap, "-cp", jar.toString(),
          measuredMain, "generate", "--spider", scaled.toString(), "--splits", "dev",
          "--rules", rules.folder().toString(), "--profile", rules.profile(), "--no-progress", "--out", result.toString()));
      if (overridesFile != null) {
        command.addAll(List.of("--overrides", overridesFile.toString()));
      }
      Child run = run(dir, command);
      delete(result);
      boolean completed = run.code() == 0;
      out.printf(Locale.ROOT, "  %,9d  %8.2f  %9.1f  %,11.0f  %5.1f  %12.0f  %12.0f  %11.0f%s%n",
          size, run.seconds(), 1000 * run.seconds() / size, size / run.seconds(), run.measured("cpu_s"),
          run.measured("peak_heap_mb"), run.measured("live_heap_mb"), run.measured("peak_rss_mb"),
          completed ? "" : "  FAILED (exit " + run.code() + "): " + firstLine(run.stderr()));
      rows.add(new double[] {size, run.seconds(), run.measured("cpu_s")});
      last = new Scale(size, completed, run.measured("peak_heap_mb"));
    }
    Files.delete(scaled.resolve("dev.json"));
    double[] a = rows.get(0);
    double[] b = rows.get(1);
    double[] c = rows.get(2);
    out.printf(Locale.ROOT, "  marginal cost from %,d to %,d: %.2f ms wall, %.2f ms CPU per question;"
        + " from %,d to %,d: %.2f ms wall, %.2f ms CPU per question%n",
        (int) a[0], (int) b[0], 1000 * (b[1] - a[1]) / (b[0] - a[0]), 1000 * (b[2] - a[2]) / (b[0] - a[0]),
        (int) b[0], (int) c[0], 1000 * (c[1] - b[1]) / (c[0] - b[0]), 1000 * (c[2] - b[2]) / (c[0] - b[0]));
    return last;
  }

  /**
   * Writes the inputs' records again and again up to {@code size}. Each copy after the first ends
   * its SQL texts with one more space, so that no copy meets an earlier copy's analyses or outcomes:
   * a dataset that large would not repeat its queries.
   */
  private static void repeat(List<Path> inputs, int size, Path target) throws IOException {
    int written = 0;
    try (JsonGenerator writer = DatasetWriter.JSON.getFactory().createGenerator(target.toFile(), com.fasterxml.jackson.core.JsonEncoding.UTF8)) {
      writer.writeStartArray();
      for (int copy = 0; written < size; copy++) {
        for (Path input : inputs) {
          try (JsonParser parser = DatasetWriter.JSON.getFactory().createParser(input.toFile())) {
            parser.nextToken();
            while (written < size && parser.nextToken() == JsonToken.START_OBJECT) {
              JsonNode record = DatasetWriter.JSON.readTree(parser);
              if (copy > 0 && record.path("query").isTextual()) {
                ((com.fasterxml.jackson.databind.node.ObjectNode) record)
                    .put("query", record.get("query").asText() + " ".repeat(copy));
              }
              DatasetWriter.JSON.writeTree(writer, record);
              written++;
            }
          }
        }
      }
      writer.writeEndArray();
    }
  }

  private static int count(Path input) {
    int n = 0;
    try (SplitReader reader = new SplitReader(input)) {
      while (reader.next() != null) {
        n++;
      }
    }
    return n;
  }

  static Child child(Path dir, List<String> command) throws IOException, InterruptedException {
    Child child = run(dir, command);
    if (child.code() != 0) {
      throw new IllegalStateException("benchmark run failed (exit " + child.code() + "): " + String.join(" ", command)
          + "\n" + child.stderr());
    }
    return child;
  }

  /** Runs a child process to its end; its output goes to files, so that it never blocks on a pipe. */
  static Child run(Path dir, List<String> command) throws IOException, InterruptedException {
    Path stdout = Files.createTempFile(dir, "child", ".out");
    Path stderr = Files.createTempFile(dir, "child", ".err");
    long start = System.nanoTime();
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("JAVA_HOME", System.getProperty("java.home")); // bin/rolepolicy and mvn: this JDK
    Process process = builder
        .redirectOutput(stdout.toFile())
        .redirectError(stderr.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .start();
    RunTemp.register(process, () -> stop(process), "the child process it ran (" + command.get(0) + ") was stopped");
    int code;
    try {
      code = process.waitFor();
    } finally {
      RunTemp.forget(process);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    Child child = new Child(seconds, code, Files.readString(stdout), Files.readString(stderr));
    Files.delete(stdout);
    Files.delete(stderr);
    return child;
  }

  /** Stops a child process as Ctrl-C would (its own shutdown hooks run), and waits a while for it. */
  private static void stop(Process process) {
    process.destroy();
    try {
      process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private interface Work {
    void run() throws Exception;
  }

  private static double timed(Work work) {
    long start = System.nanoTime();
    try {
      work.run();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return (System.nanoTime() - start) / 1e9;
  }

  static String sha256(Path file) throws IOException {
    try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
      in.transferTo(java.io.OutputStream.nullOutputStream());
      return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static List<String> concat(List<String> a, List<String> b, List<String> c) {
    return concat(concat(a, b), c);
  }

  static String totalMemory() {
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    return String.format(Locale.ROOT, "%.1f GiB", os.getTotalMemorySize() / (double) (1L << 30));
  }

  static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static String firstLine(String text) {
    return text.lines().findFirst().orElse("");
  }

  static void delete(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> all = Files.walk(path)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
