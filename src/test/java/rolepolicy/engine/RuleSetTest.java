package rolepolicy.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.io.InputException;

/** A profile's rule files: the shared ones, then the profiles it extends, then its own. */
class RuleSetTest {
  @TempDir Path dir;

  private Path file(String relative) throws Exception {
    Path f = dir.resolve(relative);
    Files.createDirectories(f.getParent());
    return Files.writeString(f, "// " + relative + "\n");
  }

  private List<String> files(String profile) {
    return new RuleSet(dir, profile).files().stream().map(f -> dir.relativize(f).toString().replace('\\', '/')).toList();
  }

  @Test
  void theShippedProfilesAreSpecV1StrictExtendedThreeTiersAndGrants() {
    assertEquals(List.of("analyst", "extended", "external", "grants", "internal", "spec-v1", "strict"),
        RuleSet.profiles(Path.of("rules")));
    assertEquals("permissions.drl", RuleSet.of(Path.of("rules")).files().stream()
        .filter(f -> f.startsWith(Path.of("rules", "profiles", "spec-v1"))).findFirst().orElseThrow()
        .getFileName().toString());
  }

  @Test
  void aProfileAddsItsFilesAndReplacesThoseOfTheSameNameInFileNameOrder() throws Exception {
    file("a.drl");
    file("c.drl");
    file("notes.txt");
    file("profiles/base/b.drl");
    file("profiles/base/c.drl");
    file("profiles/tier/c.drl");
    file("profiles/tier/d.drl");
    Files.writeString(dir.resolve("profiles/tier/profile.properties"), "description=A tier.\nextends=base\n");
    assertEquals(List.of("a.drl", "profiles/base/b.drl", "profiles/base/c.drl"), files("base"));
    assertEquals(List.of("a.drl", "profiles/base/b.drl", "profiles/tier/c.drl", "profiles/tier/d.drl"), files("tier"));
    assertEquals("A tier.", new RuleSet(dir, "tier").description());
    assertEquals("", new RuleSet(dir, "base").description());
  }

  @Test
  void aFolderWithoutProfilesIsItsOwnDefaultRuleSet() throws Exception {
    file("a.drl");
    assertEquals(List.of("a.drl"), files(RuleSet.DEFAULT_PROFILE));
    InputException e = assertThrows(InputException.class, () -> files("strict"));
    assertEquals(dir.resolve("profiles").resolve("strict") + ": profile 'strict' not found (profiles here: )", e.getMessage());
  }

  @Test
  void anUnknownProfileIsNamedWithTheKnownOnes() throws Exception {
    file("a.drl");
    file("profiles/spec-v1/p.drl");
    file("profiles/strict/p.drl");
    InputException e = assertThrows(InputException.class, () -> files("lenient"));
    assertEquals(dir.resolve("profiles").resolve("lenient") + ": profile 'lenient' not found (profiles here: spec-v1, strict)",
        e.getMessage());
  }

  @Test
  void profilesThatExtendEachOtherInACircleAreRefused() throws Exception {
    file("profiles/x/x.drl");
    file("profiles/y/y.drl");
    Files.writeString(dir.resolve("profiles/x/profile.properties"), "extends=y\n");
    Files.writeString(dir.resolve("profiles/y/profile.properties"), "extends = x\n");
    InputException e = assertThrows(InputException.class, () -> files("x"));
    assertEquals(dir.resolve("profiles") + ": profiles extend each other in a circle: x -> y -> x", e.getMessage());
  }

  @Test
  void aProfileExtendsOnlyAProfileByItsName() throws Exception {
    file("profiles/x/x.drl");
    Files.writeString(dir.resolve("profiles/x/profile.properties"), "extends=../elsewhere\n");
    InputException e = assertThrows(InputException.class, () -> files("x"));
    assertEquals(dir.resolve("profiles/x/profile.properties")
        + ": extends=../elsewhere: a profile is named by lower-case letters, digits and '-'", e.getMessage());
    Files.writeString(dir.resolve("profiles/x/profile.properties"), "extends=gone\n");
    e = assertThrows(InputException.class, () -> files("x"));
    assertEquals(dir.resolve("profiles").resolve("gone") + ": profile 'gone' not found (extended by 'x') (profiles here: x)",
        e.getMessage());
  }

  @Test
  void aProfileNameIsLowerCaseLettersDigitsAndDashes() {
    InputException e = assertThrows(InputException.class, () -> new RuleSet(dir, "../etc"));
    assertEquals("profile '../etc': a profile is named by lower-case letters, digits and '-'", e.getMessage());
    assertThrows(InputException.class, () -> new RuleSet(dir, null));
  }

  @Test
  void noRuleFilesAtAllIsAnError() throws Exception {
    Files.createDirectories(dir.resolve("profiles/empty"));
    InputException e = assertThrows(InputException.class, () -> files("empty"));
    assertEquals(dir + ": no .drl rule files", e.getMessage());
  }
}
