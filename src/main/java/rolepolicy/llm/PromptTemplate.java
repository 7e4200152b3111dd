package rolepolicy.llm;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import rolepolicy.io.InputException;

/**
 * A prompt kept as a text file, read at run time: {@code {{name}}} stands for a value the tool
 * fills in. A placeholder the caller does not know is an error naming file and line.
 */
public final class PromptTemplate {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*}}");

  private final Path file;
  private final String text;
  private volatile Pattern pattern;
  private volatile List<String> groups;

  private PromptTemplate(Path file, String text) {
    this.file = file;
    this.text = text;
  }

  /** Reads a template; every placeholder must be one of {@code known}. */
  public static PromptTemplate read(Path file, Set<String> known) {
    String text = rolepolicy.io.SmallText.read(file, "prompt template");
    List<String> lines = text.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = PLACEHOLDER.matcher(lines.get(i));
      while (m.find()) {
        if (!known.contains(m.group(1))) {
          throw new InputException(file + ": line " + (i + 1) + ": unknown placeholder {{" + m.group(1)
              + "}}; this template may use " + String.join(", ", new TreeSet<>(known).stream().map(k -> "{{" + k + "}}").toList()));
        }
      }
      for (int open = lines.get(i).indexOf("{{"); open >= 0; open = lines.get(i).indexOf("{{", open + 2)) {
        if (!PLACEHOLDER.matcher(lines.get(i).substring(open)).lookingAt()) {
          throw new InputException(file + ": line " + (i + 1) + ": '{{' that does not start a placeholder {{name}}");
        }
      }
    }
    return new PromptTemplate(file, text);
  }

  /**
   * This template with one placeholder filled in everywhere it stands (a value the same for every
   * prompt of a run, such as the profile's policy text); the others stay.
   */
  public PromptTemplate with(String name, String value) {
    Matcher m = PLACEHOLDER.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(m.group(1).equals(name) ? value : m.group()));
    }
    m.appendTail(out);
    return new PromptTemplate(file, out.toString());
  }

  /** Whether the text has the placeholder {@code {{name}}}. */
  public boolean uses(String name) {
    Matcher m = PLACEHOLDER.matcher(text);
    while (m.find()) {
      if (m.group(1).equals(name)) {
        return true;
      }
    }
    return false;
  }

  public Path file() {
    return file;
  }

  /** The template's text, as read: part of what identifies a cached answer. */
  public String text() {
    return text;
  }

  /**
   * The values that rendered {@code prompt} from this template, or null when the template did not
   * render it: the reverse of {@link #render}, for a stand-in model that must tell its requests apart.
   * A placeholder's value is the shortest that fits; a placeholder used twice has the same value.
   */
  public Map<String, String> match(String prompt) {
    if (pattern == null) {
      StringBuilder regex = new StringBuilder();
      java.util.List<String> names = new java.util.ArrayList<>();
      Matcher m = PLACEHOLDER.matcher(text);
      int last = 0;
      while (m.find()) {
        regex.append(Pattern.quote(text.substring(last, m.start())));
        int seen = names.indexOf(m.group(1));
        if (seen >= 0) {
          regex.append("\\").append(seen + 1);
        } else {
          names.add(m.group(1));
          regex.append("(.*?)");
        }
        last = m.end();
      }
      regex.append(Pattern.quote(text.substring(last)));
      groups = names;
      pattern = Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
    Matcher m = pattern.matcher(prompt);
    if (!m.matches()) {
      return null;
    }
    Map<String, String> values = new java.util.HashMap<>();
    for (int i = 0; i < groups.size(); i++) {
      values.put(groups.get(i), m.group(i + 1));
    }
    return values;
  }

  public String render(Map<String, String> values) {
    Matcher m = PLACEHOLDER.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = values.get(m.group(1));
      m.appendReplacement(out, Matcher.quoteReplacement(value == null ? "" : value));
    }
    m.appendTail(out);
    return out.toString();
  }
}
