package rolepolicy.cli;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.io.PrintWriter;
import rolepolicy.bench.GenerateBench;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The benchmark's child JVM: runs a command line as {@link Main} does, then prints one line to
 * standard error with its CPU time and memory, which a parent process cannot read from Java.
 *
 * <pre>measured: cpu_s=12.3 jit_s=6.1 peak_heap_mb=410.2 live_heap_mb=95.0 peak_rss_mb=702.1 gcs=41</pre>
 *
 * {@code jit_s} is the time the JIT compilers spent (their threads run beside the program's);
 * {@code peak_heap_mb} is the largest heap occupancy seen: before each collection, and at the end;
 * {@code live_heap_mb} the largest left after a collection, what the run holds on to.
 */
public final class MeasuredRun {
  private static final AtomicLong PEAK_HEAP = new AtomicLong();
  private static final AtomicLong LIVE_HEAP = new AtomicLong();
  private static final AtomicLong COLLECTIONS = new AtomicLong();

  private MeasuredRun() {}

  public static void main(String[] args) {
    watchCollections();
    int code = Main.run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
    System.err.println(GenerateBench.MEASURED + figures());
    System.exit(code);
  }

  /** Records the heap before and after every collection. */
  private static void watchCollections() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc)
          .addNotificationListener(
              (notification, handback) -> {
                if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                    notification.getType())) {
                  return;
                }
                var info =
                    GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
                COLLECTIONS.incrementAndGet();
                PEAK_HEAP.accumulateAndGet(heapUsed(info.getGcInfo().getMemoryUsageBeforeGc()), Math::max);
                LIVE_HEAP.accumulateAndGet(heapUsed(info.getGcInfo().getMemoryUsageAfterGc()), Math::max);
              },
              null,
              null);
    }
  }

  /** The used bytes of the heap pools (eden, survivor, old) in a collection's usage map. */
  private static long heapUsed(Map<String, MemoryUsage> pools) {
    long used = 0;
    for (var pool : ManagementFactory.getMemoryPoolMXBeans()) {
      MemoryUsage usage = pools.get(pool.getName());
      if (pool.getType() == MemoryType.HEAP && usage != null) {
        used += usage.getUsed();
      }
    }
    return used;
  }

  static String figures() {
    long now = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    PEAK_HEAP.accumulateAndGet(now, Math::max);
    var os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    return String.format(
        Locale.ROOT,
        "cpu_s=%.2f jit_s=%.2f peak_heap_mb=%.1f live_heap_mb=%.1f peak_rss_mb=%.1f gcs=%d",
        os.getProcessCpuTime() / 1e9,
        ManagementFactory.getCompilationMXBean().getTotalCompilationTime() / 1e3,
        PEAK_HEAP.get() / 1048576.0,
        LIVE_HEAP.get() / 1048576.0,
        peakRssKib() / 1024.0,
        COLLECTIONS.get());
  }

  /** The process's peak resident set (Linux {@code VmHWM}), in KiB; -1 where it is not known. */
  private static long peakRssKib() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: no figure
    }
    return -1;
  }
}
