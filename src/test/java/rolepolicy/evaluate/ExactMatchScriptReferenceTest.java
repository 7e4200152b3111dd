package rolepolicy.evaluate;

import rolepolicy.ports.SpiderScript;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * Exact match as Spider's script counts it ({@code em_script}, {@link SpiderScript}) against the
 * verdicts of the real {@code evaluation.py}, question by question, on every pair of {@link
 * ScriptCorpus} and on Spider train's SQL against itself. The script's verdicts are in {@code
 * crosscheck/em-script-reference.tsv.gz} (how they were made: its header and {@code
 * crosscheck/em-script-reference.py}): {@code true}, {@code false}, or {@code gold-fails} where the
 * script's parser raises on the gold SQL (the script would stop; {@code em_script} is null).
 *
 * <p>Slow (two generations of Spider dev, all of Spider train): out of PIT's runs. The test also writes the pairs it checks to
 * {@code target/em-script-pairs.jsonl}, the input of {@code em-script-reference.py}.
 */
class ExactMatchScriptReferenceTest {
  private static final Path REFERENCE = Path.of("src/test/resources/crosscheck/em-script-reference.tsv.gz");
  private static final Path PAIRS = Path.of("target/em-script-pairs.jsonl");

  private static String verdict(ExactMatchScorer.Result r) {
    return r.script().em() == null ? "gold-fails" : String.valueOf(r.script().em());
  }

  @Test
  void everyVerdictIsTheRealScripts() throws IOException {
    List<ScriptCorpus.Pair> pairs = new ArrayList<>(ScriptCorpus.pairs());
    pairs.addAll(ScriptCorpus.devWithShippedOverrides(pairs));
    pairs.addAll(ScriptCorpus.train());
    writePairs(pairs);
    Map<String, String> reference = reference();
    Map<String, ExactMatchScorer> scorers = new HashMap<>();
    Map<String, int[]> bySource = new LinkedHashMap<>();
    List<String> differ = new ArrayList<>();
    for (ScriptCorpus.Pair pair : pairs) {
      String key = pair.source() + "\t" + pair.gold().id();
      String expected = reference.remove(key);
      assertTrue(expected != null, "no reference verdict for " + key);
      ExactMatchScorer scorer =
          scorers.computeIfAbsent(pair.dataset(), d -> new ExactMatchScorer(ScriptCorpus.schemas(d)));
      ExactMatchScorer.Result r = scorer.score(pair.gold(), pair.prediction());
      String actual = verdict(r);
      int[] counts = bySource.computeIfAbsent(pair.source().replaceFirst(" \\d+$", ""), s -> new int[2]);
      counts[0]++;
      if (actual.equals(expected)) {
        counts[1]++;
      } else {
        differ.add(key + "\tscript " + expected + "\tport " + actual + "\t" + r.script().reason()
            + "\tgold: " + pair.gold().goldSql() + "\tpredicted: " + pair.prediction().replace('\n', ' '));
      }
    }
    Files.write(Path.of("target/em-script-reference-differs.tsv"), differ);
    assertEquals(List.of(), reference.keySet().stream().toList(), "reference verdicts without a pair");
    assertEquals(List.of(), differ.subList(0, Math.min(20, differ.size())),
        differ.size() + " verdicts differ (all in target/em-script-reference-differs.tsv)");
    assertTrue(pairs.size() > 17_000, "checked " + pairs.size());
  }

  private static Map<String, String> reference() throws IOException {
    Map<String, String> verdicts = new LinkedHashMap<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(Files.newInputStream(REFERENCE)), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.startsWith("#") || line.isEmpty()) {
          continue;
        }
        String[] f = line.split("\t");
        assertEquals(3, f.length, line);
        assertEquals(null, verdicts.put(f[0] + "\t" + f[1], f[2]), "twice: " + line);
      }
    }
    return verdicts;
  }

  private static void writePairs(List<ScriptCorpus.Pair> pairs) throws IOException {
    Files.createDirectories(PAIRS.getParent());
    ObjectMapper json = new ObjectMapper();
    try (Writer out = Files.newBufferedWriter(PAIRS, StandardCharsets.UTF_8)) {
      for (ScriptCorpus.Pair pair : pairs) {
        ObjectNode row = json.createObjectNode()
            .put("source", pair.source())
            .put("id", pair.gold().id())
            .put("dataset", pair.dataset())
            .put("db_id", pair.gold().dbId())
            .put("gold", pair.gold().goldSql())
            .put("predicted", pair.prediction());
        out.write(json.writeValueAsString(row));
        out.write('\n');
      }
    }
  }
}
