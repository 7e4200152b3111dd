package rolepolicy.io;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The secrets of this process (API keys, header values), and the text every message, log line and
 * file gets them out of: each secret registered, and the password of any URL ({@code
 * scheme://user:PASSWORD@host}, {@code ?password=…}, a JDBC URL's too), is replaced by {@value
 * #MASK}.
 */
public final class Secrets {
  /** What stands where a secret stood. */
  public static final String MASK = "[redacted]";

  /** Shorter values are not searched for: masking every "ab" of a text would garble it, not protect it. */
  static final int SHORTEST = 4;

  private static final Set<String> SECRETS = ConcurrentHashMap.newKeySet();
  /** {@code scheme://user:password@}: the password runs to the last {@code @} before a {@code /}. */
  private static final Pattern USERINFO = Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]*:(?:[a-z][a-z0-9+.-]*:)?//[^/@\\s:]*):[^\\s/]*@");
  /** {@code ?password=…} or {@code &password=…} in a URL's query (not a SQL text's {@code password='x'}). */
  private static final Pattern PASSWORD = Pattern.compile("(?i)([?&;](?:ssl)?password=)[^&;\\s\"']+");

  private Secrets() {}

  /**
   * Registers a secret: it is masked from then on. A value of {@code SCHEME TOKEN} form (an
   * {@code Authorization} header's {@code Bearer sk-…}) registers its token too.
   */
  public static void register(String secret) {
    if (secret == null) {
      return;
    }
    String s = secret.strip();
    if (s.length() >= SHORTEST) {
      SECRETS.add(s);
    }
    int space = s.lastIndexOf(' ');
    if (space > 0 && s.length() - space - 1 >= SHORTEST) {
      SECRETS.add(s.substring(space + 1));
    }
  }

  /** The text with every registered secret and every URL password masked; null stays null. */
  public static String redact(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    String out = text;
    for (String secret : SECRETS) {
      if (out.contains(secret)) {
        out = out.replace(secret, MASK);
      }
    }
    if (out.indexOf('@') >= 0) {
      out = USERINFO.matcher(out).replaceAll("$1:" + MASK + "@");
    }
    if (out.toLowerCase(java.util.Locale.ROOT).contains("password=")) {
      out = PASSWORD.matcher(out).replaceAll("$1" + MASK);
    }
    return out;
  }
}
