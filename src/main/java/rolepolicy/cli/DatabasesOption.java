package rolepolicy.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --db}: the folder of SQLite databases. */
final class DatabasesOption {
  @Option(names = "--db", paramLabel = "DIR",
      description = "Folder of SQLite databases, DIR/<db_id>/<db_id>.sqlite (default: none).")
  Path dir;
}
