package rolepolicy.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.evaluate.QuestionResult;

/**
 * The page as headless Chromium (Debian's {@code chromium}) loads it: the DOM it builds from the
 * file has the tables, the p-values and the charts. Skipped when {@code chromium} is not on the
 * PATH; .ci/run installs it.
 */
class CompareHtmlBrowserTest {
  @TempDir Path dir;

  private String dumpDom(Path page) throws IOException, InterruptedException {
    return rolepolicy.Chromium.dumpDom(page.toUri().toString(), dir);
  }

  @Test
  void chromiumShowsTheTablesPValuesAndCharts() throws Exception {
    List<QuestionResult> b = new ArrayList<>(Fixture.compliantFirst(4));
    b.set(9, Fixture.refusal(9, false));
    Comparison c = Comparison.of(List.of(Fixture.run("model-a", Fixture.compliantFirst(7)), Fixture.run("model-b", b)), 42, 200);
    String html = CompareHtml.render(c);
    assertFalse(Pattern.compile("(src|href)=\"(https?:)?//").matcher(html).find(), "nothing fetched");
    Path page = dir.resolve("compare.html");
    Files.writeString(page, html, StandardCharsets.UTF_8);

    String dom = dumpDom(page);
    String metrics = section(dom, "metrics");
    assertEquals(1 + Measure.MAIN.size(), count(metrics, "<tr>"), "a header and a row per measure");
    assertTrue(metrics.contains("<td>compliant</td><td class=\"n\">70.0 % [40.0, 90.0]</td>"), metrics);
    String tests = section(dom, "tests");
    assertEquals(2, count(tests, "<tr>"), "a header and the one pair");
    assertTrue(tests.contains("3 / 0, p 0.250"), "execution match McNemar: " + tests);
    assertTrue(tests.contains("1 / 0, p 1.000"), "decision McNemar: " + tests);
    Matcher p = Pattern.compile("<td class=\"n\">(0\\.\\d{3})</td>").matcher(tests);
    assertTrue(p.find(), "the paired bootstrap p-value of compliance: " + tests);
    assertTrue(count(section(dom, "charts"), "<img src=\"data:image/png;base64,") >= 5, "charts inline");
    assertTrue(section(dom, "differing").contains("SELECT 4"), "the differing questions with both answers");
  }

  /** The page from the heading with this id to the next h2. */
  private static String section(String dom, String id) {
    int start = dom.indexOf("<h2 id=\"" + id + "\">");
    assertTrue(start >= 0, "no section " + id);
    int end = dom.indexOf("<h2", start + 1);
    return dom.substring(start, end < 0 ? dom.length() : end);
  }

  private static int count(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}
