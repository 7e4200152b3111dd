package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ExitCode;

/** The bench command's checks before it times anything, and its statistics. */
class BenchCommandTest {
  record Result(int code, String out, String err) {
    /** The first line of stderr: the message; a usage error's help follows it. */
    String message() {
      return err.lines().findFirst().orElse("");
    }
  }

  /** Runs {@code bench} through Main, with Main's exception handler: a crash is exit 70. */
  private static Result bench(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] all = Stream.concat(Stream.of("bench"), Stream.of(args)).toArray(String[]::new);
    int code = Main.run(all, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void onlyTrainAndDevAreTimed() {
    Result r = bench("--spider", "data/spider", "--splits", "test");
    assertEquals(ExitCode.USAGE, r.code(), r.err());
    assertEquals("bench times train and dev only, not 'test'", r.message(), r.err());
  }

  @Test
  void aNegativeRunCountIsRefused() {
    Result r = bench("--spider", "data/spider", "--launcher-runs", "-1");
    assertEquals(ExitCode.USAGE, r.code(), r.err());
    assertEquals("--launcher-runs must be at least 0, not -1", r.message(), r.err());
  }

  @Test
  void aMissingJarSaysHowToBuildIt() {
    Result r = bench("--spider", "data/spider", "--splits", "dev", "--jar", "target/none.jar");
    assertEquals(Main.BAD_INPUT, r.code(), r.err());
    assertEquals("error: target/none.jar: packaged jar not found; build it with: mvn -B -q package -DskipTests\n", r.err());
    assertEquals("", r.out());
  }

  @Test
  void aWarmupOfNoPassIsRefused() {
    Result r = bench("--spider", "data/spider", "--warmup", "0");
    assertEquals(ExitCode.USAGE, r.code(), r.err());
    assertEquals("--warmup must be at least 1, not 0", r.message(), r.err());
  }

  @Test
  void aMissingBaselineJarIsNamed() {
    Result r = bench("--spider", "data/spider", "--splits", "dev", "--baseline-jar", "target/old.jar");
    assertEquals(Main.BAD_INPUT, r.code(), r.err());
    assertEquals("error: target/old.jar: baseline jar not found\n", r.err());
    assertEquals("", r.out());
  }

  @Test
  void theSpreadIsMedianMinimumAndMaximum() {
    rolepolicy.bench.Spread odd = rolepolicy.bench.Spread.of(List.of(3.0, 1.0, 2.0));
    assertEquals(new rolepolicy.bench.Spread(2.0, 1.0, 3.0, 3), odd);
    assertEquals(2.5, rolepolicy.bench.Spread.of(List.of(4.0, 1.0, 2.0, 3.0)).median());
  }
}
