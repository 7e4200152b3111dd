package rolepolicy.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import rolepolicy.model.Grant;

/**
 * A role's privileges as a live PostgreSQL holds them, as grants facts: SELECT on columns from
 * {@code information_schema.column_privileges} (a table-level grant shows there as every column),
 * USAGE on schemas from {@code has_schema_privilege}. Grants to PUBLIC count, as PostgreSQL counts them.
 */
public final class PostgresGrants {
  private PostgresGrants() {}

  public static List<Grant> read(Connection connection, String role, String source) throws SQLException {
    return read(connection, role, source, w -> {});
  }

  /**
   * The grants of {@code role}; when the connecting role cannot see them in information_schema (it is
   * neither a superuser nor a member of {@code role}), says so to {@code warnings} and reads them with
   * {@code has_column_privilege}, which answers for any role.
   */
  public static List<Grant> read(Connection connection, String role, String source, Consumer<String> warnings)
      throws SQLException {
    String name = role; // as PostgreSQL names it (the caller folds an unquoted name)
    List<Grant> grants = new ArrayList<>();
    try (PreparedStatement usage = connection.prepareStatement(
        "SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'"
            + " AND has_schema_privilege(?, oid, 'USAGE') ORDER BY nspname")) {
      usage.setString(1, name);
      try (ResultSet rows = usage.executeQuery()) {
        while (rows.next()) {
          grants.add(new Grant(name, "USAGE", rows.getString(1), null, null, source + " (pg_namespace)"));
        }
      }
    } catch (SQLException e) {
      if ("42704".equals(e.getSQLState())) { // undefined_object: no such role
        throw new rolepolicy.io.InputException(source + ": no role " + role + " in this PostgreSQL", e);
      }
      throw e;
    }
    if (!seesGrantsOf(connection, name)) {
      // information_schema shows only the grants of roles the connecting one belongs to; the
      // has_*_privilege functions answer for any role
      warnings.accept(source + ": role " + connection.getMetaData().getUserName() + " cannot see the privileges"
          + " granted to " + role + " in information_schema; read with has_column_privilege instead, which also"
          + " counts what " + role + " holds through the roles it belongs to (connect as a superuser or a member"
          + " of " + role + " to read its own grants)");
      try (PreparedStatement select = connection.prepareStatement(
          "SELECT n.nspname, c.relname, a.attname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
              + " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped"
              + " WHERE c.relkind IN ('r', 'v', 'm', 'f', 'p') AND n.nspname NOT LIKE 'pg\\_%'"
              + " AND n.nspname <> 'information_schema' AND has_column_privilege(?, c.oid, a.attnum, 'SELECT')"
              + " ORDER BY 1, 2, 3")) {
        select.setString(1, name);
        try (ResultSet rows = select.executeQuery()) {
          while (rows.next()) {
            grants.add(new Grant(name, "SELECT", rows.getString(1), rows.getString(2), rows.getString(3),
                source + " (has_column_privilege: " + rows.getString(1) + "." + rows.getString(2) + "."
                    + rows.getString(3) + ")")); // one privilege, no statement: its own place
          }
        }
      }
      return grants;
    }
    try (PreparedStatement select = connection.prepareStatement(
        "SELECT DISTINCT CASE grantee WHEN 'PUBLIC' THEN 'public' ELSE grantee END, table_schema, table_name, column_name"
            + " FROM information_schema.column_privileges"
            + " WHERE privilege_type = 'SELECT' AND (grantee = ? OR grantee = 'PUBLIC')"
            + " ORDER BY 2, 3, 4, 1")) {
      select.setString(1, name);
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          grants.add(new Grant(rows.getString(1), "SELECT", rows.getString(2), rows.getString(3), rows.getString(4),
              source + " (information_schema.column_privileges: " + rows.getString(2) + "." + rows.getString(3) + "."
                  + rows.getString(4) + ")")); // one privilege, no statement: its own place
        }
      }
    }
    return grants;
  }

  /** Whether information_schema shows the connecting role the grants to {@code role}. */
  private static boolean seesGrantsOf(Connection connection, String role) throws SQLException {
    try (PreparedStatement sees = connection.prepareStatement("SELECT pg_has_role(current_user, ?, 'USAGE')")) {
      sees.setString(1, role);
      try (ResultSet rows = sees.executeQuery()) {
        rows.next();
        return rows.getBoolean(1);
      }
    }
  }
}
