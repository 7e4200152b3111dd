package rolepolicy.cli;

import picocli.CommandLine.Option;

/** {@code --force}: replace files of the output's names that this tool did not write. */
final class ForceOption {
  @Option(names = "--force",
      description = "Replace files where the outputs go even if rolepolicy did not write them (by default such a file is kept and the command refused).")
  boolean force;
}
