package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import rolepolicy.TestData;

/** The review worksheet on a real database, pets_1: flags, key roles, sample values, overrides. */
class ReviewCommandTest {
  @TempDir Path dir;

  private record Run(int code, String out, String err) {}

  private Run review(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new ReviewCommand());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  private String pets(Path overrides) {
    Run run =
        review("--database", "pets_1", "--spider", TestData.spiderDir().toString(), "--overrides", overrides.toString());
    assertEquals(0, run.code(), run.err());
    return run.out();
  }

  /** The line of one column, with the flag and override lines that follow it. */
  private static String entry(String out, String column) {
    List<String> lines = out.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).length() > 2 && lines.get(i).substring(2).startsWith(column + " ")) {
        StringBuilder entry = new StringBuilder(lines.get(i));
        for (int j = i + 1; j < lines.size() && lines.get(j).startsWith("      "); j++) {
          entry.append('\n').append(lines.get(j));
        }
        return entry.toString();
      }
    }
    throw new AssertionError("no line for " + column + " in\n" + out);
  }

  @Test
  void flagsTheSuspiciousAutomaticPolicies() throws IOException {
    String out = pets(Files.writeString(dir.resolve("none.json"), "[]\n"));

    assertTrue(out.contains("== pets_1: 3 tables, 14 columns, 4 flagged, 0 overridden; samples: database/pets_1/pets_1.sqlite"), out);
    String weight = entry(out, "Pets.weight");
    assertTrue(weight.startsWith("! "), weight);
    assertTrue(weight.contains("Hidden") && weight.contains("Body measures (weight, height, age) are Hidden"), weight);
    assertTrue(weight.contains("12.0 | 13.4 | 9.3"), weight);
    assertTrue(weight.contains("flag: Hidden in table Pets, which does not look like it describes people"), weight);

    String petId = entry(out, "Pets.PetID");
    assertTrue(petId.startsWith("! ") && petId.contains("flag: a key left Public: PK,referenced"), petId);
    String hasPetId = entry(out, "Has_Pet.PetID");
    assertTrue(hasPetId.contains("FK->Pets.PetID") && hasPetId.contains("flag: a key left Public"), hasPetId);
    String cityCode = entry(out, "Student.city_code");
    assertTrue(cityCode.startsWith("! ") && cityCode.contains("flag: JoinOnly but no key"), cityCode);

    // a person's age in a table of people, and a declared key, are not suspicious
    assertTrue(entry(out, "Student.Age").startsWith("  "), out);
    assertTrue(entry(out, "Student.StuID").startsWith("  "), out);
    assertTrue(entry(out, "Has_Pet.StuID").contains("FK->Student.StuID"), out);
  }

  @Test
  void showsTheFinalPolicyAndReasonOfAnOverride() throws IOException {
    String out = pets(Path.of("data", "overrides.json"));

    String weight = entry(out, "Pets.weight");
    assertTrue(weight.startsWith("  "), "an overridden column is no longer flagged: " + weight);
    assertTrue(weight.matches("(?s).*Hidden +Public .*"), weight);
    assertTrue(weight.contains("override: Pets.weight is a pet's weight, not a person's body data"), weight);
    assertTrue(entry(out, "Pets.PetID").matches("(?s)  .*Public +JoinOnly .*"), out);
    assertTrue(entry(out, "Student.city_code").startsWith("! "), "left as assigned, still flagged");
    assertTrue(out.contains("1 flagged, 3 overridden"), out);
  }

  @Test
  void readsTheDatabaseWithoutWritingIt() throws IOException {
    Path sqlite = TestData.spiderDir().resolve("database/pets_1/pets_1.sqlite");
    long size = Files.size(sqlite);
    var modified = Files.getLastModifiedTime(sqlite);
    pets(Files.writeString(dir.resolve("none.json"), "[]\n"));
    assertEquals(size, Files.size(sqlite));
    assertEquals(modified, Files.getLastModifiedTime(sqlite));
    assertFalse(Files.exists(sqlite.resolveSibling("pets_1.sqlite-journal")));
  }

  /** Through {@link Main}, as from the command line: its handler turns bad input into exit code 1. */
  private static Run main(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Run(code, out.toString(), err.toString());
  }

  private static String kaggleTables() {
    return TestData.kaggleDir().resolve("KaggleDBQA_tables.json").toString();
  }

  private static String kaggleDatabases() {
    return TestData.kaggleDir().resolve("databases").toString();
  }

  /** The worksheet's head line of one database. */
  private static String head(String out, String db) {
    return out.lines().filter(l -> l.startsWith("== " + db + ":")).findFirst()
        .orElseThrow(() -> new AssertionError("no worksheet of " + db + " in\n" + out));
  }

  @Test
  void reviewsAnyBenchmarkFromItsTablesFileWithSamplesWhereThereIsADatabase() {
    Run run = review("--tables", kaggleTables(), "--db", kaggleDatabases());
    assertEquals(0, run.code(), run.err());
    String out = run.out();
    assertTrue(out.startsWith("review: 8 databases; rules rules; overrides none (0 entries)"), out);

    Path sqlite = TestData.kaggleDir().resolve("databases/StudentMathScore/StudentMathScore.sqlite");
    assertTrue(head(out, "StudentMathScore").endsWith("samples: " + sqlite), head(out, "StudentMathScore"));
    String score = entry(out, "NDECoreExcel_Math_Grade8.average_scale_score");
    assertTrue(score.startsWith("! ") && score.contains("AggOnly") && score.contains("283 | 268 | 277"), score);

    // no SQLite file here: the schema alone, and the worksheet says so
    Path missing = TestData.kaggleDir().resolve("databases/TheHistoryofBaseball/TheHistoryofBaseball.sqlite");
    assertTrue(
        head(out, "TheHistoryofBaseball")
            .endsWith("samples: none (no " + missing + "): reviewed from the schema only"),
        head(out, "TheHistoryofBaseball"));
    assertTrue(entry(out, "player.weight").matches("  player\\.weight +text +- +Hidden +=.*Hidden"), out);
  }

  @Test
  void withoutDatabasesEveryDatabaseIsReviewedFromTheSchemaOnly() {
    Run run = review("--tables", TestData.birdDir().resolve("dev_tables.json").toString(), "--database", "formula_1");
    assertEquals(0, run.code(), run.err());
    assertTrue(
        head(run.out(), "formula_1").endsWith("samples: none (no --db given): reviewed from the schema only"),
        run.out());
    // BIRD's formula_1: data/overrides.json, Spider's review, is not applied to it unless asked
    assertTrue(run.out().startsWith("review: formula_1; rules rules; overrides none (0 entries)"), run.out());
    assertTrue(entry(run.out(), "drivers.driverId").matches("(?s)! drivers\\.driverId .* Public +=.*"), run.out());
    assertTrue(run.out().contains(", 0 overridden;"), run.out());
  }

  @Test
  void explicitOverridesApplyToAnotherBenchmark() throws IOException {
    Path overrides =
        Files.writeString(
            dir.resolve("kaggle.json"),
            """
            [{"db_id": "TheHistoryofBaseball", "table": "salary", "column": "team_id",
              "auto_policy": "JoinOnly", "final_policy": "Public", "reason": "salary.team_id test"}]
            """);
    Run run = review("--tables", kaggleTables(), "--database", "TheHistoryofBaseball", "--overrides", overrides.toString());
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().startsWith("review: TheHistoryofBaseball; rules rules; overrides " + overrides + " (1 entries)"), run.out());
    String team = entry(run.out(), "salary.team_id");
    assertTrue(team.matches("(?s)  .*JoinOnly +Public .*") && team.contains("override: salary.team_id test"), team);
  }

  @Test
  void spiderOverridesOnAnotherBenchmarkNameTheirUnknownDatabases() {
    Run run = main("review", "--tables", kaggleTables(), "--overrides", "data/overrides.json");
    assertEquals(Main.BAD_INPUT, run.code(), run.out());
    assertTrue(run.err().contains("data/overrides.json") && run.err().contains("names no database of the schema file"), run.err());
  }

  @Test
  void aMissingTablesFileIsBadInputThatNamesIt() {
    Path missing = dir.resolve("no_tables.json");
    Run run = main("review", "--tables", missing.toString());
    assertEquals(Main.BAD_INPUT, run.code());
    assertTrue(run.err().contains("error: " + missing + ": file not found"), run.err());
  }

  @Test
  void aMissingDatabasesFolderIsBadInputThatNamesIt() {
    Path missing = dir.resolve("no_databases");
    Run run = main("review", "--tables", kaggleTables(), "--db", missing.toString());
    assertEquals(Main.BAD_INPUT, run.code());
    assertTrue(run.err().contains("error: " + missing + ": folder not found (--db)"), run.err());
  }

  @Test
  void anUnknownDatabaseOfATablesFileIsAnErrorThatNamesTheFile() {
    Run run = main("review", "--tables", kaggleTables(), "--database", "concert_singer");
    assertEquals(Main.BAD_INPUT, run.code());
    assertFalse(run.err().contains("Usage:"), run.err());
    assertTrue(run.err().contains("unknown database 'concert_singer': not in " + kaggleTables()), run.err());
  }

  @Test
  void spiderAndTablesTogetherOrDatabasesAloneAreUsageErrors() {
    Run both = main("review", "--spider", TestData.spiderDir().toString(), "--tables", kaggleTables());
    assertEquals(2, both.code());
    assertTrue(both.err().contains("give either --spider or --tables [--db]"), both.err());
    Run alone = main("review", "--db", kaggleDatabases());
    assertEquals(2, alone.code());
    assertTrue(alone.err().contains("--db needs --tables"), alone.err());
  }

  @Test
  void anUnknownDatabaseIsOneLineWithoutTheUsage() throws IOException {
    Run run =
        main("review", "--database", "no_such_db", "--spider", TestData.spiderDir().toString(),
            "--overrides", Files.writeString(dir.resolve("none.json"), "[]\n").toString());
    assertEquals(Main.BAD_INPUT, run.code());
    assertEquals("error: unknown database 'no_such_db': not in " + TestData.spiderDir().resolve("tables.json"),
        run.err().strip());
  }

  @Test
  void aMistypedDatabaseIsGivenTheCloseIds() {
    Run run = main("review", "--database", "concert_singr", "--spider", TestData.spiderDir().toString());
    assertEquals(Main.BAD_INPUT, run.code());
    assertEquals("error: unknown database 'concert_singr': not in " + TestData.spiderDir().resolve("tables.json")
        + "; did you mean concert_singer?", run.err().strip());
  }

  @Test
  void aSqliteFileThatIsNoDatabaseStopsTheReviewWithOneMessage() throws IOException {
    Path spider = Files.createDirectories(dir.resolve("spider"));
    Files.copy(TestData.spiderDir().resolve("tables.json"), spider.resolve("tables.json"));
    Path sqlite = Files.createDirectories(spider.resolve("database/concert_singer")).resolve("concert_singer.sqlite");
    byte[] noise = new byte[4096];
    new java.util.Random(7).nextBytes(noise);
    Files.write(sqlite, noise);
    Run run = main("review", "--database", "concert_singer", "--spider", spider.toString());
    assertEquals(Main.BAD_INPUT, run.code(), run.err());
    assertEquals("", run.out());
    assertEquals(1, run.err().strip().lines().count(), run.err());
    assertTrue(run.err().startsWith("error: " + sqlite + ": not a readable SQLite database"), run.err());
  }

  @Test
  void theOldDatabasesOptionStillWorksWithAWarningNamingDb() {
    Run run = main("review", "--tables", kaggleTables(), "--databases", kaggleDatabases(), "--database", "StudentMathScore");
    assertEquals(0, run.code(), run.err());
    assertTrue(run.err().contains("warning: --databases is now --db"), run.err());
    Path sqlite = TestData.kaggleDir().resolve("databases/StudentMathScore/StudentMathScore.sqlite");
    assertTrue(head(run.out(), "StudentMathScore").endsWith("samples: " + sqlite), run.out());
  }

  @Test
  void anOldStyleDbWithADatabaseIdIsAUsageErrorThatNamesDatabase() {
    Run run = main("review", "--db", "concert_singer");
    assertEquals(2, run.code(), run.err());
    assertTrue(run.err().contains("--db is the folder of SQLite databases; 'concert_singer' is no folder: "
        + "to review one database give --database concert_singer"), run.err());
    Run withSpider = main("review", "--spider", TestData.spiderDir().toString(), "--db", "pets_1");
    assertEquals(2, withSpider.code(), withSpider.err());
    assertTrue(withSpider.err().contains("give --database pets_1"), withSpider.err());
  }
}
