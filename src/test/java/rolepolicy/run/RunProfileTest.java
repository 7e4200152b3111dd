package rolepolicy.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.cli.Main;
import rolepolicy.io.DatasetWriter;
import rolepolicy.llm.LocalChatServer;
import rolepolicy.llm.LocalChatServer.Reply;

/** run.json records the profile, and compare refuses runs of different profiles unless told. */
class RunProfileTest {
  private static RunFixture fixture;
  private static Map<String, String> good;

  @TempDir Path dir;

  @BeforeAll
  static void fixture() throws IOException {
    fixture = RunFixture.shared();
    good = fixture.goodAnswers();
  }

  @Test
  void runsOfDifferentProfilesAreComparedOnlyWhenTold() throws IOException {
    Path specV1 = dir.resolve("runs/spec-v1");
    Path strict = dir.resolve("runs/strict");
    try (LocalChatServer server = new LocalChatServer(r -> Reply.text(good.get(RunFixture.questionOf(r.prompt()))))) {
      RunFixture.Result a = RunFixture.main(fixture.runArgs(server.baseUrl(), specV1).toArray(String[]::new));
      assertEquals(0, a.code(), a.err());
      RunFixture.Result b = RunFixture.main(fixture.runArgs(server.baseUrl(), strict, "--profile", "strict")
          .toArray(String[]::new));
      assertEquals(0, b.code(), b.err());
    }
    assertEquals("spec-v1", DatasetWriter.JSON.readTree(specV1.resolve("run.json").toFile()).path("profile").asText());
    assertEquals("strict", DatasetWriter.JSON.readTree(strict.resolve("run.json").toFile()).path("profile").asText());

    RunFixture.Result refused = RunFixture.main("compare", specV1.toString(), strict.toString(), "--resamples", "10",
        "--out", dir.resolve("compare").toString());
    assertEquals(Main.USAGE, refused.code(), refused.err());
    assertTrue(refused.err().startsWith("the runs are of different profiles, whose policies mean different things:"
        + " [spec-v1 [spec-v1], strict [strict]]; compare runs of one profile, or give --mixed-profiles"), refused.err());
    assertTrue(!Files.exists(dir.resolve("compare")), "nothing written");

    RunFixture.Result mixed = RunFixture.main("compare", specV1.toString(), strict.toString(), "--resamples", "10",
        "--mixed-profiles", "--out", dir.resolve("compare").toString());
    assertEquals(0, mixed.code(), mixed.err());

    // a run.json written before the profile was recorded is not checked
    ObjectNode older = (ObjectNode) DatasetWriter.JSON.readTree(strict.resolve("run.json").toFile());
    older.remove("profile");
    DatasetWriter.JSON.writeValue(strict.resolve("run.json").toFile(), older);
    RunFixture.Result unrecorded = RunFixture.main("compare", specV1.toString(), strict.toString(), "--resamples", "10",
        "--out", dir.resolve("compare").toString());
    assertEquals(0, unrecorded.code(), unrecorded.err());
  }
}
