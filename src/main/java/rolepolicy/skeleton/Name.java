package rolepolicy.skeleton;

/**
 * What becomes one placeholder: names with the same kind and key get the same placeholder.
 *
 * @param key what decides identity, e.g. {@code t:singer} or {@code t:singer.name}
 * @param display how the skeleton's mappings show it, e.g. {@code singer.name}
 */
record Name(Kind kind, String key, String display) {

  /** The kinds of placeholder, each numbered on its own: {@code _tab1}, {@code _col1}, ... */
  enum Kind {
    TABLE("_tab"),
    COLUMN("_col"),
    ALIAS("_alias"),
    STRING("_str");

    final String prefix;

    Kind(String prefix) {
      this.prefix = prefix;
    }
  }

  static Name table(String key, String display) {
    return new Name(Kind.TABLE, key, display);
  }

  /** A column of a table: keyed by the table's key and the column's name. */
  static Name columnOf(Name table, String column) {
    return new Name(Kind.COLUMN, table.key() + "." + column, table.display() + "." + column);
  }

  /** A column whose table is not known: keyed by its name alone. */
  static Name column(String column) {
    return new Name(Kind.COLUMN, "?." + column, column);
  }

  static Name alias(String alias) {
    return new Name(Kind.ALIAS, "a:" + alias, alias);
  }
}
