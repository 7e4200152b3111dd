package rolepolicy.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The command list of the top-level help: each command's first sentence, whole, wrapped at spaces
 * only, so that a path is never split (picocli's own list shows the first description line and
 * breaks lines inside paths).
 */
final class CommandList {
  private static final Pattern FIRST_SENTENCE = Pattern.compile("(.*?\\.)(?=\\s+\\p{Lu})");

  private CommandList() {}

  static String render(Help help) {
    Map<String, Help> commands = help.subcommands();
    int nameWidth = commands.keySet().stream().mapToInt(String::length).max().orElse(0);
    int indent = 2 + nameWidth + 2;
    int width = Math.max(indent + 20, help.commandSpec().usageMessage().width());
    StringBuilder text = new StringBuilder();
    commands.forEach((name, sub) -> {
      List<String> lines = wrap(summary(sub.commandSpec()), width - indent);
      text.append("  ").append(name).append(" ".repeat(indent - 2 - name.length())).append(lines.get(0)).append('\n');
      lines.subList(1, lines.size()).forEach(line -> text.append(" ".repeat(indent)).append(line).append('\n'));
    });
    return text.toString();
  }

  /** The first sentence of the command's description, which may span several description lines. */
  static String summary(CommandSpec command) {
    String whole = String.join(" ", command.usageMessage().description()).replace("%n", " ").replace("%%", "%").strip();
    Matcher first = FIRST_SENTENCE.matcher(whole);
    return first.lookingAt() ? first.group(1) : whole;
  }

  /** Lines of at most {@code width} characters, broken at spaces only; a longer word stands alone. */
  static List<String> wrap(String text, int width) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : text.split("\\s+")) {
      if (line.length() > 0 && line.length() + 1 + word.length() > width) {
        lines.add(line.toString());
        line.setLength(0);
      }
      line.append(line.length() > 0 ? " " : "").append(word);
    }
    lines.add(line.toString());
    return lines;
  }
}
