package rolepolicy.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;
import rolepolicy.engine.RuleSet;

/** {@code --rules} and {@code --profile}: the rule files in force. */
class RulesOption {
  @Option(
      names = "--rules",
      paramLabel = "DIR",
      description = "Folder of .drl rule files, compiled at start-up (default: ${DEFAULT-VALUE}).",
      defaultValue = "rules")
  Path rules;

  @Option(
      names = "--profile",
      paramLabel = "NAME",
      description = "Profile: the meaning of a policy, the rule files of rules/profiles/NAME on top of the shared ones (default: ${DEFAULT-VALUE}).",
      defaultValue = RuleSet.DEFAULT_PROFILE)
  String profile;

  /** The rule files of the chosen profile. */
  RuleSet ruleSet() {
    return new RuleSet(rules, profile);
  }

  @Option(names = "--rule-firings", paramLabel = "N", defaultValue = "100000",
      description = "Rule firings allowed in one session (a question's step); past them the rules are stopped as looping (default: ${DEFAULT-VALUE}).")
  @Range(min = 1)
  int ruleFirings;

  @Option(names = "--rule-timeout", paramLabel = "SECONDS", defaultValue = "60",
      description = "Time one session's rules may run (default: ${DEFAULT-VALUE}).")
  @Range(min = 0, aboveMin = true)
  double ruleTimeout;
}
