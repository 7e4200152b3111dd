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
        review("--db", "pets_1", "--spider", TestData.spiderDir().toString(), "--overrides", overrides.toString());
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

  @Test
  void anUnknownDatabaseIsAUsageError() throws IOException {
    Run run =
        review("--db", "no_such_db", "--spider", TestData.spiderDir().toString(),
            "--overrides", Files.writeString(dir.resolve("none.json"), "[]\n").toString());
    assertEquals(2, run.code());
    assertTrue(run.err().contains("unknown database 'no_such_db'"), run.err());
  }
}
