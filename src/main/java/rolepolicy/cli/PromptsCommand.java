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
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import rolepolicy.casebank.CaseBank;
import rolepolicy.casebank.CaseIndex;
import rolepolicy.casebank.DraftSelection;
import rolepolicy.casebank.ValueLinker;
import rolepolicy.casebank.Embedder;
import rolepolicy.casebank.PromptWriter;
import rolepolicy.casebank.SchemaStyle;
import rolepolicy.engine.PolicyPromptText;
import rolepolicy.engine.RuleBase;
import rolepolicy.evaluate.Evaluator;
import rolepolicy.evaluate.PredictionReader;
import rolepolicy.io.AtomicOutput;
import rolepolicy.io.DatasetWriter;
import rolepolicy.llm.PromptTemplate;
import rolepolicy.io.InputException;
import rolepolicy.io.JsonFiles;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/** Writes one few-shot prompt per question of a generated split (docs/retrieval.md). */
@Command(
    name = "prompts",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Write one few-shot prompt per question: policies, retrieved examples, question, answer format.")
public final class PromptsCommand implements Callable<Integer> {
  static final String PROMPTS = "prompts.jsonl";

  @Spec CommandSpec spec;

  @Mixin DatasetOption data;

  @Mixin DatabasesOption databases;

  @Mixin TablesOption schemaFile;

  @Mixin CaseBankOption caseBank;

  @Mixin TemplateOption promptTemplate;

  @Mixin FewShotOptions fewShot;

  @Mixin RulesOption ruleFiles;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "results", description = "Writes DIR/prompts.jsonl (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--draft", paramLabel = "FILE",
      description = "Draft SQL per question in evaluate's prediction format: the examples are chosen again by the draft's skeleton (DAIL-SQL's two stages).")
  Path draft;

  @Mixin ForceOption force;

  @Override
  public Integer call() {
    CaseBank.Method chosen = fewShot.retrievalPolicy();
    SchemaStyle schemaStyle = fewShot.schemaStyle();
    if (out.getFileName() != null && out.getFileName().toString().endsWith(".jsonl")) {
      throw new ParameterException(spec.commandLine(),
          "--out is a folder (prompts writes OUT/" + PROMPTS + "), not a file: give --out " + (out.getParent() == null ? "." : out.getParent()));
    }
    Path file = out.resolve(PROMPTS);
    Map<String, Schema> schemas = SchemaReader.read(schemaFile.tables);
    PromptTemplate prompt = PromptTemplate.read(promptTemplate.template, PromptWriter.PLACEHOLDERS)
        .with("policy_rules", PolicyPromptText.of(RuleBase.load(ruleFiles.ruleSet())));
    JsonNode records = JsonFiles.readArray(data.dataset, "dataset records");
    List<String> drafts = draft == null ? null : PromptWriter.drafts(PredictionReader.read(draft, Evaluator.readDataset(data.dataset)));
    Map<String, Integer> byType = new LinkedHashMap<>();
    try (CaseBank cases = CaseIndex.open(caseBank.bank, new Embedder()); AtomicOutput output = new AtomicOutput()) {
      PromptWriter writer = new PromptWriter(cases, prompt, chosen, fewShot.examples,
          drafts == null && chosen != CaseBank.Method.SKELETON_VOTE ? null
              : new DraftSelection(cases, schemas, databases.dir == null ? null : new ValueLinker(databases.dir)),
          schemaStyle);
      try (BufferedWriter lines = Files.newBufferedWriter(output.stage(file))) {
        for (int i = 0; i < records.size(); i++) {
          JsonNode r = records.get(i);
          String where = data.dataset + ": record #" + (i + 1);
          String dbId = r.path("db_id").asText();
          Schema schema = schemas.get(dbId);
          if (schema == null) {
            throw new InputException(where + ": database '" + dbId + "' is not in " + schemaFile.tables);
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
    spec.commandLine().getOut().printf(Locale.ROOT, "%d prompts (%s examples, %s%s) written to %s%n", records.size(), fewShot.policy,
        byType, drafts == null ? "" : ", " + drafts.stream().filter(d -> d != null).count() + " chosen again by a draft", file);
    return 0;
  }
}
