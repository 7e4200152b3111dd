package rolepolicy.casebank;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.io.InputException;

/** A bank of an earlier format (its cases without REFUSE reasons in words) is refused, with what to do. */
class CaseBankFormatTest {
  @TempDir Path dir;

  @Test
  void aBankOfAnEarlierFormatIsRefusedWithWhatToDo() throws Exception {
    Files.writeString(dir.resolve("bank.json"), """
        {"source": "data/train.json", "cases": 7000, "model": "all-MiniLM-L6-v2",
         "thresholds": {"specific": 0.94, "skeleton": 0.54}}
        """);
    InputException e = assertThrows(InputException.class, () -> CaseIndex.open(dir, null));
    assertTrue(e.getMessage().equals(dir + ": a case bank of an earlier format (bank.json has no format, this version"
        + " reads 3); build it again with the casebank command"), e.getMessage());
  }
}
