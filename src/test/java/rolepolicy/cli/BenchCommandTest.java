package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The bench command's checks before it times anything, and its statistics. */
class BenchCommandTest {
  private final StringWriter err = new StringWriter();

  private int bench(String... args) {
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setOut(new PrintWriter(new StringWriter(), true));
    cli.setErr(new PrintWriter(err, true));
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      err.write("error: " + e.getMessage());
      return Main.BAD_INPUT;
    });
    return cli.execute(args);
  }

  @Test
  void onlyTrainAndDevAreTimed() {
    assertEquals(2, bench("--spider", "data/spider", "--splits", "test"));
    assertTrue(err.toString().contains("bench times train and dev only, not 'test'"), err.toString());
  }

  @Test
  void aNegativeRunCountIsRefused() {
    assertEquals(2, bench("--spider", "data/spider", "--launcher-runs", "-1"));
    assertTrue(err.toString().contains("--launcher-runs and --scale at least 0"), err.toString());
  }

  @Test
  void aMissingJarSaysHowToBuildIt() {
    assertEquals(Main.BAD_INPUT, bench("--spider", "data/spider", "--splits", "dev", "--jar", "target/none.jar"));
    assertTrue(err.toString().contains("target/none.jar: packaged jar not found; build it with: mvn -B -q package -DskipTests"),
        err.toString());
  }

  @Test
  void aWarmupOfNoPassIsRefused() {
    assertEquals(2, bench("--spider", "data/spider", "--warmup", "0"));
    assertTrue(err.toString().contains("--runs and --warmup must be at least 1"), err.toString());
  }

  @Test
  void aMissingBaselineJarIsNamed() {
    assertEquals(Main.BAD_INPUT, bench("--spider", "data/spider", "--splits", "dev", "--baseline-jar", "target/old.jar"));
    assertTrue(err.toString().contains("target/old.jar: baseline jar not found"), err.toString());
  }

  @Test
  void theSpreadIsMedianMinimumAndMaximum() {
    BenchCommand.Spread odd = BenchCommand.Spread.of(List.of(3.0, 1.0, 2.0));
    assertEquals(new BenchCommand.Spread(2.0, 1.0, 3.0, 3), odd);
    assertEquals(2.5, BenchCommand.Spread.of(List.of(4.0, 1.0, 2.0, 3.0)).median());
  }
}
