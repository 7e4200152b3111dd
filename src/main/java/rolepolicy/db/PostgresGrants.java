package rolepolicy.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import rolepolicy.model.Grant;

/**
 * A role's privileges as a live PostgreSQL holds them, as grants facts: SELECT on columns from
 * {@code information_schema.column_privileges} (a table-level grant shows there as every column),
 * USAGE on schemas from {@code has_schema_privilege}. Grants to PUBLIC count, as PostgreSQL counts them.
 */
public final class PostgresGrants {
  private PostgresGrants() {}

  public static List<Grant> read(Connection connection, String role, String source) throws SQLException {
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
}
