package rolepolicy.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import rolepolicy.engine.RuleBase;
import rolepolicy.explain.Explainer;
import rolepolicy.explain.Explanation;
import rolepolicy.io.DatasetWriter;

/** Why one question came out so: its facts, every rule firing, the conclusions and the edits. */
@Command(
    name = "explain",
    mixinStandardHelpOptions = true,
    description = {
      "Run one question (an id such as dev_0003) through the rules now and show the facts inserted,",
      "every rule firing in order with the facts it matched, the conclusions, the rewrite steps and",
      "the negative as edits of the SQL."
    })
public final class ExplainCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "ID", description = "A question id: <split>_<number>, e.g. dev_0003.")
  String id;

  @Mixin SpiderOption spiderFolder;

  @Mixin PolicyOptions policy;

  @Option(names = "--json", description = "Print the explanation as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    PrintWriter stdout = spec.commandLine().getOut();
    Explanation explanation =
        Explainer.explain(
            id, spiderFolder.spider, RuleBase.load(policy.ruleSet()), policy.readOverrides(), policy.overridesSource(),
            policy.policyFacts());
    if (json) {
      stdout.print(DatasetWriter.pretty().writeValueAsString(explanation) + "\n");
    } else {
      stdout.print(explanation.text());
    }
    stdout.flush();
    return 0;
  }
}
