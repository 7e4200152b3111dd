package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A --profile that names no profile of the rules folder is a bad command line (exit 2), listing the profiles. */
class ProfileOptionTest {
  private static final String KNOWN = "give one of analyst, extended, external, grants, internal, spec-v1, strict";

  @TempDir Path dir;

  private CommandRun generate(String profile) {
    return CommandRun.of("generate", "--profile", profile, "--out", dir.resolve("out").toString());
  }

  private static String firstLine(CommandRun run) {
    return run.err().lines().findFirst().orElse("");
  }

  @Test
  void anEmptyProfileIsAUsageError() {
    CommandRun run = generate("");
    assertEquals(2, run.code(), run.err());
    assertEquals("--profile '': no profile named; " + KNOWN, firstLine(run));
  }

  @Test
  void twoProfilesWhereOneIsTakenAreAUsageError() {
    CommandRun run = generate("strict,analyst");
    assertEquals(2, run.code(), run.err());
    assertEquals("--profile 'strict,analyst': one profile only; " + KNOWN, firstLine(run));
  }

  @Test
  void aProfileInTheWrongCaseIsAUsageErrorSuggestingTheRightOne() {
    CommandRun run = generate("Strict");
    assertEquals(2, run.code(), run.err());
    assertEquals("--profile 'Strict': no profile 'Strict' (did you mean 'strict'?); " + KNOWN, firstLine(run));
    assertTrue(run.err().contains("Usage: rolepolicy generate"), run.err());
  }

  @Test
  void evaluateTakesAListButEachNameMustBeAProfile() {
    CommandRun run = CommandRun.of("evaluate", "--pred", "p.txt", "--profile", "strict,Analyst",
        "--out", dir.resolve("out").toString());
    assertEquals(2, run.code(), run.err());
    assertEquals("--profile 'strict,Analyst': no profile 'Analyst' (did you mean 'analyst'?); " + KNOWN
        + ", or several separated by ','", firstLine(run));
    CommandRun twice = CommandRun.of("evaluate", "--pred", "p.txt", "--profile", "strict,strict",
        "--out", dir.resolve("out").toString());
    assertEquals(2, twice.code(), twice.err());
    assertEquals("--profile 'strict,strict': 'strict' is named twice; name each profile once", firstLine(twice));
  }

  @Test
  void aRulesFolderWithoutProfilesTakesTheDefaultOnly() throws Exception {
    Path rules = Files.createDirectories(dir.resolve("rules"));
    CommandRun run = CommandRun.of("generate", "--rules", rules.toString(), "--profile", "strict",
        "--out", dir.resolve("out").toString());
    assertEquals(2, run.code(), run.err());
    assertEquals("--profile 'strict': no profile 'strict'; give one of spec-v1", firstLine(run));
  }
}
