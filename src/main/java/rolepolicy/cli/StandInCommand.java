package rolepolicy.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import rolepolicy.evaluate.Evaluator;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.evaluate.PredictionReader;
import rolepolicy.run.RecordedModel;
import rolepolicy.io.InputException;

/** A stand-in model endpoint answering from a predictions file, until stopped. */
@Command(
    name = "stand-in",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Serve an OpenAI-compatible chat endpoint on 127.0.0.1 that answers each question of a dataset"
        + " with its line of a predictions file, until stopped (Ctrl-C): try run or interact without a model,"
        + " or replay recorded answers.")
public final class StandInCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin DatasetOption data;

  @Option(names = "--pred", required = true, paramLabel = "FILE",
      description = "The answers: predictions as evaluate reads them, one per record of --dataset.")
  Path predictions;

  @Option(names = "--port", paramLabel = "N", defaultValue = "8765", description = "Port on 127.0.0.1; 0 takes a free one (default: ${DEFAULT-VALUE}).")
  @Range(min = 0, max = 65535)
  int port;

  @Option(names = "--fail", paramLabel = "PERCENT", defaultValue = "0",
      description = "Fail about PERCENT %% of the questions for good (HTTP 500 however often asked; the same ones every run), to try how a run counts failures (default: ${DEFAULT-VALUE}).")
  @Range(min = 0, max = 100)
  int failPercent;

  @Override
  public Integer call() throws InterruptedException {
    List<GoldRecord> records = Evaluator.readDataset(data.dataset);
    List<String> answers = PredictionReader.read(predictions, records);
    RecordedModel model;
    try {
      model = new RecordedModel(records, answers, port, failPercent);
    } catch (BindException e) {
      throw new InputException("port " + port + " on 127.0.0.1 is in use; give another with --port (0 takes a free one)");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    PrintWriter out = spec.commandLine().getOut();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      model.close();
      out.printf(Locale.ROOT, "stand-in stopped: %d requests answered, %d failed on purpose, %d without a question of %s%n",
          model.answered(), model.failed(), model.refused(), data.dataset);
      out.flush();
      stopped.countDown();
    }));
    out.printf(Locale.ROOT, "stand-in model at %s: %d questions of %s answered from %s (Ctrl-C stops)%n",
        model.baseUrl(), model.questions(), data.dataset, predictions);
    out.flush();
    stopped.await();
    return 0;
  }
}
