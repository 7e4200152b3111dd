package rolepolicy.evaluate;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.db.Execution;
import rolepolicy.db.Execution.Status;
import rolepolicy.db.SqliteRunner;

/**
 * Execution match value by value: which cells of a gold and a predicted result are the same
 * value. Where SQLite can produce the value, it comes from a real query (so the Java type is the
 * one the driver returns); NaN, which SQLite turns into NULL, is built by hand.
 */
class ResultMatchTest {
  @TempDir static Path databases;

  @BeforeAll
  static void buildDatabase() throws Exception {
    Path dir = Files.createDirectories(databases.resolve("values"));
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("values.sqlite"));
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (x)");
    }
  }

  /** The one-row results of two queries match. */
  private static boolean same(String gold, String predicted) {
    return ResultMatch.matches(rows(gold), rows(predicted), false);
  }

  private static List<List<Object>> rows(String sql) {
    try (SqliteRunner runner = new SqliteRunner(databases, 30)) {
      Execution e = runner.run("values", sql);
      assertEquals(Status.OK, e.status(), e.message());
      return e.rows();
    }
  }

  /** One row of one cell. */
  private static List<List<Object>> cell(Object value) {
    return List.of(Arrays.asList(value));
  }

  private static boolean sameCell(Object gold, Object predicted) {
    return ResultMatch.matches(cell(gold), cell(predicted), false);
  }

  @Test
  @DisplayName("Execution match: NULL equals NULL and is not the text 'null'")
  void executionMatchNullIsNotTheTextNull() {
    assertNull(rows("SELECT NULL").get(0).get(0));
    assertAll(
        () -> assertTrue(same("SELECT NULL", "SELECT NULL"), "NULL = NULL"),
        () -> assertFalse(same("SELECT NULL", "SELECT 'null'"), "NULL vs 'null'"),
        () -> assertFalse(same("SELECT 'null'", "SELECT NULL"), "'null' vs NULL"),
        () -> assertFalse(same("SELECT NULL", "SELECT 'NULL'"), "NULL vs 'NULL'"),
        () -> assertFalse(sameCell(null, "null"), "null vs \"null\""));
  }

  @Test
  @DisplayName("Execution match: NULL is not the empty text, nor zero")
  void executionMatchNullIsNotTheEmptyText() {
    assertAll(
        () -> assertFalse(same("SELECT NULL", "SELECT ''"), "NULL vs ''"),
        () -> assertFalse(same("SELECT ''", "SELECT NULL"), "'' vs NULL"),
        () -> assertFalse(same("SELECT NULL", "SELECT ' '"), "NULL vs ' '"),
        () -> assertFalse(same("SELECT NULL", "SELECT 0"), "NULL vs 0"),
        () -> assertTrue(same("SELECT ''", "SELECT ''"), "'' = ''"),
        () -> assertFalse(same("SELECT ''", "SELECT ' '"), "'' vs ' '"));
  }

  @Test
  @DisplayName("Execution match: numbers by value (1 = 1.0), never equal to their text ('1')")
  void executionMatchNumbersByValueNotByText() {
    assertInstanceOf(Integer.class, rows("SELECT 1").get(0).get(0));
    assertInstanceOf(Double.class, rows("SELECT 1.0").get(0).get(0));
    assertInstanceOf(String.class, rows("SELECT '1'").get(0).get(0));
    assertAll(
        () -> assertTrue(same("SELECT 1", "SELECT 1.0"), "1 = 1.0"),
        () -> assertTrue(same("SELECT 1.0", "SELECT 1"), "1.0 = 1"),
        () -> assertTrue(same("SELECT 2.50", "SELECT 2.5"), "2.50 = 2.5"),
        () -> assertTrue(same("SELECT 3000000000", "SELECT 3000000000.0"), "a long = its double"),
        () -> assertTrue(sameCell(1L, 1), "Long 1 = Integer 1"),
        () -> assertFalse(same("SELECT 1", "SELECT '1'"), "1 vs '1'"),
        () -> assertFalse(same("SELECT 1.0", "SELECT '1'"), "1.0 vs '1'"),
        () -> assertFalse(same("SELECT 1.0", "SELECT '1.0'"), "1.0 vs '1.0'"),
        () -> assertFalse(same("SELECT '1'", "SELECT '1.0'"), "'1' vs '1.0': text is text"),
        () -> assertFalse(same("SELECT 1", "SELECT 1.5"), "1 vs 1.5"));
  }

  @Test
  @DisplayName("Execution match: -0.0 is the number 0")
  void executionMatchNegativeZeroIsZero() {
    assertAll(
        () -> assertTrue(sameCell(-0.0, 0), "-0.0 = 0"),
        () -> assertTrue(sameCell(-0.0, 0.0), "-0.0 = 0.0"),
        () -> assertTrue(same("SELECT -0.0", "SELECT 0"), "SQLite -0.0 = 0"),
        () -> assertTrue(same("SELECT 0", "SELECT -0.0"), "SQLite 0 = -0.0"),
        () -> assertFalse(sameCell(-0.0, "-0.0"), "-0.0 vs '-0.0'"),
        () -> assertFalse(sameCell(-0.0, "0"), "-0.0 vs '0'"));
  }

  @Test
  @DisplayName("Execution match: NaN equals NaN only; infinities by sign")
  void executionMatchNaN() {
    // SQLite gives NULL where a NaN would arise; a NaN can still reach the comparison from
    // another source, and must neither throw nor equal anything but NaN.
    assertNull(rows("SELECT 0.0 / 0.0").get(0).get(0));
    assertAll(
        () -> assertTrue(sameCell(Double.NaN, Double.NaN), "NaN = NaN"),
        () -> assertTrue(sameCell(Float.NaN, Double.NaN), "float NaN = double NaN"),
        () -> assertFalse(sameCell(Double.NaN, "NaN"), "NaN vs 'NaN'"),
        () -> assertFalse(sameCell(Double.NaN, null), "NaN vs NULL"),
        () -> assertFalse(sameCell(null, Double.NaN), "NULL vs NaN"),
        () -> assertFalse(sameCell(Double.NaN, 0), "NaN vs 0"),
        () -> assertTrue(ResultMatch.matches(rows("SELECT 1e999"), cell(Double.POSITIVE_INFINITY), false),
            "SQLite 1e999 = +Infinity"),
        () -> assertFalse(sameCell(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY), "+Inf vs -Inf"),
        () -> assertFalse(sameCell(Double.POSITIVE_INFINITY, "Infinity"), "+Inf vs 'Infinity'"));
  }

  @Test
  @DisplayName("Execution match: byte arrays (BLOBs) by content, never equal to text")
  void executionMatchByteArraysByContent() {
    List<List<Object>> gold = rows("SELECT x'0102'");
    List<List<Object>> predicted = rows("SELECT x'0102'");
    assertInstanceOf(byte[].class, gold.get(0).get(0));
    assertNotSame(gold.get(0).get(0), predicted.get(0).get(0));
    assertAll(
        () -> assertTrue(ResultMatch.matches(gold, predicted, false), "x'0102' = x'0102'"),
        () -> assertFalse(same("SELECT x'0102'", "SELECT x'0103'"), "x'0102' vs x'0103'"),
        () -> assertFalse(same("SELECT x'0102'", "SELECT x'010200'"), "x'0102' vs x'010200'"),
        () -> assertFalse(same("SELECT x'6869'", "SELECT 'hi'"), "x'6869' vs 'hi'"),
        () -> assertFalse(same("SELECT x'6869'", "SELECT '6869'"), "x'6869' vs '6869'"),
        () -> assertFalse(same("SELECT x''", "SELECT ''"), "x'' vs ''"),
        () -> assertFalse(same("SELECT x''", "SELECT NULL"), "x'' vs NULL"));
  }

  @Test
  @DisplayName("Execution match: rows cell by cell, not by their joined text")
  void executionMatchRowsCellByCell() {
    // Each pair reads the same once its cells are joined, with or without a separator.
    assertAll(
        () -> assertFalse(same("SELECT 'a, b', 'c'", "SELECT 'a', 'b, c'"), "'a, b','c' vs 'a','b, c'"),
        () -> assertFalse(same("SELECT 'a, s:b', 'c'", "SELECT 'a', 'b, s:c'"),
            "cells that read like the canonical form joined"),
        () -> assertFalse(same("SELECT 'ab', 'c'", "SELECT 'a', 'bc'"), "'ab','c' vs 'a','bc'"),
        () -> assertFalse(same("SELECT 1, 23", "SELECT 12, 3"), "1, 23 vs 12, 3"),
        () -> assertFalse(same("SELECT 'a b'", "SELECT 'a', 'b'"), "one cell vs two"),
        () -> assertFalse(same("SELECT NULL, 'x'", "SELECT 'x', NULL"), "column order"),
        () -> assertFalse(
            ResultMatch.matches(
                List.of(List.of("a, s:b", "c"), List.of("d", "e")),
                List.of(List.of("d", "e"), List.of("a", "b, s:c")),
                false),
            "two rows, one of them joined-alike only"));
  }
}
