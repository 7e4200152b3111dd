package rolepolicy.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import rolepolicy.casebank.CaseBank;
import rolepolicy.casebank.SchemaStyle;

/** How many examples a few-shot prompt shows, how they are chosen, how it shows the schema (prompts, run, interact, bench-run). */
final class FewShotOptions {
  @Spec(Spec.Target.MIXEE) CommandSpec command;

  @Option(names = "--examples", paramLabel = "N", defaultValue = "3", description = "Examples per prompt (default: ${DEFAULT-VALUE}).")
  @Range(min = 1)
  int examples;

  static final String DEFAULT_POLICY = "skeleton_vote";

  @Option(names = "--policy", paramLabel = "NAME", defaultValue = DEFAULT_POLICY,
      description = "How the examples are chosen: skeleton_vote, tiered or skeleton_only (default: ${DEFAULT-VALUE}; "
          + "with --db, skeleton_vote links the question's values to the database's cells).")
  String policy;

  @Option(names = "--schema-style", paramLabel = "NAME", defaultValue = "create-table",
      description = "How the prompt shows the schema: create-table, CREATE TABLE statements with types and keys and each "
          + "column's policy as a comment (DAIL-SQL's best), or policies, one line per table (default: ${DEFAULT-VALUE}).")
  String schemaStyleName;

  SchemaStyle schemaStyle() {
    return SchemaStyle.named(schemaStyleName).orElseThrow(() -> new ParameterException(command.commandLine(),
        "--schema-style must be " + SchemaStyle.names() + ", not '" + schemaStyleName + "'"));
  }

  CaseBank.Method retrievalPolicy() {
    return switch (policy) {
      case "tiered" -> CaseBank.Method.TIERED;
      case "skeleton_only" -> CaseBank.Method.SKELETON_ONLY;
      case "skeleton_vote" -> CaseBank.Method.SKELETON_VOTE;
      default -> throw new ParameterException(command.commandLine(),
          "--policy must be skeleton_vote, tiered or skeleton_only, not '" + policy + "'");
    };
  }
}
