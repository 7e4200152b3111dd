package rolepolicy.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import rolepolicy.casebank.Calibration;
import rolepolicy.casebank.Case;
import rolepolicy.casebank.CaseBank;
import rolepolicy.casebank.CaseIndex;
import rolepolicy.casebank.CaseReader;
import rolepolicy.casebank.Embedder;
import rolepolicy.spider.SchemaReader;

/** Builds the CaseBank from a generated train split and calibrates its thresholds (docs/retrieval.md). */
@Command(
    name = "casebank",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Build the few-shot CaseBank (Lucene, on disk) from a generated train split.")
public final class CaseBankCommand implements Callable<Integer>, Writes {
  @Override
  public java.util.Set<String> writtenOptions() {
    return java.util.Set.of("--bank");
  }

  @Spec CommandSpec spec;

  @Option(names = "--dataset", paramLabel = "FILE", defaultValue = "data/train.json",
      description = "A generated train split (default: ${DEFAULT-VALUE}); dev and test questions are refused.")
  Path dataset;

  @Mixin TablesOption schemaFile;

  @Mixin CaseBankOption caseBank;

  @Option(names = "--calibration-step", paramLabel = "N", defaultValue = "10",
      description = "Calibrate the thresholds on every N-th case (default: ${DEFAULT-VALUE}).")
  @Range(min = 1)
  int step;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "7", description = "Seed of the random baseline (default: ${DEFAULT-VALUE}).")
  long seed;

  @Mixin CacheOptions caching;

  @Override
  public Integer call() {
    CaseIndex.checkReplaceable(caseBank.bank);
    PrintWriter w = spec.commandLine().getOut();
    var schemas = SchemaReader.read(schemaFile.tables);
    long start = System.nanoTime();
    List<Case> cases = CaseReader.read(dataset, schemas, caching.folder());
    double read = (System.nanoTime() - start) / 1e9;
    start = System.nanoTime();
    Embedder embedder = new Embedder(caching.folder());
    Path staging = CaseIndex.staging(caseBank.bank);
    // the bank it replaces lends its indexes and calibration where their inputs are unchanged (not with --no-cache)
    Path previous = caching.folder() == null ? null : caseBank.bank;
    CaseBank.Meta before = previous == null ? null : CaseIndex.previousMeta(previous);
    try (CaseBank built = CaseIndex.buildStaged(cases, dataset.toString(), caseBank.bank, embedder, new CaseBank.Thresholds(1.0, 0.0),
        previous)) {
      double index = (System.nanoTime() - start) / 1e9;
      if (built.previousIndexDamaged()) {
        w.printf(Locale.ROOT, "the indexes of %s are damaged: built anew%n", previous);
      }
      start = System.nanoTime();
      Calibration.Outcome calibrated = Calibration.reuseOrCalibrate(built, before, schemas, step, seed);
      Calibration.Result c = calibrated.result();
      CaseIndex.writeCalibration(staging, built, calibrated.key(), c);
      double calibrate = (System.nanoTime() - start) / 1e9;
      embedder.save();
      w.printf(Locale.ROOT, "%d cases from %s: read and skeletonized in %.1f s, %s%n", cases.size(), dataset, read,
          built.indexReused() ? String.format(Locale.ROOT, "indexes copied from %s in %.1f s (the same questions)", previous, index)
              : String.format(Locale.ROOT, "embedded and indexed in %.1f s (%d texts embedded, the cache held %d%s)", index,
                  embedder.computed(), embedder.cached(), embedder.learned() == 0 ? ""
                      : String.format(Locale.ROOT, ", the bank it replaces %d more", embedder.learned())));
      w.printf(Locale.ROOT, "thresholds (%s %d cases in %.1f s): specific cosine >= %.2f, skeleton cosine >= %.2f%n",
          calibrated.reused() ? "calibrated as the bank it replaces, the same questions and SQL: on" : "calibrated on",
          c.sample(), calibrate, c.thresholds().specific(), c.thresholds().skeleton());
      w.printf(Locale.ROOT, "  first example's query similarity: tiered %.3f, skeletons only %.3f, same database only %.3f, random %.3f%n",
          c.specificAtThreshold(), c.skeletonOnly(), c.allSpecific(), c.randomSimilarity());
    }
    CaseIndex.commit(caseBank.bank);
    w.println("wrote " + caseBank.bank);
    return 0;
  }
}
