package rolepolicy.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.cli.Main;
import rolepolicy.io.OwnedFolder;

/** The report command on a hand-made dataset: every figure against a count made by hand. */
class ReportCommandTest {
  @TempDir Path dir;
  Path data;
  Path spider;

  @BeforeEach
  void fixture() throws IOException {
    data = dir.resolve("data");
    spider = dir.resolve("spider");
    QaFixture.write(data, spider);
  }

  record Result(int code, String out, String err) {}

  /** Runs {@code report} through Main, with its exception handler: bad input is exit 1, a crash 70. */
  private static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] all = Stream.concat(Stream.of("report"), Stream.of(args)).toArray(String[]::new);
    int code = Main.run(all, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  private static void succeeds(Result r) {
    assertEquals(0, r.code(), r.err());
    assertEquals("", r.err());
  }

  private JsonNode report() throws IOException {
    succeeds(run("--data", data.toString(), "--spider", spider.toString()));
    return QaFixture.JSON.readTree(data.resolve("qa/qa.json").toFile());
  }

  @Test
  void q1AndQ2CountViolatingOriginalsAndRefuseLabels() throws IOException {
    JsonNode dev = report().at("/splits/0");
    assertEquals("dev", dev.get("split").asText());
    assertEquals(8, dev.get("questions").asInt());
    assertEquals(4, dev.at("/q1/count").asInt());
    assertEquals(50.0, dev.at("/q1/value").asDouble());
    assertFalse(dev.at("/q1/in_range").asBoolean());
    assertEquals(4, dev.at("/q2/count").asInt());
    assertEquals(8, dev.at("/q2/total").asInt());
    assertFalse(dev.at("/q2/in_range").asBoolean());
  }

  @Test
  void anOutOfRangeFigureIsExplainedByItsDrivers() throws IOException {
    JsonNode dev = report().at("/splits/0");
    assertTrue(dev.at("/q2/explanation").asText().contains("R1 cannot succeed without overrides"));
    // four REFUSEs, one per cause: R1 (dev_0002), R3, R4, UNRESOLVED; each leaves 3 of 8 = 37.5 %
    JsonNode drivers = dev.at("/q2/drivers");
    assertEquals(4, drivers.size());
    for (JsonNode d : drivers) {
      assertEquals(1, d.get("count").asInt());
      assertEquals(25.0, d.get("share_of_count").asDouble());
      assertEquals(37.5, d.get("figure_without").asDouble());
    }
    // Q1 by first violation: SelectExpr Hidden (4, 8), JoinOnly selected (2), AggOnly aggregated (3)
    assertEquals("Hidden column selected", dev.at("/q1/drivers/0/label").asText());
    assertEquals(2, dev.at("/q1/drivers/0/count").asInt());
    List<String> outOfRange = new ArrayList<>();
    report().get("out_of_range").forEach(c -> outOfRange.add(c.get("id").asText()));
    // 10 columns and an 8-question dev file are not what SPEC's figures are for: not compared
    assertEquals(List.of("dev.q1", "dev.q2", "dev.q4"), outOfRange);
  }

  @Test
  void q3IsTheRefuseRatePerDatabaseWithMeanAndPopulationSd() throws IOException {
    JsonNode dev = report().at("/splits/0");
    // shop 2 of 3 = 66.67 %, zoo 2 of 5 = 40 %: mean 53.33, sd 13.33
    assertEquals(2, dev.at("/q3/databases").asInt());
    assertEquals(53.33, dev.at("/q3/mean_percent").asDouble());
    assertEquals(13.33, dev.at("/q3/sd_percent").asDouble());
    assertEquals(0, dev.at("/q3/outliers").size());
    assertEquals("shop", dev.at("/databases/0/db_id").asText());
    assertEquals(66.67, dev.at("/databases/0/refuse_percent").asDouble());
    assertEquals(1.0, dev.at("/databases/0/z_score").asDouble());
    assertEquals(40.0, dev.at("/databases/1/refuse_percent").asDouble());
  }

  @Test
  void q4CountsNegativesPerRuleTheCausesOfNoneAndTheOneEditCheck() throws IOException {
    JsonNode q4 = report().at("/splits/0/q4");
    assertEquals(3, q4.at("/by_rule/N1").asInt());
    assertEquals(1, q4.at("/by_rule/N2").asInt());
    assertEquals(1, q4.at("/by_rule/N3").asInt());
    assertEquals(3, q4.get("without").asInt());
    assertEquals(1, q4.get("without_by_cause").get(SplitQa.SET_OPERATION).asInt());
    assertEquals(1, q4.get("without_by_cause").get(SplitQa.NO_CANDIDATE).asInt());
    assertEquals(1, q4.get("without_by_cause").get(SplitQa.UNRESOLVED).asInt());
    assertEquals(3, q4.at("/one_edit/count").asInt());
    assertEquals(5, q4.at("/one_edit/total").asInt());
    assertFalse(q4.at("/one_edit/in_range").asBoolean());
    assertEquals("dev_0004", q4.at("/one_edit_failures/0/id").asText());
    assertTrue(q4.at("/one_edit_failures/0/why").asText().contains("one SELECT item inserted in one place"));
    assertEquals("dev_0008", q4.at("/one_edit_failures/1/id").asText());
    assertTrue(q4.at("/one_edit_failures/1/why").asText().contains("do not include the introduced one"));
  }

  @Test
  void q5CountsViolationsByRoleAndPolicy() throws IOException {
    JsonNode q5 = report().at("/splits/0/q5");
    assertEquals(5, q5.get("occurrences").asInt());
    assertEquals(4, q5.get("questions").asInt());
    JsonNode grid = q5.get("by_role_policy");
    assertEquals(1, grid.at("/SelectExpr/JoinOnly").asInt());
    assertEquals(2, grid.at("/SelectExpr/Hidden").asInt());
    assertEquals(1, grid.at("/AggArg/AggOnly").asInt());
    assertEquals(1, grid.at("/WherePred/Hidden").asInt());
    assertEquals(0, grid.at("/JoinCond/Hidden").asInt());
    assertEquals(0, grid.at("/SelectExpr/AggOnly").asInt());
  }

  @Test
  void refusalsRewritesAndTopColumns() throws IOException {
    JsonNode dev = report().at("/splits/0");
    assertEquals(4, dev.at("/refusals/total").asInt());
    assertEquals(1, dev.at("/refusals/by_reason/R1_NO_CANDIDATE").asInt());
    assertEquals(1, dev.at("/refusals/by_reason/UNRESOLVED").asInt());
    assertEquals(1, dev.at("/rewrites/steps").asInt());
    assertEquals(1, dev.at("/rewrites/answered/R1").asInt());
    assertEquals("animal.age", dev.at("/top_columns/0/column").asText());
    assertEquals(3, dev.at("/top_columns/0/occurrences").asInt());
    assertEquals(2, dev.at("/top_columns/0/questions").asInt());
  }

  @Test
  void structureIsCountedOnTheSpiderAsts() throws IOException {
    JsonNode s = report().at("/splits/0/structure");
    assertEquals(8, s.get("questions").asInt());
    assertEquals(2, s.get("join").asInt());
    assertEquals(2, s.get("nested").asInt());
    assertEquals(1, s.get("group_by").asInt());
    assertEquals(1, s.get("set_operation").asInt());
    assertEquals(1, s.get("select_star").asInt());
    assertEquals(1, s.get("unreadable").asInt());
    assertTrue(s.get("checks") == null, "8 questions are not Spider 1.0 dev's 1,034: no feature compared");
    assertTrue(s.get("note").asText().endsWith("so its structure is not compared with SPEC's figures"), s.get("note").asText());
  }

  @Test
  void noSentenceIsRepeatedAcrossTheOutOfRangeBoxes() throws IOException {
    report();
    List<String> boxes = OutOfRangeFindingsTest.findings(Files.readString(data.resolve("qa/report.html")));
    assertEquals(3, boxes.size(), boxes.toString());
    java.util.Set<String> sentences = new java.util.HashSet<>();
    for (String box : boxes) {
      for (String sentence : box.split("(?<=\\.)\\s+")) {
        assertTrue(sentences.add(sentence), "said twice: " + sentence);
      }
    }
  }

  @Test
  void policyDistributionAutomaticAndFinal() throws IOException {
    JsonNode p = report().get("policies");
    assertEquals(2, p.get("databases").asInt());
    assertEquals(4, p.get("tables").asInt());
    assertEquals(10, p.get("columns").asInt());
    assertEquals(3, p.at("/auto/columns/Hidden").asInt());
    assertEquals(3, p.at("/auto/columns/JoinOnly").asInt());
    assertEquals(1, p.at("/auto/columns/AggOnly").asInt());
    assertEquals(3, p.at("/auto/columns/Public").asInt());
    assertEquals(30.0, p.at("/auto/percent/Hidden").asDouble());
    assertEquals(2, p.at("/final_policies/columns/Hidden").asInt());
    assertEquals(4, p.at("/final_policies/columns/Public").asInt());
    assertEquals(3, p.at("/auto/tables_with_hidden").asInt());
    assertEquals(2, p.at("/final_policies/tables_with_hidden").asInt());
    assertEquals(1, p.at("/overrides").get("Hidden → Public").asInt());
    assertEquals(0, p.get("checks").size(), "10 columns are not Spider's 4,503: no share is compared with SPEC §3");
    assertTrue(p.get("not_compared").asText().contains("these 10 columns are another schema"));
  }

  @Test
  void twoRunsWriteIdenticalBytes() throws IOException {
    succeeds(run("--data", data.toString(), "--spider", spider.toString(), "--out", dir.resolve("a").toString()));
    succeeds(run("--data", data.toString(), "--spider", spider.toString(), "--out", dir.resolve("b").toString()));
    for (String file : List.of("audit.html", "qa.json", "report.html")) {
      assertArrayEquals(Files.readAllBytes(dir.resolve("a").resolve(file)), Files.readAllBytes(dir.resolve("b").resolve(file)), file);
    }
    try (Stream<Path> files = Files.list(dir.resolve("a"))) {
      assertEquals(List.of(OwnedFolder.MARKER, "audit.html", "qa.json", "report.html"),
          files.map(f -> f.getFileName().toString()).sorted().toList());
    }
  }

  @Test
  void aFailedRunLeavesThePreviousReportUntouched() throws IOException {
    report();
    byte[] json = Files.readAllBytes(data.resolve("qa/qa.json"));
    byte[] html = Files.readAllBytes(data.resolve("qa/report.html"));
    byte[] audit = Files.readAllBytes(data.resolve("qa/audit.html"));
    Files.writeString(data.resolve("dev.json"), "[{\"id\": \"dev_0001\"");
    Result r = run("--data", data.toString(), "--spider", spider.toString());
    assertEquals(Main.BAD_INPUT, r.code(), r.err());
    assertEquals("error: " + data.resolve("dev.json") + ": cannot read as a generated split (Unexpected end-of-input:"
        + " expected close marker for Object (start marker at [Source: REDACTED"
        + " (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 2]))\n", r.err());
    assertArrayEquals(json, Files.readAllBytes(data.resolve("qa/qa.json")));
    assertArrayEquals(html, Files.readAllBytes(data.resolve("qa/report.html")));
    assertArrayEquals(audit, Files.readAllBytes(data.resolve("qa/audit.html")));
    try (Stream<Path> files = Files.list(data.resolve("qa"))) {
      assertEquals(4, files.count(), "no temporary file is left behind (the three and the marker)");
    }
  }

  @Test
  void theReportIsOneSelfContainedPageWithLibraryCharts() throws IOException {
    report();
    String html = Files.readString(data.resolve("qa/report.html"));
    assertFalse(html.contains("<script"), "no script");
    assertFalse(Pattern.compile("(src|href)=\"(https?:)?//").matcher(html).find(), "nothing fetched");
    Matcher png = Pattern.compile("<img src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\" width=\"(\\d+)\"").matcher(html);
    int charts = 0;
    while (png.find()) {
      BufferedImage image = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(png.group(1))));
      assertEquals(2 * Integer.parseInt(png.group(2)), image.getWidth(), "drawn at twice the page size");
      charts++;
    }
    // Q1 and Q2 by split, policies, and per split Q3, Q4, Q5, REFUSE by reason
    assertEquals(7, charts);
    assertTrue(html.contains("R1 cannot succeed without overrides"));
  }

  @Test
  void aFolderWithoutSplitFilesIsBadInput() throws IOException {
    Files.delete(data.resolve("dev.json"));
    Result r = run("--data", data.toString());
    assertEquals(Main.BAD_INPUT, r.code(), r.err());
    assertEquals("error: " + data + ": no split file (train.json, dev.json or test.json); run generate first\n", r.err());
    assertFalse(Files.exists(data.resolve("qa")));
  }
  @Test
  void recordsOfADatabaseWithoutAPolicyFileAreBadInputNamingTheDatabaseAndTheCount() throws IOException {
    Files.delete(data.resolve("policies/zoo.json"));
    Result r = run("--data", data.toString(), "--spider", spider.toString());
    assertEquals(Main.BAD_INPUT, r.code(), r.err());
    assertEquals("error: " + data.resolve("dev.json") + ": 5 records ask of 1 database without a policy file in "
        + data.resolve("policies") + ": zoo (5); generate the folder again\n", r.err());
    assertFalse(Files.exists(data.resolve("qa")));
  }

  @Test
  void anEmptyListOfRecordsIsNamedAsSuchNotAsMissingPolicies() throws IOException {
    Files.writeString(data.resolve("dev.json"), "[]\n");
    deleteTree(data.resolve("policies"));
    Result r = run("--data", data.toString(), "--spider", spider.toString());
    assertEquals(Main.BAD_INPUT, r.code(), r.err());
    assertEquals("error: " + data.resolve("dev.json")
        + ": no records (an empty list); a generated split holds one record per question\n", r.err());
  }

  @Test
  void anEmptyFileIsNamedAsNotJsonNotAsMissingPolicies() throws IOException {
    Files.writeString(data.resolve("dev.json"), "");
    deleteTree(data.resolve("policies"));
    Result r = run("--data", data.toString(), "--spider", spider.toString());
    assertEquals(Main.BAD_INPUT, r.code(), r.err());
    assertEquals("error: " + data.resolve("dev.json")
        + ": the file is empty, not JSON; a generated split holds one record per question\n", r.err());
  }

  @Test
  void aSplitThatIsNotUtf8IsNamedWithTheLineOfItsFirstBadByte() throws IOException {
    String text = Files.readString(data.resolve("dev.json"));
    int at = text.indexOf("dev_0002");
    byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    bytes[at] = (byte) 0xE9; // 'é' in Latin-1
    Files.write(data.resolve("dev.json"), bytes);
    long line = text.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
    Result r = run("--data", data.toString(), "--spider", spider.toString());
    assertEquals(Main.BAD_INPUT, r.code(), r.err());
    assertEquals("error: " + data.resolve("dev.json") + ": not UTF-8 text: byte 0xE9 at line " + line
        + ", byte offset " + at + "\n", r.err());
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
