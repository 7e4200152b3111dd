package rolepolicy.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --tables}: the schema file of the split's databases. */
final class TablesOption {
  @Option(names = "--tables", paramLabel = "FILE", defaultValue = "data/spider/tables.json",
      description = "Schema file in Spider's tables.json shape (default: ${DEFAULT-VALUE}).")
  Path tables;
}
