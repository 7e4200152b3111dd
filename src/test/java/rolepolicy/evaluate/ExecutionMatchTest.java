package rolepolicy.evaluate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.db.Execution;
import rolepolicy.db.Execution.Status;
import rolepolicy.db.SqliteRunner;

/** Execution and result comparison on small SQLite files built here. */
class ExecutionMatchTest {
  @TempDir static Path databases;
  static Path file;

  @BeforeAll
  static void buildDatabase() throws Exception {
    Path dir = Files.createDirectories(databases.resolve("shop"));
    file = dir.resolve("shop.sqlite");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price REAL, stock INTEGER)");
      s.execute("INSERT INTO item VALUES (1, 'pen', 2.0, 10), (2, 'ink', NULL, 10), (3, 'pad', 3.5, NULL), (4, 'pen', 2.0, 5)");
    }
  }

  private static Execution run(String sql) {
    try (SqliteRunner runner = new SqliteRunner(databases, 30)) {
      return runner.run("shop", sql);
    }
  }

  private static boolean same(String gold, String predicted, boolean ordered) {
    Execution g = run(gold);
    Execution p = run(predicted);
    assertEquals(Status.OK, g.status(), g.message());
    assertEquals(Status.OK, p.status(), p.message());
    return ResultMatch.matches(g.rows(), p.rows(), ordered);
  }

  @Test
  void unorderedResultsMatchInAnyRowOrder() {
    assertTrue(same("SELECT name FROM item ORDER BY id", "SELECT name FROM item ORDER BY id DESC", false));
  }

  @Test
  void orderedResultsMustMatchRowOrder() {
    assertFalse(same("SELECT name FROM item ORDER BY id", "SELECT name FROM item ORDER BY id DESC", true));
    assertTrue(same("SELECT name FROM item ORDER BY id", "SELECT name FROM item ORDER BY id", true));
  }

  @Test
  void duplicatesCount() {
    assertFalse(same("SELECT name FROM item", "SELECT DISTINCT name FROM item", false));
  }

  @Test
  void nullEqualsNullButNotAValue() {
    assertTrue(same("SELECT price FROM item WHERE id = 2", "SELECT NULL", false));
    assertFalse(same("SELECT price FROM item WHERE id = 2", "SELECT 0", false));
    assertFalse(same("SELECT price FROM item WHERE id = 2", "SELECT 'NULL'", false));
  }

  @Test
  void numbersCompareByValueAcrossIntegerAndFloat() {
    assertTrue(same("SELECT sum(stock) FROM item", "SELECT 25.0", false));
    assertTrue(same("SELECT price FROM item WHERE id = 1", "SELECT 2", false));
    assertFalse(same("SELECT price FROM item WHERE id = 1", "SELECT '2'", false));
    assertFalse(same("SELECT avg(price) FROM item", "SELECT 2", false));
  }

  @Test
  void rowsWhoseValuesReadAlikeWhenJoinedStillMatchInAnyOrder() {
    List<List<Object>> gold = List.of(List.of("a, s:b", "c"), List.of("a", "b, s:c"));
    assertTrue(ResultMatch.matches(gold, List.of(gold.get(1), gold.get(0)), false));
    assertFalse(ResultMatch.matches(gold, List.of(gold.get(1), gold.get(1)), false));
  }

  @Test
  void columnOrderCounts() {
    assertFalse(same("SELECT id, name FROM item", "SELECT name, id FROM item", false));
  }

  @Test
  @org.junit.jupiter.api.Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES) // guards a hang, not speed
  void aQueryOverTheTimeLimitIsATimeout() {
    try (SqliteRunner runner = new SqliteRunner(databases, 0.5)) {
      Execution e = runner.run("shop", // never ends by itself: only the time limit stops it
          "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n");
      assertEquals(Status.TIMEOUT, e.status(), e.message());
      assertEquals(Status.OK, runner.run("shop", "SELECT count(*) FROM item").status(), "the connection stays usable");
    }
  }

  @Test
  void aQueryThatWritesFailsAndTheFileIsUnchanged() throws Exception {
    byte[] before = Files.readAllBytes(file);
    for (String write : List.of(
        "DELETE FROM item",
        "UPDATE item SET stock = 0",
        "INSERT INTO item VALUES (9, 'x', 1, 1) RETURNING id",
        "DROP TABLE item",
        "CREATE TABLE t (x)")) {
      Execution e = run(write);
      assertEquals(Status.ERROR, e.status(), write);
    }
    assertArrayEquals(before, Files.readAllBytes(file));
    assertEquals(4, run("SELECT * FROM item").rows().size());
  }

  @Test
  void aFileThatIsNotSqliteIsNoDatabase() throws Exception {
    Path dir = Files.createDirectories(databases.resolve("text"));
    Files.writeString(dir.resolve("text.sqlite"), "not a database, only some text ".repeat(10));
    try (SqliteRunner runner = new SqliteRunner(databases, 30)) {
      for (int i = 0; i < 2; i++) {
        Execution e = runner.run("text", "SELECT 1");
        assertEquals(Status.NO_DATABASE, e.status(), e.message());
        assertTrue(e.message().contains("text.sqlite") && e.message().contains("not a database"), e.message());
      }
    }
  }

  @Test
  void aDatabaseFolderWithUriCharactersInItsPathOpens(@TempDir Path base) throws Exception {
    Path odd = base.resolve("my dbs %20 #1 ?x");
    Files.createDirectories(odd.resolve("shop"));
    Files.copy(file, odd.resolve("shop/shop.sqlite"));
    try (SqliteRunner runner = new SqliteRunner(odd, 30)) {
      Execution e = runner.run("shop", "SELECT count(*) FROM item");
      assertEquals(Status.OK, e.status(), e.message());
      assertEquals(List.of(List.<Object>of(4)), e.rows());
    }
  }

  @Test
  void aMissingDatabaseFileIsReportedNotThrown() {
    try (SqliteRunner runner = new SqliteRunner(databases, 30)) {
      Execution e = runner.run("nowhere", "SELECT 1");
      assertEquals(Status.NO_DATABASE, e.status());
      assertTrue(e.message().contains("nowhere.sqlite"), e.message());
    }
  }
}
