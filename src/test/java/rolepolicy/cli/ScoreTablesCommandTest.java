package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** score-tables and bench-tables through Main, on a dataset made here: output, errors, exit codes. */
class ScoreTablesCommandTest {
  @TempDir Path dir;

  record Result(int code, String out, String err) {}

  private static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  /** One dataset: a table of three people, a select and an aggregation query. */
  private Path uda() throws IOException {
    Path people = dir.resolve("Query/People");
    Files.createDirectories(people.resolve("Select"));
    Files.createDirectories(people.resolve("Agg"));
    Files.writeString(people.resolve("People.csv"), "id,name,age,hobbies\n1,Ann,30,chess||golf\n2,Bob,41,\n3,Cid,52,golf\n");
    Files.writeString(people.resolve("People_attributes.json"), """
        {"people": {"name": {"value_type": "str", "description": "full name"},
                    "age": {"value_type": "int", "description": "age in years"},
                    "hobbies": {"value_type": "multi_str", "description": "hobbies"}}}""");
    Files.writeString(people.resolve("Select/select_queries.sql"),
        "-- Query 1: select (people)\nSELECT name, hobbies FROM people;\n\n-- Query 2: select (people)\nSELECT nickname FROM people;\n");
    Files.writeString(people.resolve("Agg/agg_queries.sql"),
        "-- Query 1: aggregation (people)\nSELECT hobbies, AVG(age) AS avg_age FROM people GROUP BY hobbies;\n");
    return dir.resolve("Query");
  }

  @Test
  void theGoldAsResultScoresOneAndTheTableNamesWhatWasNotScored() throws IOException {
    Path out = dir.resolve("out");
    Result r = run("score-tables", "--uda", uda().toString(), "--gold-as-result", "--out", out.toString());
    assertEquals(0, r.code(), r.err());
    assertEquals("", r.err());
    assertTrue(r.out().contains("People   Agg             1    1       1      1.000   1.000  1.000"), r.out());
    assertTrue(r.out().contains("People   Select          2    1       1      1.000   1.000  1.000"), r.out());
    assertTrue(r.out().contains("2 of 3 queries ran on the ground truth; 2 scored"), r.out());
    assertTrue(r.out().contains("not scored: " + dir.resolve("Query/People/Select/select_queries.sql")
        + ": query 2 (line 4): the ground truth of people has no column 'nickname'"), r.out());
    assertTrue(Files.isRegularFile(out.resolve("People/Select/select_queries/1/acc_result/matched_result.csv")));
    assertTrue(Files.isRegularFile(out.resolve("People/Select/select_queries/2/acc_result/acc.json")));
    assertFalse(Files.exists(out.resolve("People/Select/select_queries/2/acc_result/gold_result.csv")));
  }

  @Test
  void aResultFolderIsScoredAndCopied() throws IOException {
    Path root = uda();
    Path result = dir.resolve("results/People/Select/select_queries/1/result.csv");
    Files.createDirectories(result.getParent());
    // Bob's hobbies empty as in the gold; Cid's wrong; Ann's name in other case
    Files.writeString(result, "id,name,hobbies\n1,ann,golf||chess\n2,Bob,\n3,Cid,tennis\n");
    Path out = dir.resolve("out");
    Result r = run("score-tables", "--uda", root.toString(), "--results", dir.resolve("results").toString(),
        "--out", out.toString());
    assertEquals(0, r.code(), r.err());
    // name 3/3; hobbies cells 1, 1, 0 → 2/3; mean (1 + 2/3)/2
    assertTrue(r.out().contains("People   Select          2    1       1      0.833   0.833  0.833"), r.out());
    assertEquals(Files.readString(result), Files.readString(out.resolve("People/Select/select_queries/1/result.csv")));
  }

  @Test
  void theAuthorsReadingsScoreBothEmptyZero() throws IOException {
    Path root = uda();
    Files.writeString(root.resolve("People/Select/select_queries.sql"),
        "-- Query 1: select (people)\nSELECT name FROM people WHERE age > 99;\n");
    Path result = dir.resolve("results/People/Select/select_queries/1/result.csv");
    Files.createDirectories(result.getParent());
    Files.writeString(result, "id,name\n");
    for (String readings : new String[] {"ours", "authors"}) {
      Path out = dir.resolve("out-" + readings);
      Result r = run("score-tables", "--uda", root.toString(), "--results", dir.resolve("results").toString(),
          "--out", out.toString(), "--readings", readings);
      assertEquals(0, r.code(), r.err());
      String figure = readings.equals("ours") ? "1.000   1.000  1.000" : "0.000   0.000  0.000";
      assertTrue(r.out().contains("People   Select          1    1       1      " + figure), r.out());
      assertTrue(Files.readString(out.resolve("summary.json")).contains("\"readings\" : \"" + readings + "\""));
      assertEquals(readings.equals("authors"), r.out().contains("readings: the authors' (both empty score 0;"), r.out());
    }
    Result bad = run("score-tables", "--uda", root.toString(), "--gold-as-result", "--readings", "theirs");
    assertEquals(2, bad.code());
    assertTrue(bad.err().contains("--readings must be ours or authors, not 'theirs'"), bad.err());
  }

