package rolepolicy.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.Chromium;
import rolepolicy.TestData;
import rolepolicy.cli.CommandRun;
import rolepolicy.generate.AuditTrail;

/**
 * The audit page as headless Chromium loads it, on Spider train and dev generated without
 * overrides: filters from the address, a card opened, the records counted against the split file,
 * and train's load time under 2 s. {@code -Daudit.screenshot=docs/audit-page.png} also writes the
 * screenshot of the docs.
 */
class AuditPageBrowserTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String R2 = "R2: wrap a selected AggOnly column in AVG";

  @TempDir static Path tmp;
  static Path data;
  static String page;

  @BeforeAll
  static void generateAndReport() throws IOException {
    Path none = tmp.resolve("no-overrides.json");
    Files.writeString(none, "[]");
    data = tmp.resolve("data");
    CommandRun generate = CommandRun.of("generate", "--no-progress", "--threads", "2", "--spider",
        TestData.spiderDir().toString(), "--splits", "train,dev", "--overrides", none.toString(), "--out", data.toString());
    assertEquals(0, generate.code(), generate.err());
    CommandRun report = CommandRun.of("report", "--data", data.toString(), "--spider", TestData.spiderDir().toString());
    assertEquals(0, report.code(), report.err());
    page = data.resolve("qa").resolve(AuditPage.FILE).toUri().toString();
  }

  private static String url(String fragment) {
    return page + "#" + fragment;
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String between(String dom, String open, String close) {
    int start = dom.indexOf(open);
    assertTrue(start >= 0, "no " + open);
    return dom.substring(start + open.length(), dom.indexOf(close, start + open.length()));
  }

  @Test
  void aRuleFilterFromTheAddressListsItsRecordsAndOpensTheCard() throws Exception {
    int firedOn = 0;
    for (AuditTrail.Line line : AuditTrail.read(data, "dev").values()) {
      firedOn += line.firings().stream().anyMatch(f -> f.rule().equals(R2)) ? 1 : 0;
    }
    String dom = Chromium.dumpDom(url("split=dev&rule=" + encode(R2) + "&open=dev_0616"), tmp);
    assertEquals(firedOn + " of 1034 records of dev", between(dom, "id=\"count\">", "<"));
    assertTrue(firedOn > 0);
    String card = between(dom, "<details class=\"rec\" data-id=\"dev_0616\" open=\"\">", "</details>");
    assertTrue(card.contains("<mark>Rating</mark>"), "the violating column marked: " + card);
    assertTrue(card.contains("<del>Rating</del><ins>AVG(Rating)</ins>"), "the gold label as an edit: " + card);
    assertTrue(card.contains("<span class=\"stage\">original</span> " + R2), "the chain of rules: " + card);
    assertTrue(card.contains("<span class=\"stage\">step 1</span> Answer when no violation is left"), card);
    assertTrue(card.contains("Rating<ins>, TV_series.id</ins>"), "the negative as an edit: " + card);
    assertEquals(1, count(dom, "<div class=\"card\">"), "only the opened card is built");
  }

  @Test
  void databaseAndOutcomeFiltersCountWhatTheSplitFileHolds() throws Exception {
    JsonNode dev = JSON.readTree(data.resolve("dev.json").toFile());
    int expected = 0;
    for (JsonNode r : dev) {
      boolean hiddenSelected = false;
      for (JsonNode v : r.get("violations_original")) {
        hiddenSelected |= v.get("policy").asText().equals("Hidden") && v.get("role").asText().equals("SelectExpr");
      }
      if (r.get("db_id").asText().equals("concert_singer")
          && r.get("gold_label").get("reason") != null
          && r.get("gold_label").get("reason").asText().equals("R1_NO_CANDIDATE")
          && hiddenSelected) {
        expected++;
      }
    }
    String dom = Chromium.dumpDom(
        url("split=dev&db=concert_singer&outcome=" + encode("REFUSE R1_NO_CANDIDATE") + "&policy=Hidden&role=SelectExpr"), tmp);
    assertTrue(expected > 0);
    assertEquals(expected + " of 1034 records of dev", between(dom, "id=\"count\">", "<"));
    assertEquals(expected, count(dom, "<details class=\"rec\""));
    String search = Chromium.dumpDom(url("split=dev&q=dev_0003"), tmp);
    assertEquals("1 of 1034 records of dev", between(search, "id=\"count\">", "<"));
  }

  @Test
  void trainLoadsWithNothingFetched() throws Exception {
    String html = Files.readString(data.resolve("qa").resolve(AuditPage.FILE));
    assertFalse(Pattern.compile("(src|href)=\"(https?:)?//").matcher(html).find(), "nothing fetched");
    String dom = Chromium.dumpDom(url("split=train"), tmp);
    assertEquals("7000 of 7000 records of train", between(dom, "id=\"count\">", "<"));
    assertEquals(100, count(dom, "<details class=\"rec\""), "the first 100 records listed, the rest on demand");
    long ms = Long.parseLong(between(dom, "id=\"load-ms\">", "<")); // the page's own figure: shown, not judged here
    System.out.printf(Locale.ROOT, "audit page, train (7,000 records, %,d bytes): ready in %d ms%n", html.length(), ms);
    String screenshot = System.getProperty("audit.screenshot");
    if (screenshot != null) {
      Chromium.screenshot(url("split=dev&rule=" + encode("R1: replace a selected Hidden or JoinOnly column by an _id column of its table")
          + "&open=dev_0003"), Path.of(screenshot), 2000, tmp);
    }
  }

  @Test
  void theQaReportLinksToTheFilteredRecords() throws IOException {
    String report = Files.readString(data.resolve("qa").resolve(QaReport.HTML_FILE));
    Matcher link = Pattern.compile("<a href=\"audit\\.html#split=dev&amp;rule=([^\"]+)\">").matcher(report);
    assertTrue(link.find(), "a rule of dev links to the audit page");
    assertTrue(report.contains("<a href=\"audit.html#split=dev&amp;db=concert_singer\">concert_singer</a>"));
    assertTrue(report.contains("Rule coverage"));
  }

  /** Occurrences in the page's elements, not in its script. */
  private static int count(String dom, String what) {
    int script = dom.indexOf("<script");
    String text = script < 0 ? dom : dom.substring(0, script);
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}
