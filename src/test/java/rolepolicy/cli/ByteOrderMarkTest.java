package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.sql.GrantStatements;

/**
 * A byte-order mark starting a JSON Lines or SQL input is skipped; one anywhere else is named in
 * the error as "U+FEFF (byte-order mark)", never printed as an invisible character.
 */
class ByteOrderMarkTest {
  private static final String BOM = "\uFEFF";

  @TempDir Path dir;

  private static List<String> records(int n) throws Exception {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(Files.newInputStream(TestData.rcrFile())), StandardCharsets.UTF_8))) {
      return in.lines().limit(n).toList();
    }
  }

  @Test
  void decideSkipsALeadingByteOrderMark() throws Exception {
    Path file = Files.writeString(dir.resolve("records.jsonl"), BOM + String.join("\n", records(5)) + "\n");
    CommandRun run = CommandRun.of("decide", file.toString(), "--out", dir.resolve("out").toString());
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().startsWith("decide: 5 records"), run.out());
  }

  @Test
  void aByteOrderMarkInsideTheRecordsIsNamedVisibly() throws Exception {
    List<String> lines = records(2);
    Path file = Files.writeString(dir.resolve("records.jsonl"), lines.get(0) + "\n" + BOM + lines.get(1) + "\n");
    CommandRun run = CommandRun.of("decide", file.toString(), "--out", dir.resolve("out").toString());
    assertEquals(Main.BAD_INPUT, run.code(), run.err());
    assertTrue(run.err().startsWith("error: " + file + ":2: not JSON: Unexpected character ('U+FEFF (byte-order mark)'"),
        run.err());
    assertFalse(run.err().contains(BOM), run.err());
  }

  @Test
  void aJsonFileStartingWithAByteOrderMarkIsRead() throws Exception {
    Path file = Files.writeString(dir.resolve("overrides.json"), BOM + "[{\"db_id\": \"d\"}]\n");
    assertEquals("d", rolepolicy.io.JsonFiles.read(file).get(0).get("db_id").asText()); // Jackson skips it
  }

  @Test
  void grantStatementsSkipALeadingByteOrderMark() throws Exception {
    Path file = Files.writeString(dir.resolve("grants.sql"), BOM + "GRANT SELECT (a) ON s.t TO r;\n");
    assertEquals(1, GrantStatements.parse(Files.readString(file), file.toString()).size());
  }

  @Test
  void aByteOrderMarkInsideGrantStatementsIsNamedVisibly() throws Exception {
    Path file = Files.writeString(dir.resolve("grants.sql"), "GRANT SELECT (a) ON s.t TO r;\n" + BOM + "GRANT SELECT (b) ON s.t TO r;\n");
    CommandRun run = CommandRun.of("export-grants", "--tables", TestData.spiderDir().resolve("tables.json").toString(),
        "--profile", "grants", "--grants", file.toString(), "--grant-role", "r", "--to", "r", "--out", dir.resolve("out").toString());
    assertEquals(Main.BAD_INPUT, run.code(), run.err());
    assertEquals("error: " + file + ":2: unexpected character 'U+FEFF (byte-order mark)'\n", run.err());
  }
}
