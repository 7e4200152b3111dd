package rolepolicy.casebank;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/** How a prompt shows the schema and each column's policy. */
public enum SchemaStyle {
  /** DAIL-SQL's code representation: CREATE TABLE with types and keys, each policy a comment. */
  CREATE_TABLE("create-table"),
  /** One line per table: {@code singer(singer_id JoinOnly, name Public, …)}. */
  POLICIES("policies");

  private final String optionName;

  SchemaStyle(String optionName) {
    this.optionName = optionName;
  }

  /** The name {@code --schema-style} takes and run.json records. */
  public String optionName() {
    return optionName;
  }

  public static Optional<SchemaStyle> named(String name) {
    return Arrays.stream(values()).filter(s -> s.optionName.equals(name)).findFirst();
  }

  /** The names, for a message: {@code create-table or policies}. */
  public static String names() {
    return Arrays.stream(values()).map(SchemaStyle::optionName).collect(Collectors.joining(" or "));
  }
}
