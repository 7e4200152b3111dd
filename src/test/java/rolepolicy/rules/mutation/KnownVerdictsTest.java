package rolepolicy.rules.mutation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The known-verdicts file: equivalent and invalid verdicts come back only for the inputs they were
 * written for; where a variant changed the outcome comes back whatever the inputs.
 */
class KnownVerdictsTest {
  @TempDir Path dir;

  private static DrlMutants.Mutant mutant(String text) {
    return new DrlMutants.Mutant("policy.drl", List.of("a rule"), "condition", "flipped", text);
  }

  @Test
  void verdictsNeedTheSameInputsAndHintsDoNot() throws Exception {
    DrlMutants.Mutant equivalent = mutant("rule A");
    DrlMutants.Mutant invalid = mutant("rule B");
    DrlMutants.Mutant caught = mutant("rule C");
    DrlMutants.Mutant caughtNowhere = mutant("rule D");
    Path file = dir.resolve("known.tsv");
    Files.writeString(file, KnownVerdicts.text("inputs-1", List.of(
        new RuleMutationTest.Result(equivalent, RuleMutationTest.Verdict.EQUIVALENT, "same outcome"),
        new RuleMutationTest.Result(invalid, RuleMutationTest.Verdict.INVALID, "does not compile"),
        new RuleMutationTest.Result(caught, RuleMutationTest.Verdict.CAUGHT, "fails: [a rule]", "17"),
        new RuleMutationTest.Result(caughtNowhere, RuleMutationTest.Verdict.CAUGHT, "fails: [a rule]", null))));

    KnownVerdicts same = KnownVerdicts.read(file, "inputs-1");
    assertEquals(RuleMutationTest.Verdict.EQUIVALENT, same.of(equivalent));
    assertEquals(RuleMutationTest.Verdict.INVALID, same.of(invalid));
    assertNull(same.of(caught), "a caught variant is never taken from the file");
    assertEquals("17", same.where(caught));
    assertNull(same.where(caughtNowhere));
    assertNull(same.where(equivalent));

    KnownVerdicts changed = KnownVerdicts.read(file, "inputs-2");
    assertNull(changed.of(equivalent), "another input: no verdict reused");
    assertNull(changed.of(invalid));
    assertEquals("17", changed.where(caught), "a hint only says where to look first");
    assertEquals(0, changed.size());

    assertNull(KnownVerdicts.none("inputs-1").where(caught));
    KnownVerdicts recheck = same.hintsOnly();
    assertNull(recheck.of(equivalent), "a recheck reuses no verdict");
    assertEquals("17", recheck.where(caught), "and checks the hints");
  }
}
