package rolepolicy.model;

/**
 * One privilege of a PostgreSQL {@code GRANT} statement, as the grants profile's rules read it;
 * names as PostgreSQL reads them (folded to lower case unless quoted).
 *
 * @param grantee the role granted to ({@code public} for PUBLIC)
 * @param privilege {@code SELECT} or {@code USAGE}
 * @param schema the schema named, or null where the statement names none
 * @param table the table, or null for every table of the schema ({@code ON ALL TABLES IN SCHEMA})
 *     and for {@code USAGE ON SCHEMA}
 * @param column the column, or null for every column of the table
 * @param source where the statement stands ({@code file:line}), the same for the facts of one
 *     statement and no other
 */
public record Grant(
    String grantee, String privilege, String schema, String table, String column, String source) {}
