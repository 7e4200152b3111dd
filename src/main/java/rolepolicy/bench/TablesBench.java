package rolepolicy.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import rolepolicy.io.RunTemp;
import rolepolicy.tablescore.KeyColumns;
import rolepolicy.tablescore.NormalisingJudge;
import rolepolicy.tablescore.Summary;
import rolepolicy.tablescore.UdaBench;

/**
 * Times score-tables (the {@code bench-tables} command) on UDA-Bench with the deterministic judge, the ground truth as the result:
 * the first run (cold), the median of the next ones, and in the same JVM the floor: loading the
 * ground truth and running every query without scoring or writing.
 */
public final class TablesBench {
  private final Path root;
  private final int runs;

  /** {@code root}: UDA-Bench's Query folder; {@code runs}: timed runs after the first. */
  public TablesBench(Path root, int runs) {
    this.root = root;
    this.runs = runs;
  }

  /** Runs the benchmark, printing to {@code w}. */
  public int run(PrintWriter w) throws IOException {
    KeyColumns keys = new KeyColumns(Map.of("cspaper", "pdf_filename"),
        Map.of("drug", "generic_name", "institution", "institution_name"));
    Path work = RunTemp.systemFolder("rolepolicy-bench-tables");
    try {
      UdaBench.Options options = new UdaBench.Options(root, List.of(), null, work.resolve("out"), keys,
          new NormalisingJudge(1e-6), "normalising", 60);
      resetPeaks();
      long start = System.nanoTime();
      Summary summary = new UdaBench(options).run(line -> { });
      double cold = (System.nanoTime() - start) / 1e9;
      List<Double> scored = new ArrayList<>();
      List<Double> floor = new ArrayList<>();
      for (int i = 0; i < runs; i++) {
        // interleaved, so that both see the same machine load
        start = System.nanoTime();
        new UdaBench(options).run(line -> { });
        scored.add((System.nanoTime() - start) / 1e9);
        start = System.nanoTime();
        new UdaBench(options).runGoldOnly();
        floor.add((System.nanoTime() - start) / 1e9);
      }
      int queries = summary.all().queries();
      double median = median(scored);
      double floorMedian = median(floor);
      w.printf(Locale.ROOT, "UDA-Bench: %d queries in %d datasets, %d run on the ground truth, %d scored%n",
          queries, summary.datasets().size(), summary.all().ran(), summary.all().scored());
      w.printf(Locale.ROOT, "first run (cold JVM):                %.2f s%n", cold);
      w.printf(Locale.ROOT, "score-tables, median of %d:           %.2f s (%.2f–%.2f), %.1f ms per query%n",
          runs, median, Collections.min(scored), Collections.max(scored), 1000 * median / queries);
      w.printf(Locale.ROOT, "floor: load and run only, median:    %.2f s (%.2f–%.2f)%n",
          floorMedian, Collections.min(floor), Collections.max(floor));
      w.printf(Locale.ROOT, "score-tables / floor:                %.2f×%n", median / floorMedian);
      w.printf(Locale.ROOT, "peak heap:                           %d MB%n", peakHeap() / (1024 * 1024));
      return 0;
    } finally {
      RunTemp.release(work);
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static void resetPeaks() {
    ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
  }

  private static long peakHeap() {
    return ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(p -> p.getType() == MemoryType.HEAP)
        .mapToLong(p -> p.getPeakUsage().getUsed()).sum();
  }
}
