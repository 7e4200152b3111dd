package rolepolicy.sql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/**
 * Empty in-memory SQLite databases with the tables and columns of a schema, made on first use: SQL
 * text that SQLite compiles against one names only its tables and columns, resolves every name, and
 * uses its quoting and aggregates correctly. Stands in for databases that are not on this machine.
 */
final class SchemaDatabases implements AutoCloseable {
  private final Map<String, Connection> open = new HashMap<>();

  /** Null when SQLite compiles the text against the schema, else its error message. */
  String compileError(Schema schema, String sql) {
    try (PreparedStatement ignored = connection(schema).prepareStatement(sql)) {
      return null;
    } catch (SQLException e) {
      return e.getMessage();
    }
  }

  private Connection connection(Schema schema) throws SQLException {
    Connection connection = open.get(schema.dbId());
    if (connection == null) {
      connection = DriverManager.getConnection("jdbc:sqlite::memory:");
      try (Statement statement = connection.createStatement()) {
        for (String table : schema.tables()) {
          statement.execute(createTable(table, schema.columnsOf(table)));
        }
      }
      open.put(schema.dbId(), connection);
    }
    return connection;
  }

  private static String createTable(String table, List<SchemaColumn> columns) {
    StringBuilder sql = new StringBuilder("CREATE TABLE ").append(quote(table)).append(" (");
    for (int i = 0; i < columns.size(); i++) {
      sql.append(i == 0 ? "" : ", ")
          .append(quote(columns.get(i).name()))
          .append(' ')
          .append(columns.get(i).type());
    }
    return sql.append(')').toString();
  }

  private static String quote(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  @Override
  public void close() throws SQLException {
    for (Connection connection : open.values()) {
      connection.close();
    }
    open.clear();
  }
}
