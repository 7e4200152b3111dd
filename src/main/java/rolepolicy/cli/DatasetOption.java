package rolepolicy.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --dataset}: a split written by generate. */
final class DatasetOption {
  @Option(names = "--dataset", paramLabel = "FILE", defaultValue = "data/dev.json",
      description = "A generated split (default: ${DEFAULT-VALUE}).")
  Path dataset;
}
