package rolepolicy.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --bank}: the CaseBank folder that casebank writes. */
final class CaseBankOption {
  @Option(names = "--bank", paramLabel = "DIR", defaultValue = "data/casebank",
      description = "The few-shot CaseBank folder, written by casebank (default: ${DEFAULT-VALUE}).")
  Path bank;
}
