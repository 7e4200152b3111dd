package rolepolicy.engine;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;
import rolepolicy.io.InputException;

/**
 * The rule files of one profile: the shared {@code .drl} files of a rules folder, then those of
 * the profile's folder {@code <folder>/profiles/<profile>/} and of the profiles it extends. A
 * profile's {@code profile.properties} gives its {@code description} (one sentence: the meaning of
 * a policy it models) and, optionally, the profile it {@code extends}; a profile's file replaces
 * the file of the same name of the profile it extends and of the shared folder. A folder with no
 * {@code profiles} subfolder is a rule set of its own files, for the default profile only.
 *
 * @param folder the rules folder
 * @param profile the profile's name
 */
public record RuleSet(Path folder, String profile) {
  /** The profile of SPEC v1, used when none is named. */
  public static final String DEFAULT_PROFILE = "spec-v1";

  private static final String PROPERTIES = "profile.properties";
  private static final String NAME = "[a-z0-9][a-z0-9-]*";

  public RuleSet {
    if (profile == null || !profile.matches(NAME)) {
      throw new InputException(
          "profile '" + profile + "': a profile is named by lower-case letters, digits and '-'");
    }
  }

  /** The default profile of a rules folder. */
  public static RuleSet of(Path folder) {
    return new RuleSet(folder, DEFAULT_PROFILE);
  }

  /** The folder of this profile's own rule files. */
  public Path profileFolder() {
    return folder.resolve("profiles").resolve(profile);
  }

  /** The rule files, by file name (a profile's file replacing a shared one of the same name). */
  public List<Path> files() {
    TreeMap<String, Path> byName = new TreeMap<>();
    drl(folder, "rules folder").forEach(f -> byName.put(f.getFileName().toString(), f));
    for (Path profileFolder : chain()) {
      drl(profileFolder, "profile folder").forEach(f -> byName.put(f.getFileName().toString(), f));
    }
    if (byName.isEmpty()) {
      throw new InputException(folder + ": no .drl rule files");
    }
    return List.copyOf(byName.values());
  }

  /** The profile's one-sentence description. */
  public String description() {
    return properties(profileFolder()).getProperty("description", "").strip();
  }

  /** The names of the profiles of the folder, sorted. */
  public static List<String> profiles(Path folder) {
    Path profiles = folder.resolve("profiles");
    if (!Files.isDirectory(profiles)) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(profiles)) {
      return entries.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether this profile is {@code name} or extends it. */
  public boolean includes(String name) {
    return profile.equals(name) || Files.isDirectory(folder.resolve("profiles"))
        && chain().stream().anyMatch(p -> p.getFileName().toString().equals(name));
  }

  /** The profile folders from the base of the chain to this profile's own. */
  private List<Path> chain() {
    List<Path> chain = new ArrayList<>();
    if (profile.equals(DEFAULT_PROFILE) && !Files.isDirectory(folder.resolve("profiles"))) {
      return chain;
    }
    List<String> seen = new ArrayList<>();
    String name = profile;
    while (name != null) {
      if (seen.contains(name)) {
        throw new InputException(
            folder.resolve("profiles") + ": profiles extend each other in a circle: "
                + String.join(" -> ", seen) + " -> " + name);
      }
      seen.add(name);
      Path own = folder.resolve("profiles").resolve(name);
      if (!Files.isDirectory(own)) {
        throw new InputException(
            own + ": profile '" + name + "' not found"
                + (seen.size() > 1 ? " (extended by '" + seen.get(seen.size() - 2) + "')" : "")
                + " (profiles here: " + String.join(", ", profiles(folder)) + ")");
      }
      chain.add(0, own);
      String base = properties(own).getProperty("extends");
      name = base == null || base.isBlank() ? null : base.strip();
      if (name != null && !name.matches(NAME)) {
        throw new InputException(own.resolve(PROPERTIES) + ": extends=" + name
            + ": a profile is named by lower-case letters, digits and '-'");
      }
    }
    return chain;
  }

  private static Properties properties(Path profileFolder) {
    Properties properties = new Properties();
    Path file = profileFolder.resolve(PROPERTIES);
    if (Files.isRegularFile(file)) {
      try (Reader in = Files.newBufferedReader(file)) {
        properties.load(in);
      } catch (IOException | IllegalArgumentException e) {
        throw new InputException(file + ": cannot read the profile (" + e.getMessage() + ")", e);
      }
    }
    return properties;
  }

  private static List<Path> drl(Path dir, String what) {
    if (!Files.isDirectory(dir)) {
      throw new InputException(dir + ": " + what + " not found");
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".drl")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
