package rolepolicy.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --template}: the few-shot prompt template. */
final class TemplateOption {
  @Option(names = "--template", paramLabel = "FILE", defaultValue = "data/prompts/few-shot.txt",
      description = "Prompt template with {{schema}}, {{examples}}, {{question}} (default: ${DEFAULT-VALUE}).")
  Path template;
}
