package rolepolicy.engine;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.kie.api.KieBase;
import org.kie.api.runtime.KieSession;

/** Runs the rules once over a set of facts in a fresh session and returns every fact after. */
final class Sessions {
  private Sessions() {}

  static List<Object> fire(KieBase base, Collection<?> facts, Audit audit, String stage) {
    KieSession session = base.newKieSession();
    try {
      if (audit != null) {
        session.addEventListener(audit.listener(stage));
      }
      for (Object fact : facts) {
        session.insert(fact);
      }
      session.fireAllRules();
      return new ArrayList<>(session.getObjects());
    } finally {
      session.dispose();
    }
  }

  static <T> List<T> only(List<Object> facts, Class<T> type) {
    List<T> found = new ArrayList<>();
    for (Object fact : facts) {
      if (type.isInstance(fact)) {
        found.add(type.cast(fact));
      }
    }
    return found;
  }

}
