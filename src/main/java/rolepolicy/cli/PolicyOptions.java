package rolepolicy.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;
import rolepolicy.model.PolicyOverride;
import rolepolicy.io.InputException;
import rolepolicy.spider.OverridesReader;

/** The options that choose the rule files and the policy overrides (generate, review, explain, bench). */
final class PolicyOptions extends RulesOption {
  static final Path DEFAULT_OVERRIDES = Path.of("data", "overrides.json");

  @Option(
      names = "--overrides",
      paramLabel = "FILE",
      description = "Policy overrides (default: data/overrides.json, Spider's, when it exists; none with --tables).")
  Path overrides;

  /** The overrides file in force: the one given (it must exist), else the default if present, else null. */
  Path overridesFile() {
    if (overrides == null) {
      return Files.isRegularFile(DEFAULT_OVERRIDES) ? DEFAULT_OVERRIDES : null;
    }
    if (!Files.isRegularFile(overrides)) {
      throw new InputException(overrides + ": file not found");
    }
    return overrides;
  }

  List<PolicyOverride> readOverrides() {
    Path file = overridesFile();
    return file == null ? List.of() : OverridesReader.read(file);
  }

  /** Where the overrides come from, for messages. */
  String overridesSource() {
    Path file = overridesFile();
    return file == null ? "no overrides" : file.toString();
  }
}
