package rolepolicy.engine;

import java.util.ArrayList;
import java.util.List;
import org.kie.api.event.rule.AfterMatchFiredEvent;
import org.kie.api.event.rule.DefaultAgendaEventListener;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.FromTable;
import rolepolicy.model.PolicedColumn;
import rolepolicy.model.SchemaColumn;
import rolepolicy.model.SelectItem;
import rolepolicy.model.Unrewritable;
import rolepolicy.model.Violation;

/** Records every rule that fires, in firing order, with the facts it matched. */
public final class Audit {
  /** One firing: the stage of the question's evaluation, the rule, and what it matched. */
  public record Firing(String stage, String rule, List<String> matched) {}

  /** The facts inserted into one session, described as the firings describe them. */
  public record Inserted(String stage, List<String> facts) {}

  private final List<Firing> firings = new ArrayList<>();
  private final List<Inserted> inserted;

  /** An audit of the firings only. */
  public Audit() {
    this(false);
  }

  /** With {@code withFacts}, also the facts inserted into each session (for {@code explain}). */
  public Audit(boolean withFacts) {
    this.inserted = withFacts ? new ArrayList<>() : null;
  }

  public List<Firing> firings() {
    return firings;
  }

  /** Whether the inserted facts are kept. */
  public boolean keepsFacts() {
    return inserted != null;
  }

  /** The facts inserted per session, in session order; empty unless kept. */
  public List<Inserted> inserted() {
    return inserted == null ? List.of() : inserted;
  }

  /** A new, empty audit that keeps what this one keeps. */
  public Audit fresh() {
    return new Audit(keepsFacts());
  }

  /** Adds another audit's firings and facts after this one's. */
  public void addAll(Audit other) {
    firings.addAll(other.firings);
    if (inserted != null) {
      inserted.addAll(other.inserted());
    }
  }

  void recordFacts(String stage, java.util.Collection<?> facts) {
    if (inserted == null) {
      return;
    }
    List<String> described = new ArrayList<>();
    for (Object fact : facts) {
      String text = describe(fact);
      described.add(text != null ? text : fact.toString());
    }
    inserted.add(new Inserted(stage, described));
  }

  DefaultAgendaEventListener listener(String stage) {
    return new DefaultAgendaEventListener() {
      @Override
      public void afterMatchFired(AfterMatchFiredEvent event) {
        List<String> matched = new ArrayList<>();
        for (Object fact : event.getMatch().getObjects()) {
          String text = describe(fact);
          if (text != null) {
            matched.add(text);
          }
        }
        firings.add(new Firing(stage, event.getMatch().getRule().getName(), matched));
      }
    };
  }

  /** A short text for the facts a reader wants to see; null for markers. */
  private static String describe(Object fact) {
    if (fact instanceof ColumnRef ref) {
      return ref.toString();
    } else if (fact instanceof PolicedColumn column) {
      return column.key() + " " + column.policy();
    } else if (fact instanceof SchemaColumn column) {
      return column.key();
    } else if (fact instanceof Violation violation) {
      return violation.ref() + " " + violation.policy();
    } else if (fact instanceof Unrewritable unrewritable) {
      return unrewritable.violation().ref() + " " + unrewritable.reason();
    } else if (fact instanceof FromTable table) {
      return "FROM " + table.table();
    } else if (fact instanceof SelectItem item) {
      return "SELECT item " + item.index();
    }
    return null;
  }
}
