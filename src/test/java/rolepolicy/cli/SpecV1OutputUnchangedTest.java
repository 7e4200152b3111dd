package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;

/**
 * The default profile, spec-v1, writes the bytes it wrote before profiles existed: Spider train+dev
 * (from the AST and from the SQL text), KaggleDBQA test and few-shot, BIRD dev with and without its
 * overrides. The digests in {@code golden/spec-v1-output.txt} were made at de8fa0e, before the
 * profiles and the GROUP BY, HAVING and ORDER BY references.
 */
class SpecV1OutputUnchangedTest {
  private static final Path GOLDEN = Path.of("src/test/resources/golden/spec-v1-output.txt");

  @TempDir Path dir;

  @Test
  void generateWritesTheBytesItWroteBeforeProfiles() throws Exception {
    Path spider = TestData.spiderDir();
    Path kaggle = spider.resolveSibling("kaggledbqa");
    Path bird = spider.resolveSibling("bird");
    run("generate", "--spider", spider.toString(), "--splits", "train,dev", "--out", dir.resolve("spider").toString());
    run("generate", "--spider", spider.toString(), "--splits", "train,dev", "--facts", "text",
        "--out", dir.resolve("spider-text").toString());
    for (String split : List.of("test", "fewshot")) {
      List<String> args = new ArrayList<>(List.of("generate", "--tables", kaggle.resolve("KaggleDBQA_tables.json").toString(),
          "--questions"));
      try (Stream<Path> files = Files.list(kaggle.resolve("examples"))) {
        files.filter(f -> f.getFileName().toString().endsWith("_" + split + ".json")).sorted()
            .forEach(f -> args.add(f.toString()));
      }
      args.addAll(List.of("--split", split, "--overrides", "data/overrides-kaggledbqa.json",
          "--out", dir.resolve("kaggledbqa").toString()));
      run(args.toArray(String[]::new));
    }
    run("generate", "--tables", bird.resolve("dev_tables.json").toString(), "--questions", bird.resolve("dev.json").toString(),
        "--split", "dev", "--overrides", "data/overrides-bird.json", "--out", dir.resolve("bird").toString());
    run("generate", "--tables", bird.resolve("dev_tables.json").toString(), "--questions", bird.resolve("dev.json").toString(),
        "--split", "dev", "--out", dir.resolve("bird-noov").toString());
    List<String> expected = Files.readAllLines(GOLDEN).stream().filter(l -> !l.startsWith("#")).toList();
    assertEquals(String.join("\n", expected), String.join("\n", digests()));
  }

  private static void run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add(1, "--no-progress");
    CommandRun run = CommandRun.of(all.toArray(String[]::new));
    assertEquals(0, run.code(), run.err());
  }

  /** {@code label/file sha256} for every output file but the folder markers; one line for policies/. */
  private List<String> digests() throws Exception {
    List<String> lines = new ArrayList<>();
    for (String label : List.of("spider", "spider-text", "kaggledbqa", "bird", "bird-noov")) {
      Path folder = dir.resolve(label);
      List<String> files;
      try (Stream<Path> walk = Files.walk(folder)) {
        files = walk.filter(Files::isRegularFile)
            .map(f -> folder.relativize(f).toString().replace('\\', '/'))
            .filter(f -> !Path.of(f).getFileName().toString().startsWith("."))
            .sorted().toList();
      }
      StringBuilder policies = new StringBuilder();
      for (String f : files) {
        if (f.startsWith("policies/")) {
          policies.append(f).append(' ').append(sha(folder.resolve(f))).append('\n');
        } else {
          lines.add(label + "/" + f + " " + sha(folder.resolve(f)));
        }
      }
      if (policies.length() > 0) {
        lines.add(label + "/policies/ " + HexFormat.of().formatHex(
            MessageDigest.getInstance("SHA-256").digest(policies.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8))));
      }
    }
    return lines;
  }

  private static String sha(Path file) throws IOException {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
