package rolepolicy.decide;

import rolepolicy.spider.AccessRecord;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.Futures;

/** Decides many records on several threads, and writes the decisions. */
public final class Decisions {
  private Decisions() {}

  /** The decisions of the records, in record order, made on {@code threads} threads. */
  public static List<AccessDecision> decideAll(
      AccessDecider decider, List<AccessRecord> records, String source, int threads) {
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads,
            task -> {
              Thread thread = new Thread(task, "decide-worker");
              thread.setDaemon(true);
              return thread;
            });
    try {
      int chunk = Math.max(1, (records.size() + 4 * threads - 1) / (4 * threads));
      List<Future<List<AccessDecision>>> parts = new ArrayList<>();
      for (int from = 0; from < records.size(); from += chunk) {
        List<AccessRecord> part = records.subList(from, Math.min(records.size(), from + chunk));
        parts.add(pool.submit(() -> part.stream().map(r -> decider.decide(r, source)).toList()));
      }
      List<AccessDecision> all = new ArrayList<>(records.size());
      for (Future<List<AccessDecision>> part : parts) {
        all.addAll(Futures.await(part, "deciding"));
      }
      return all;
    } finally {
      pool.shutdownNow();
    }
  }


  /** One JSON object a line, fields in a fixed order, nulls written. */
  public static void write(Path file, List<AccessDecision> decisions) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (AccessDecision d : decisions) {
        ObjectNode line = DatasetWriter.JSON.createObjectNode();
        line.put("line", d.line());
        line.put("db_id", d.dbId());
        line.put("user", d.user());
        line.put("decision", d.decision());
        line.put("rule", d.rule());
        line.put("column", d.column());
        line.put("table", d.table());
        out.write(DatasetWriter.JSON.writeValueAsString(line));
        out.write('\n');
      }
    }
  }
}