  @Test
  void badCommandLinesAndBadFoldersAreNamed() throws IOException {
    Result neither = run("score-tables", "--uda", uda().toString());
    assertEquals(2, neither.code());
    assertTrue(neither.err().contains("--results=DIR"), neither.err());
    Result both = run("score-tables", "--gold-as-result", "--results", "x");
    assertEquals(2, both.code());
    Result llm = run("score-tables", "--uda", uda().toString(), "--gold-as-result", "--judge", "llm");
    assertEquals(2, llm.code());
    assertTrue(llm.err().contains("--judge llm needs --llm-url and --llm-model"), llm.err());
    Result judge = run("score-tables", "--uda", uda().toString(), "--gold-as-result", "--judge", "exact");
    assertTrue(judge.err().contains("--judge must be normalising or llm, not 'exact'"), judge.err());
    Result missing = run("score-tables", "--uda", dir.resolve("nowhere").toString(), "--gold-as-result");
    assertEquals(Main.BAD_INPUT, missing.code());
    assertEquals("error: " + dir.resolve("nowhere") + ": UDA-Bench Query folder not found", missing.err().strip());
    Result unknown = run("score-tables", "--uda", uda().toString(), "--gold-as-result", "--datasets", "Art");
    assertEquals(Main.BAD_INPUT, unknown.code());
    assertTrue(unknown.err().contains("no dataset 'Art' (have: People)"), unknown.err());
  }

  @Test
  void aResultsFolderThatIsNotThereIsAnErrorNotZeroScored() throws IOException {
    Path root = uda();
    Path out = dir.resolve("out");
    Result r = run("score-tables", "--uda", root.toString(), "--results", dir.resolve("no-results").toString(),
        "--out", out.toString());
    assertEquals(Main.BAD_INPUT, r.code(), r.out());
    assertEquals("error: " + dir.resolve("no-results") + ": results folder not found (--results)", r.err().strip());
    assertFalse(Files.exists(out));
  }

  @Test
  void textAfterAQuerysStatementIsListedWithItsLineAndTheQueryIsNotRun() throws IOException {
    Path root = uda();
    Path sql = root.resolve("People/Agg/agg_queries.sql");
    Files.writeString(sql, Files.readString(sql) + "this is no SQL at all;\n");
    Path out = dir.resolve("out");
    Result r = run("score-tables", "--uda", root.toString(), "--gold-as-result", "--out", out.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("not scored: " + sql + ": query 1 (line 1): line 3: text after the statement's ';'"
        + " ('this is no SQL at all;'): one statement per '-- Query N:' line"), r.out());
    assertTrue(r.out().contains("People   Agg             1    0       0"), r.out());
    assertTrue(Files.readString(out.resolve("People/Agg/agg_queries/1/acc_result/acc.json")).contains("\"NOT_RUN\""));
  }

  @Test
  void aSemicolonInQuotesOrACommentAfterTheStatementIsNoSecondStatement() throws IOException {
    Path root = uda();
    Files.writeString(root.resolve("People/Select/select_queries.sql"),
        "-- Query 1: select (people)\nSELECT name FROM people WHERE name <> 'a;b'; -- names\n;\n");
    Result r = run("score-tables", "--uda", root.toString(), "--gold-as-result", "--out", dir.resolve("out").toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("People   Select          1    1       1      1.000   1.000  1.000"), r.out());
  }

  @Test
  void aResultCutShortIsNotScoredAndItsLineIsNamed() throws IOException {
    Path root = uda();
    Path result = dir.resolve("results/People/Select/select_queries/1/result.csv");
    Files.createDirectories(result.getParent());
    Files.writeString(result, "id,name,hobbies\n1,Ann,chess||golf\n2,Bob,\n3,Ci");
    Path out = dir.resolve("out");
    Result r = run("score-tables", "--uda", root.toString(), "--results", dir.resolve("results").toString(),
        "--out", out.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("not scored: " + result + ": not a whole table: line 4 has 2 fields, the header 3"
        + " (is the file cut short?)"), r.out());
    assertTrue(r.out().contains("People   Select          2    1       0"), r.out());
  }

  @Test
  void aKeyValueOptionWithoutEqualsSaysOptionOnce() throws IOException {
    Result r = run("score-tables", "--uda", uda().toString(), "--gold-as-result", "--id-column", "people");
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("Value for option '--id-column' (TABLE=COLUMN) should be in KEY=VALUE format"), r.err());
    assertFalse(r.err().contains("option option"), r.err());
  }

  @Test
  void benchTablesPrintsItsFigures() throws IOException {
    Result r = run("bench-tables", "--uda", uda().toString(), "--runs", "1");
    assertEquals(0, r.code(), r.err());
    assertEquals("", r.err());
    assertTrue(r.out().startsWith("UDA-Bench: 3 queries in 1 datasets, 2 run on the ground truth, 2 scored"), r.out());
    assertTrue(r.out().matches("(?s).*score-tables / floor: +\\d+\\.\\d\\d×.*"), r.out());
    assertEquals(2, run("bench-tables", "--runs", "0").code());
  }
}
