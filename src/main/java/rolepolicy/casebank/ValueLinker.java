package rolepolicy.casebank;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import rolepolicy.model.SchemaColumn;
import rolepolicy.skeleton.LeakCheck;
import rolepolicy.io.InputException;
import rolepolicy.spider.Schema;

/**
 * Links a question's words to the cell values of its database (its SQLite file): the phrases of up
 * to {@value #LONGEST} words that some text cell holds, case aside, which the masker then masks as
 * values. Function words and single characters alone are never values.
 */
public final class ValueLinker {
  static final int LONGEST = 6;
  /** Distinct values read per column. */
  private static final int PER_COLUMN = 5000;

  private final Path databases;
  private final Map<String, Set<String>> values = new ConcurrentHashMap<>();

  /** {@code databases}: Spider's {@code database} folder ({@code <db>/<db>.sqlite}). */
  public ValueLinker(Path databases) {
    if (!Files.isDirectory(databases)) {
      throw new InputException(databases + ": database folder not found (--db)");
    }
    this.databases = databases;
  }

  /** The phrases of the question that are cell values of its database, longest first. */
  public List<String> linked(String question, String dbId, Schema schema) {
    Set<String> cells = values.computeIfAbsent(dbId, db -> read(db, schema));
    String[] words = question.split("[^\\p{L}\\p{N}]+");
    List<String> found = new ArrayList<>();
    for (int n = LONGEST; n >= 1; n--) {
      for (int i = 0; i + n <= words.length; i++) {
        String phrase = String.join(" ", java.util.Arrays.asList(words).subList(i, i + n)).toLowerCase(Locale.ROOT);
        if (phrase.length() > 1 && !LeakCheck.FUNCTION_WORDS.contains(phrase) && cells.contains(phrase)
            && !found.contains(phrase)) {
          found.add(phrase);
        }
      }
    }
    return found;
  }

  private Set<String> read(String dbId, Schema schema) {
    Path file = databases.resolve(dbId).resolve(dbId + ".sqlite");
    if (!Files.isRegularFile(file)) {
      return Set.of(); // a database without its SQLite file (Spider dev's wta_1) links no values
    }
    rolepolicy.db.SqliteRunner.loadDriver();
    Set<String> cells = new HashSet<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath().toUri() + "?mode=ro");
        Statement s = c.createStatement()) {
      for (String table : schema.tables()) {
        for (SchemaColumn col : schema.columnsOf(table)) {
          String sql = "SELECT DISTINCT \"" + col.name().replace("\"", "\"\"") + "\" FROM \"" + table.replace("\"", "\"\"")
              + "\" WHERE typeof(\"" + col.name().replace("\"", "\"\"") + "\") = 'text' LIMIT " + PER_COLUMN;
          try (ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
              String v = r.getString(1);
              if (v != null && v.strip().length() > 1 && v.length() <= 60) {
                cells.add(String.join(" ", v.strip().toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")).strip());
              }
            }
          } catch (SQLException e) {
            // a column the file lacks (Spider's schema and file disagree now and then): no values from it
          }
        }
      }
    } catch (SQLException e) {
      throw new InputException(file + ": cannot read cell values (" + e.getMessage() + ")", e);
    }
    return cells;
  }
}
