package rolepolicy.db;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * PostgreSQL's own privilege check of a query: {@code EXPLAIN} under {@code SET ROLE}, which plans
 * the query and checks its privileges without running it. One connection, used by one thread;
 * the schema and role are set only when they change.
 */
public final class PrivilegeCheck implements AutoCloseable {
  /** PostgreSQL's SQLSTATE for "permission denied" (insufficient_privilege). */
  public static final String INSUFFICIENT_PRIVILEGE = "42501";

  /** What PostgreSQL answered: PERMIT, DENY, or REJECTED for another reason (its SQLSTATE and message). */
  public record Answer(String verdict, String sqlState, String message) {
    public static final String PERMIT = "PERMIT";
    public static final String DENY = "DENY";
    public static final String REJECTED = "REJECTED";
  }

  private final Connection connection;
  private final Statement statement;
  private String schema;
  private String role;

  public PrivilegeCheck(Connection connection, int timeoutSeconds) throws SQLException {
    this.connection = connection;
    this.connection.setAutoCommit(true);
    this.statement = connection.createStatement();
    this.statement.setQueryTimeout(timeoutSeconds);
  }

  /** PostgreSQL's answer to {@code sql} in schema {@code schema} under role {@code role} (null: the login user). */
  public Answer check(String schema, String role, String sql) throws SQLException {
    if (!schema.equals(this.schema)) {
      statement.execute("SET search_path TO " + Postgres.quote(schema));
      this.schema = schema;
    }
    if (role == null ? this.role != null : !role.equals(this.role)) {
      statement.execute(role == null ? "RESET ROLE" : "SET ROLE " + Postgres.quote(role));
      this.role = role;
    }
    try {
      statement.execute("EXPLAIN " + sql);
      return new Answer(Answer.PERMIT, null, null);
    } catch (SQLException e) {
      String state = e.getSQLState();
      if (state == null || state.startsWith("08")) {
        throw e; // the connection failed: not an answer
      }
      String message = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
      return new Answer(INSUFFICIENT_PRIVILEGE.equals(state) ? Answer.DENY : Answer.REJECTED, state, message);
    }
  }

  @Override
  public void close() throws SQLException {
    statement.close();
    connection.close();
  }
}
