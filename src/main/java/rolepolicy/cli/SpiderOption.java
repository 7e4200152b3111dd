package rolepolicy.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --spider}: a folder in Spider's layout (tables.json, the split files, database/). */
final class SpiderOption {
  @Option(
      names = "--spider",
      paramLabel = "DIR",
      description = "Spider folder with tables.json, the split files and database/<db_id>/<db_id>.sqlite (default: ${DEFAULT-VALUE}, the bundled dev split).",
      defaultValue = "data/spider")
  Path spider;
}
