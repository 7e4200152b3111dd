package rolepolicy.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import rolepolicy.engine.RuleBase;
import rolepolicy.engine.RuleSet;
import rolepolicy.io.InputException;

/** SHA-256 digests: of a request's content (the answer cache's key), of a template, of the rule files, of a prompts folder. */
public final class Digest {
  private Digest() {}

  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String sha256(String text) {
    return sha256(text.getBytes(StandardCharsets.UTF_8));
  }

  /** The rule files' names and contents, in name order. */
  public static String rules(RuleSet rules) {
    StringBuilder all = new StringBuilder();
    List<Path> files = RuleBase.ruleFiles(rules);
    for (Path file : files) {
      all.append(file.getFileName()).append('\0').append(rolepolicy.io.SmallText.read(file, "rule file")).append('\0');
    }
    return sha256(all.toString());
  }

  /** The {@code .txt} templates of a prompts folder: names and contents, in name order. */
  public static String templates(Path folder) {
    StringBuilder all = new StringBuilder();
    try (java.util.stream.Stream<Path> files = Files.list(folder)) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".txt")).sorted().toList()) {
        all.append(file.getFileName()).append('\0').append(rolepolicy.io.SmallText.read(file, "prompt template")).append('\0');
      }
    } catch (IOException e) {
      throw new InputException(folder + ": cannot read the prompt templates (" + InputException.reason(e) + ")", e);
    }
    return sha256(all.toString());
  }
}
