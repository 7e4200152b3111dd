package rolepolicy.decide;

import java.util.List;
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

  public static List<String> users() {
    return PaperUsers.USERS;
  }
}
