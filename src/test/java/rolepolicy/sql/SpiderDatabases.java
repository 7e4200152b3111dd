package rolepolicy.sql;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import org.sqlite.SQLiteConfig;

/** Spider's SQLite databases, opened read-only on first use, to check that SQL text compiles. */
final class SpiderDatabases implements AutoCloseable {
  private final Path dir;
  private final Map<String, Connection> open = new HashMap<>();

  SpiderDatabases(Path spiderDir) {
    this.dir = spiderDir.resolve("database");
  }

  boolean has(String dbId) {
    return Files.isRegularFile(file(dbId));
  }

  /** Null when SQLite compiles the text, else its error message. */
  String compileError(String dbId, String sql) {
    try (PreparedStatement ignored = connection(dbId).prepareStatement(sql)) {
      return null;
    } catch (SQLException e) {
      return e.getMessage();
    }
  }

  private Connection connection(String dbId) throws SQLException {
    Connection connection = open.get(dbId);
    if (connection == null) {
      SQLiteConfig config = new SQLiteConfig();
      config.setReadOnly(true);
      connection = config.createConnection("jdbc:sqlite:" + file(dbId));
      open.put(dbId, connection);
    }
    return connection;
  }

  private Path file(String dbId) {
    return dir.resolve(dbId).resolve(dbId + ".sqlite");
  }

  @Override
  public void close() throws SQLException {
    for (Connection connection : open.values()) {
      connection.close();
    }
    open.clear();
  }
}
