package rolepolicy.decide;

import java.util.Map;
import rolepolicy.spider.Schema;

/** The paper-shaped users of {@link PaperUsers}, for tests outside this package. */
public final class PaperUsersAccess {
  private PaperUsersAccess() {}

  /**
   * GRANT statements for one role over every database: database {@code i} (in map order) takes the
   * statements of the paper's user {@code i mod 4 + 1}, so every form of grant occurs.
   */
  public static String mixed(Map<String, Schema> schemas, String role) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    for (Schema schema : schemas.values()) {
      String user = PaperUsers.USERS.get(i++ % PaperUsers.USERS.size());
      out.append(PaperUsers.grants(schema, u -> role).get(user));
    }
    return out.toString();
  }

  /**
   * {@link #mixed}, varied so that every clause of the grants profile's policy rules matters: some
   * databases without USAGE on their schema, some granted to PUBLIC, some unqualified (the public
   * schema's rule) and without USAGE, and every database also granted to another role.
   */
  public static String varied(Map<String, Schema> schemas, String role) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    for (Schema schema : schemas.values()) {
      String user = PaperUsers.USERS.get(i % PaperUsers.USERS.size());
      String text = PaperUsers.grants(schema, u -> role).get(user);
      if (i % 5 == 0) {
        text = text.lines().filter(l -> !l.startsWith("GRANT USAGE")).map(l -> l + "\n").reduce("", String::concat);
      } else if (i % 7 == 1) {
        text = text.replace(" TO " + role + ";", " TO PUBLIC;");
      } else if (i % 6 == 2) {
        text = text.lines().filter(l -> !l.startsWith("GRANT USAGE")).map(l -> l + "\n").reduce("", String::concat)
            .replace(" ON " + schema.dbId() + ".", " ON ");
      }
      out.append(text);
      out.append(PaperUsers.grants(schema, u -> "other").get("User_1"));
      i++;
    }
    return out.toString();
  }

}
