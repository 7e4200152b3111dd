package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.run.RunFixture;

/** prompts --schema-style: policies gives the prompts of before, byte for byte; create-table is the default. */
class PromptsSchemaStyleTest {
  /** prompts.jsonl as prompts wrote it before --schema-style, with the template of then (kept beside). */
  private static final Path BEFORE = Path.of("src/test/resources/golden/prompts/policies-style.jsonl");
  private static final Path TEMPLATE_BEFORE = Path.of("src/test/resources/prompts/few-shot-before-schema-style.txt");

  @TempDir Path dir;

  private String prompts(String name, String... extra) throws Exception {
    RunFixture fixture = RunFixture.shared();
    List<String> args = new ArrayList<>(List.of("prompts", "--dataset", fixture.dataset.toString(),
        "--tables", TestData.spiderDir().resolve("tables.json").toString(), "--bank", fixture.bank.toString(),
        "--out", dir.resolve(name).toString()));
    args.addAll(List.of(extra));
    RunFixture.Result r = RunFixture.main(args.toArray(String[]::new));
    assertEquals(0, r.code(), r.err());
    return Files.readString(dir.resolve(name).resolve("prompts.jsonl"));
  }

  @Test
  void policiesStyleWithTheTemplateOfBeforeGivesThePromptsOfBefore() throws Exception {
    assertEquals(Files.readString(BEFORE),
        prompts("policies", "--schema-style", "policies", "--template", TEMPLATE_BEFORE.toString()));
  }

  @Test
  void policiesStyleWithTodaysTemplateDiffersInTheHeadingOnly() throws Exception {
    assertEquals(Files.readString(BEFORE).replace("Database (table(column policy, ...)):",
        "Database (each column with its usage policy):"), prompts("policies", "--schema-style", "policies"));
  }

  @Test
  void createTableIsTheDefault() throws Exception {
    String byDefault = prompts("default");
    assertEquals(byDefault, prompts("create-table", "--schema-style", "create-table"));
    assertTrue(byDefault.contains("CREATE TABLE singer (\\n  Singer_ID number, -- JoinOnly\\n"), byDefault);
  }

  @Test
  void anUnknownStyleNamesTheStyles() throws Exception {
    RunFixture fixture = RunFixture.shared();
    RunFixture.Result r = RunFixture.main("prompts", "--dataset", fixture.dataset.toString(), "--bank",
        fixture.bank.toString(), "--out", dir.toString(), "--schema-style", "code");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("--schema-style must be create-table or policies, not 'code'"), r.err());
  }
}
