package rolepolicy.skeleton;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** One query level: its FROM entries and SELECT aliases, and the level it is nested in. */
final class Scope {
  final Scope outer;
  final List<FromEntry> entries = new ArrayList<>();

  /** The SELECT items' aliases, lower-cased. */
  final Set<String> itemAliases = new HashSet<>();

  /** Whether the walk is in the SELECT items, where an alias does not stand for its item. */
  boolean inItems;

  Scope(Scope outer) {
    this.outer = outer;
  }

  /** The entry a qualifier names, at this level or an enclosing one; null when none does. */
  FromEntry qualified(String qualifier) {
    for (Scope scope = this; scope != null; scope = scope.outer) {
      for (FromEntry entry : scope.entries) {
        if (entry.qualifiers().contains(qualifier)) {
          return entry;
        }
      }
    }
    return null;
  }
}
