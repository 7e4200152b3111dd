package rolepolicy.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import rolepolicy.db.Postgres;
import rolepolicy.db.PostgresGrants;
import rolepolicy.model.Grant;
import rolepolicy.model.GrantRole;
import rolepolicy.model.PolicyOverride;
import rolepolicy.sql.GrantStatements;
import rolepolicy.sql.SqlAnalysisException;
import rolepolicy.io.InputException;
import rolepolicy.spider.OverridesReader;

/**
 * The options that choose the rule files, the policy overrides and the grants profile's GRANT
 * statements (generate, review, explain, bench).
 */
final class PolicyOptions extends RulesOption {
  static final Path DEFAULT_OVERRIDES = Path.of("data", "overrides.json");

  @Option(names = "--grants", paramLabel = "FILE",
      description = "GRANT statements whose privileges for --grant-role are the policies (profile grants; docs/profiles.md).")
  Path grants;

  @Option(names = "--grants-from", paramLabel = "JDBC_URL",
      description = "A live PostgreSQL whose privileges for --grant-role are the policies (profile grants), e.g. jdbc:postgresql://localhost:5432/db?user=NAME.")
  String grantsFrom;

  @Option(names = "--grant-role", paramLabel = "ROLE",
      description = "The role whose privileges --grants or --grants-from reads; folded to lower case unless double-quoted, as PostgreSQL folds names.")
  String grantRole;

  @Spec(Spec.Target.MIXEE) CommandSpec command;

  /**
   * Refuses GRANT options that the profile does not read (exit 2): only the grants profile, and
   * those that extend it, turn privileges into policies.
   */
  void checkGrantsProfile() {
    for (String option : List.of("--grants", "--grants-from", "--grant-role")) {
      if (command.commandLine().getParseResult().hasMatchedOption(option) && !ruleSet().includes("grants")) {
        throw new CommandLine.ParameterException(command.commandLine(), option + " is read only by profile grants, not "
            + profile + ": add --profile grants");
      }
    }
  }

  /** The facts the policy rules read beside the columns: the grants of --grant-role, if given. */
  List<Object> policyFacts() {
    checkGrantsProfile();
    if (grants != null && grantsFrom != null) {
      throw new InputException("give --grants or --grants-from, not both");
    }
    boolean given = grants != null || grantsFrom != null;
    if (given != (grantRole != null)) {
      throw new InputException(given ? "--grants and --grants-from need --grant-role ROLE" : "--grant-role needs --grants or --grants-from");
    }
    if (!given) {
      if (profile.equals("grants")) {
        throw new InputException("profile grants needs --grants FILE or --grants-from JDBC_URL, with --grant-role ROLE");
      }
      return List.of();
    }
    List<Grant> read = grants != null ? fileGrants() : liveGrants();
    String role = GrantStatements.identifier(grantRole);
    String source = grants != null ? grants.toString() : "the server of --grants-from";
    if (read.isEmpty() && grants != null) {
      throw new InputException(source + ": no GRANT of SELECT or USAGE (the file is empty or grants nothing the profile reads)");
    }
    if (read.stream().noneMatch(g -> g.grantee().equals(role) || g.grantee().equals("public"))) {
      command.commandLine().getErr().println("warning: " + source + " grants " + role
          + " nothing (no SELECT or USAGE to it or to PUBLIC): every column is Hidden, every question REFUSE");
    }
    List<Object> facts = new ArrayList<>(read);
    facts.add(new GrantRole(role));
    return facts;
  }

  private List<Grant> fileGrants() {
    InputException.requireFile(grants, true, " (--grants)");
    try {
      return GrantStatements.parse(Files.readString(grants, StandardCharsets.UTF_8), grants.toString());
    } catch (IOException e) {
      throw new InputException(grants + ": " + InputException.reason(grants, e), e);
    } catch (SqlAnalysisException e) {
      throw new InputException(e.getMessage(), e);
    }
  }

  private List<Grant> liveGrants() {
    String shown = rolepolicy.io.Secrets.redact(grantsFrom);
    try (Connection connection = Postgres.at(grantsFrom).connect()) {
      return PostgresGrants.read(connection, GrantStatements.identifier(grantRole), shown,
          w -> command.commandLine().getErr().println("warning: " + w));
    } catch (SQLException e) {
      throw new InputException(shown + ": cannot read the privileges of " + grantRole + ": " + e.getMessage(), e);
    }
  }

  @Option(
      names = "--overrides",
      paramLabel = "FILE",
      description = "Policy overrides (default: data/overrides.json, Spider's, when it exists; none with --tables).")
  Path overrides;

  /**
   * The overrides file in force: the one given (it must exist), else the default if present (not
   * with GRANT statements: the privileges are the policies), else null.
   */
  Path overridesFile() {
    if (overrides == null) {
      boolean grantsGiven = grants != null || grantsFrom != null;
      return !grantsGiven && Files.isRegularFile(DEFAULT_OVERRIDES) ? DEFAULT_OVERRIDES : null;
    }
    InputException.requireFile(overrides, false, "");
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
