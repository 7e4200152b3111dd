package rolepolicy.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.cli.Main;
import rolepolicy.report.QaFigures.Check;
import rolepolicy.report.QaFigures.PolicyFigures;

/** The "out of range" boxes: only comparisons that mean something, and no sentence said twice. */
class OutOfRangeFindingsTest {
  @TempDir Path dir;

  @Test
  void kaggleDbqaBoxesHoldNoSpiderColumnComparisonAndNoRepeatedSentence() throws IOException {
    Path k = TestData.kaggleDir();
    Path data = dir.resolve("kaggledbqa");
    for (String split : List.of("test", "fewshot")) {
      List<String> files;
      try (Stream<Path> list = Files.list(k.resolve("examples"))) {
        files = list.map(Path::toString).filter(f -> f.endsWith("_" + split + ".json")).sorted().toList();
      }
      run("generate", "--tables", k.resolve("KaggleDBQA_tables.json").toString(), "--questions", String.join(",", files),
          "--split", split, "--overrides", "data/overrides-kaggledbqa.json", "--out", data.toString(), "--no-progress");
    }
    run("report", "--data", data.toString(), "--splits", "test,fewshot", "--spider", k.toString());
    String html = Files.readString(data.resolve("qa/report.html"));

    List<String> boxes = findings(html);
    assertEquals(2, boxes.size(), "Q2 of test and of fewshot: " + boxes);
    Set<String> sentences = new HashSet<>();
    for (String box : boxes) {
      assertFalse(box.contains("4,503") || box.contains("Spider's tables.json"), box);
      for (String sentence : box.split("(?<=\\.)\\s+")) {
        assertTrue(sentences.add(sentence.strip()), "said twice: " + sentence);
      }
    }
    assertTrue(html.contains("these 179 columns are another schema"), "the policy section says once why it does not compare");
  }

  @Test
  void aSpiderSizedSchemaExplainsEachPolicyShareInItsOwnWords() throws IOException {
    Path policies = dir.resolve("policies");
    Files.createDirectories(policies);
    String[] cycle = {"Public", "Public", "JoinOnly", "AggOnly", "Hidden"}; // 40 / 20 / 20 / 20 % of 4,503: none as SPEC's
    int column = 0;
    for (int db = 0; db < 3; db++) {
      StringBuilder json = new StringBuilder("{\"db_id\": \"db" + db + "\", \"columns\": [");
      for (int i = 0; i < 1501; i++, column++) {
        String policy = cycle[column % cycle.length];
        json.append(i == 0 ? "" : ",").append("{\"table\": \"t").append(i % 7).append("\", \"column\": \"t").append(i % 7)
            .append(".c").append(i).append("\", \"auto_policy\": \"").append(policy).append("\", \"auto_rule\": \"rule for ")
            .append(policy).append("\", \"final_policy\": \"").append(policy).append("\"}");
      }
      Files.writeString(policies.resolve("db" + db + ".json"), json.append("]}").toString());
    }
    PolicyFigures figures = PolicyQa.read(policies).figures();
    assertNull(figures.notCompared(), "4,503 columns are compared with SPEC §3");
    List<Check> out = figures.checks().stream().filter(c -> !c.inRange()).toList();
    assertTrue(out.size() >= 4, "the four policy shares differ from SPEC's: " + out);
    Set<String> sentences = new HashSet<>();
    for (Check c : out) {
      for (String sentence : c.explanation().split("(?<=\\.)\\s+")) {
        assertTrue(sentences.add(sentence), c.id() + " repeats: " + sentence);
      }
    }
  }

  /** The text of each finding box of the page, tags removed. */
  static List<String> findings(String html) {
    String section = html.substring(html.indexOf("id=\"findings\""), html.indexOf("id=\"policies\""));
    List<String> boxes = new ArrayList<>();
    Matcher m = Pattern.compile("<div class=\"finding\">(.*?)</div>\n(?=<div class=\"finding\">|<h2)", Pattern.DOTALL).matcher(section + "<h2");
    while (m.find()) {
      boxes.add(m.group(1).replaceAll("<[^>]+>", " ").replaceAll("\\s+", " ").strip()
          .replace("&#39;", "'").replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"));
    }
    return boxes;
  }

  private static void run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    assertEquals(0, code, err.toString());
  }
}
