package rolepolicy.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.kie.api.KieBase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import rolepolicy.decide.GrantExport;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.engine.RuleBase;
import rolepolicy.io.AtomicOutput;
import rolepolicy.io.OutputGuard;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/** A profile's Public and Hidden columns as PostgreSQL GRANT statements for one role. */
@Command(
    name = "export-grants",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Write a profile's policies as PostgreSQL GRANT statements for one role (OUT/grants.sql): SELECT on",
      "each Public column, USAGE on each database's schema. What no GRANT expresses (JoinOnly, AggOnly",
      "columns, rules that depend on a column's role) is not granted and listed in OUT/not-expressible.txt."
    })
public final class ExportGrantsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin TablesOption tables;

  @Mixin PolicyOptions policy;

  @Option(names = "--to", paramLabel = "ROLE", required = true, description = "The role the statements grant to.")
  String role;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "results/grants", description = "Output folder (default: ${DEFAULT-VALUE}).")
  Path out;

  @Mixin ForceOption force;

  @Override
  public Integer call() throws Exception {
    PrintWriter stdout = spec.commandLine().getOut();
    OutputGuard.current().checkFiles(out, "grants.sql", "not-expressible.txt"); // refused before any work
    policy.checkGrantsProfile();
    Map<String, Schema> schemas = SchemaReader.read(tables.tables);
    KieBase rules = RuleBase.load(policy.ruleSet());
    Map<String, DatabasePolicies> policies = new PolicyAssigner(rules)
        .assign(schemas, policy.readOverrides(), policy.overridesSource(), policy.policyFacts());
    GrantExport.Export export = GrantExport.of(policies, role);
    List<String> ruleNotes = GrantExport.roleSensitiveRules(rules);
    StringBuilder notes = new StringBuilder();
    notes.append("# What the GRANT statements of grants.sql do not express (profile ").append(policy.profile).append(").\n");
    notes.append("# Columns not granted although the profile allows them in some clauses: PostgreSQL denies every use.\n");
    export.notExpressible().forEach(n ->
        notes.append(n.dbId()).append('\t').append(n.key()).append('\t').append(n.policy()).append('\t').append(n.rule()).append('\n'));
    notes.append("# Rules that judge a column by the role it plays (a GRANT holds in every clause or in none):\n");
    ruleNotes.forEach(r -> notes.append("rule\t").append(r).append('\n'));
    try (AtomicOutput output = new AtomicOutput(out)) {
      Files.writeString(output.stage(out.resolve("grants.sql")), export.statements(), StandardCharsets.UTF_8);
      Files.writeString(output.stage(out.resolve("not-expressible.txt")), notes, StandardCharsets.UTF_8);
      output.commit();
    }
    stdout.printf(Locale.ROOT, "export-grants: %d databases, profile %s, to role %s: %,d columns granted, %,d Hidden (not granted),"
            + " %,d JoinOnly or AggOnly (not expressible, not granted); %d rules no GRANT expresses%n",
        policies.size(), policy.profile, role, export.granted(), export.hidden(), export.notExpressible().size(), ruleNotes.size());
    stdout.printf("written: %s, %s%n", out.resolve("grants.sql"), out.resolve("not-expressible.txt"));
    stdout.flush();
    return 0;
  }
}
