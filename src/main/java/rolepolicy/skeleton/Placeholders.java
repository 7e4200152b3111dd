package rolepolicy.skeleton;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Numbers placeholders per kind in the order they are first asked for, and keeps each kind's
 * mapping from names as the skeleton shows them to placeholders, in the same order.
 */
final class Placeholders {
  /** Every whole number becomes this number. */
  static final String WHOLE_NUMBER = "1";

  /** Every decimal number becomes this number. */
  static final String DECIMAL_NUMBER = "1.0";

  private final Map<Name.Kind, Map<String, String>> byKey = new EnumMap<>(Name.Kind.class);
  private final Map<Name.Kind, Map<String, String>> shown = new EnumMap<>(Name.Kind.class);
  private final Map<String, String> literals = new LinkedHashMap<>();

  Placeholders() {
    for (Name.Kind kind : Name.Kind.values()) {
      byKey.put(kind, new HashMap<>());
      shown.put(kind, new LinkedHashMap<>());
    }
  }

  /** The placeholder of a name: the next number of its kind the first time its key is seen. */
  String of(Name name) {
    Map<String, String> numbered = byKey.get(name.kind());
    String placeholder =
        numbered.computeIfAbsent(name.key(), k -> name.kind().prefix + (numbered.size() + 1));
    shown.get(name.kind()).putIfAbsent(name.display(), placeholder);
    if (name.kind() == Name.Kind.STRING) {
      literals.putIfAbsent(name.display(), "'" + placeholder + "'");
    }
    return placeholder;
  }

  /** Records a number as written and returns its placeholder. */
  String number(String written, boolean decimal) {
    String placeholder = decimal ? DECIMAL_NUMBER : WHOLE_NUMBER;
    literals.putIfAbsent(written, placeholder);
    return placeholder;
  }

  Map<String, String> shown(Name.Kind kind) {
    return shown.get(kind);
  }

  Map<String, String> literals() {
    return literals;
  }
}
