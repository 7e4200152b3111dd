package rolepolicy.decide;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/**
 * Four users of a database in the shape of Role-Conditioned Refusals' (User_1 full read access,
 * User_2 some tables, User_3 every table with some columns, User_4 minimal), as GRANT statements;
 * seeded by the database's name, so the same schema gives the same users. Each form of grant is
 * used: ON ALL TABLES IN SCHEMA (User_1), table-level (User_2), column lists (User_3, User_4).
 */
final class PaperUsers {
  static final List<String> USERS = List.of("User_1", "User_2", "User_3", "User_4");

  private PaperUsers() {}

  /** Each user's GRANT statements, by user, in the paper's form ({@code ;}-separated), to role {@code <db>_<user>}. */
  static Map<String, String> grants(Schema schema) {
    return grants(schema, user -> role(schema.dbId(), user));
  }

  /** As above, each user's statements granting to the role {@code roleOf} names. */
  static Map<String, String> grants(Schema schema, java.util.function.UnaryOperator<String> roleOf) {
    Random random = new Random(schema.dbId().hashCode() * 31L + 7);
    String db = schema.dbId();
    List<String> tables = schema.tables();
    Map<String, String> users = new LinkedHashMap<>();
    StringBuilder one = usage(db, roleOf.apply("User_1"));
    one.append("GRANT SELECT ON ALL TABLES IN SCHEMA ").append(db).append(" TO ").append(roleOf.apply("User_1")).append(";\n");
    users.put("User_1", one.toString());

    StringBuilder two = usage(db, roleOf.apply("User_2"));
    for (String table : some(tables, (tables.size() + 1) / 2, random)) {
      two.append("GRANT SELECT ON ").append(db).append('.').append(quoted(table)).append(" TO ").append(roleOf.apply("User_2")).append(";\n");
    }
    users.put("User_2", two.toString());

    StringBuilder three = usage(db, roleOf.apply("User_3"));
    for (String table : tables) {
      columns(three, db, table, schema, roleOf.apply("User_3"), 2, random);
    }
    users.put("User_3", three.toString());

    StringBuilder four = usage(db, roleOf.apply("User_4"));
    for (String table : some(tables, Math.max(1, tables.size() / 3), random)) {
      columns(four, db, table, schema, roleOf.apply("User_4"), 3, random);
    }
    users.put("User_4", four.toString());
    return users;
  }

  /** All users' statements, as one access_policy_sql. */
  static String all(Map<String, String> users) {
    return String.join("", users.values());
  }

  static String role(String db, String user) {
    return db + "_" + user;
  }

  private static StringBuilder usage(String db, String role) {
    return new StringBuilder("GRANT USAGE ON SCHEMA " + db + " TO " + role + ";\n");
  }

  /** A grant of about one in {@code share} of the table's columns, at least one. */
  private static void columns(StringBuilder out, String db, String table, Schema schema, String role, int share, Random random) {
    List<String> names = schema.columnsOf(table).stream().map(SchemaColumn::name).toList();
    List<String> chosen = some(names, Math.max(1, (names.size() + share - 1) / share), random);
    out.append("GRANT SELECT (")
        .append(String.join(", ", chosen.stream().map(PaperUsers::quoted).toList()))
        .append(") ON ").append(db).append('.').append(quoted(table)).append(" TO ").append(role).append(";\n");
  }

  /** {@code n} of the items, chosen at random, in their order. */
  private static List<String> some(List<String> items, int n, Random random) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      order.add(i);
    }
    java.util.Collections.shuffle(order, random);
    List<Integer> kept = new ArrayList<>(order.subList(0, Math.min(n, items.size())));
    kept.sort(null);
    return kept.stream().map(items::get).toList();
  }

  /** A table or column name double-quoted in lower case, as the schema was created. */
  private static String quoted(String name) {
    return rolepolicy.db.Postgres.quote(name);
  }
}
