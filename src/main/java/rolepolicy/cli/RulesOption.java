package rolepolicy.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --rules}: the folder of .drl rule files. */
class RulesOption {
  @Option(
      names = "--rules",
      paramLabel = "DIR",
      description = "Folder of .drl rule files, compiled at start-up (default: ${DEFAULT-VALUE}).",
      defaultValue = "rules")
  Path rules;
}
