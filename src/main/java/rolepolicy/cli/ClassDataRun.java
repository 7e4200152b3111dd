package rolepolicy.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import rolepolicy.io.JsonFiles;

/**
 * The run {@code mvn package} records the class-data archive of {@code bin/rolepolicy} from: {@code
 * generate} on the bundled dev split, then {@code evaluate} of that split twice (its original SQL as
 * predictions, every fifth a refusal), first with an empty cache and then with the cache it wrote, so
 * that the archive holds the classes of both commands and of both ways to the rules and gold results.
 *
 * <p>usage: {@code ClassDataRun OUT [DATABASES]}; the databases folder is used when it exists.
 */
public final class ClassDataRun {
  private ClassDataRun() {}

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    // made anew each build: only a folder this run made before, or an empty one, is replaced
    rolepolicy.io.OwnedFolder.recreate(out, "class-data-run", "OUT");
    Path cache = out.resolve("cache");
    PrintWriter stdout = new PrintWriter(System.out, true);
    PrintWriter stderr = new PrintWriter(System.err, true);
    int code = Main.run(new String[] {"generate", "--no-progress", "--out", out.toString()}, stdout, stderr);
    Path dev = out.resolve("dev.json");
    if (code == 0 && Files.isRegularFile(dev)) {
      List<String> lines = new ArrayList<>();
      int i = 0;
      for (JsonNode record : JsonFiles.readArray(dev, "dataset records")) {
        lines.add(i++ % 5 == 1 ? "REFUSE" : record.path("original_sql").asText().replaceAll("\\s+", " "));
      }
      Path predictions = out.resolve("predictions.txt");
      Files.write(predictions, lines);
      List<String> evaluate = new ArrayList<>(List.of("evaluate", "--dataset", dev.toString(), "--pred", predictions.toString(),
          "--out", out.resolve("evaluation").toString(), "--cache", cache.toString()));
      if (args.length > 1 && Files.isDirectory(Path.of(args[1]))) {
        evaluate.addAll(List.of("--db", args[1]));
      }
      for (int run = 0; run < 2 && code == 0; run++) {
        System.setProperty("rolepolicy.cache", cache.toString());
        code = Main.run(evaluate.toArray(String[]::new), stdout, stderr);
      }
    }
    System.exit(code);
  }
}
