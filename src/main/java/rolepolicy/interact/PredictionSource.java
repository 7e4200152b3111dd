package rolepolicy.interact;

import java.nio.file.Path;
import java.util.List;

/** Round 0 from a predictions file in the evaluator's format; no later round, no repair. */
public final class PredictionSource implements SqlSource {
  private final Path file;
  private final List<String> predictions;

  /** {@code predictions} in question order, as {@code PredictionReader} reads them. */
  public PredictionSource(Path file, List<String> predictions) {
    this.file = file;
    this.predictions = predictions;
  }

  /** The source whose round 0 is each policy record's original SQL. */
  public static PredictionSource originalSql(List<InteractQuestion> questions) {
    return new PredictionSource(null, questions.stream().map(q -> q.policy().record().originalSql()).toList());
  }

  @Override
  public Generation generate(InteractQuestion question, Conversation conversation) {
    return conversation.round() == 0 ? Generation.of(predictions.get(question.index())) : null;
  }

  @Override
  public String describe() {
    return file == null ? "the original SQL as round 0" : "predictions " + file + " as round 0";
  }
}
