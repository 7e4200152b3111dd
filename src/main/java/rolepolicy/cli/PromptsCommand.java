package rolepolicy.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import rolepolicy.casebank.CaseBank;
import rolepolicy.casebank.DraftSelection;
import rolepolicy.casebank.Embedder;
import rolepolicy.casebank.PromptWriter;
import rolepolicy.evaluate.Evaluator;
import rolepolicy.evaluate.PredictionReader;
import rolepolicy.generate.AtomicOutput;
import rolepolicy.generate.DatasetWriter;
import rolepolicy.llm.PromptTemplate;
import rolepolicy.spider.InputException;
import rolepolicy.spider.JsonFiles;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/** Writes one few-shot prompt per question of a generated split (docs/retrieval.md). */
@Command(
    name = "prompts",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Write one few-shot prompt per question: policies, retrieved examples, question, answer format.")
public final class PromptsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--dataset", paramLabel = "FILE", defaultValue = "data/dev.json", description = "A generated split (default: ${DEFAULT-VALUE}).")
  Path dataset;

  @Option(names = "--tables", paramLabel = "FILE", defaultValue = "data/spider/tables.json",
      description = "Schema file of its databases (default: ${DEFAULT-VALUE}).")
  Path tables;

  @Option(names = "--bank", paramLabel = "DIR", defaultValue = "data/casebank", description = "The CaseBank (default: ${DEFAULT-VALUE}).")
  Path bank;

  @Option(names = "--template", paramLabel = "FILE", defaultValue = "data/prompts/few-shot.txt",
      description = "Prompt template with {{schema}}, {{examples}}, {{question}} (default: ${DEFAULT-VALUE}).")
  Path template;

  @Option(names = "--policy", paramLabel = "NAME", defaultValue = "tiered", description = "tiered or skeleton_only (default: ${DEFAULT-VALUE}).")
  String policy;

  @Option(names = "-k", paramLabel = "N", defaultValue = "3", description = "Examples per prompt (default: ${DEFAULT-VALUE}).")
  int k;

  @Option(names = "--out", paramLabel = "FILE", defaultValue = "results/prompts.jsonl", description = "Output (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--draft", paramLabel = "FILE",
      description = "Draft SQL per question in evaluate's prediction format: the examples are chosen again by the draft's skeleton (DAIL-SQL's two stages).")
  Path draft;

  @Override
  public Integer call() {
    CaseBank.Policy chosen = switch (policy) {
      case "tiered" -> CaseBank.Policy.TIERED;
      case "skeleton_only" -> CaseBank.Policy.SKELETON_ONLY;
      default -> throw new ParameterException(spec.commandLine(), "--policy must be tiered or skeleton_only, not '" + policy + "'");
    };
    if (k < 1) {
      throw new ParameterException(spec.commandLine(), "-k must be at least 1");
    }
    Map<String, Schema> schemas = SchemaReader.read(tables);
    PromptTemplate prompt = PromptTemplate.read(template, PromptWriter.PLACEHOLDERS);
    JsonNode records = JsonFiles.readArray(dataset, "dataset records");
    List<String> drafts = draft == null ? null : PromptWriter.drafts(PredictionReader.read(draft, Evaluator.readDataset(dataset)));
    Map<String, Integer> byType = new LinkedHashMap<>();
    try (CaseBank cases = CaseBank.open(bank, new Embedder()); AtomicOutput output = new AtomicOutput()) {
      PromptWriter writer = new PromptWriter(cases, prompt, chosen, k, drafts == null ? null : new DraftSelection(cases, schemas));
      try (BufferedWriter lines = Files.newBufferedWriter(output.stage(out))) {
        for (int i = 0; i < records.size(); i++) {
          JsonNode r = records.get(i);
          String where = dataset + ": record #" + (i + 1);
          String dbId = r.path("db_id").asText();
          Schema schema = schemas.get(dbId);
          if (schema == null) {
            throw new InputException(where + ": database '" + dbId + "' is not in " + tables);
          }
          PromptWriter.PromptLine line = writer.prompt(r, schema, drafts == null ? null : drafts.get(i));
          byType.merge(line.retrieval().substring(0, line.retrieval().indexOf(':')), 1, Integer::sum);
          lines.write(DatasetWriter.JSON.writeValueAsString(line));
          lines.newLine();
        }
      }
      output.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    spec.commandLine().getOut().printf(Locale.ROOT, "%d prompts (%s examples, %s%s) written to %s%n", records.size(), policy,
        byType, drafts == null ? "" : ", " + drafts.stream().filter(d -> d != null).count() + " chosen again by a draft", out);
    return 0;
  }
}
