package rolepolicy.engine;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.kie.api.KieBase;
import org.kie.api.KieServices;
import org.kie.api.builder.KieBuilder;
import org.kie.api.builder.KieFileSystem;
import org.kie.api.builder.Message;
import org.kie.api.builder.ReleaseId;
import rolepolicy.cache.CacheFolder;

/** Compiles the {@code .drl} files of a rules folder, at run time, into one KieBase. */
public final class RuleBase {
  private static final String RESOURCE_DIR = "src/main/resources/rules/";

  /** Drools' follow-up to a parse error, which names no line and adds nothing. */
  private static final String NO_PACKAGE = "Parser returned a null Package";

  private static final AtomicLong BUILDS = new AtomicLong();

  /** The files each loaded rule base was read from, by file name, to name a rule's file in messages. */
  private static final Map<KieBase, Map<String, Path>> FILES = Collections.synchronizedMap(new WeakHashMap<>());

  /** The class loader the rules are compiled against: {@link RememberedMisses} over this class's own. */
  private static final ClassLoader CLASSES = new RememberedMisses(RuleBase.class.getClassLoader());

  private RuleBase() {}

  /**
   * A class loader that remembers each name its parent has no class for. Compiling rules asks for
   * many names that are no class (a field, a variable, a name tried under each import), and each
   * miss walks every jar of the class path; the answer does not change while the process runs.
   */
  private static final class RememberedMisses extends ClassLoader {
    static {
      registerAsParallelCapable();
    }

    private final Set<String> missing = ConcurrentHashMap.newKeySet();

    RememberedMisses(ClassLoader parent) {
      super(parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (missing.contains(name)) {
        throw new ClassNotFoundException(name);
      }
      try {
        return super.loadClass(name, resolve);
      } catch (ClassNotFoundException e) {
        missing.add(name);
        throw e;
      }
    }
  }

  /** The rule files of a rule set, sorted by name so that builds are repeatable. */
  public static List<Path> ruleFiles(RuleSet rules) {
    return rules.files();
  }

  /**
   * The rule base of a folder's {@code .drl} files: read from the cache folder ({@link
   * CacheFolder}) when these files were compiled before by this build, else compiled (a broken file
   * is a {@link RuleFileException} naming file and line) and then cached.
   */
  public static KieBase load(RuleSet rules) {
    return load(rules, CacheFolder.folder());
  }

  /** {@link #load(Path)} with the cache in {@code cache}; null: no cache. */
  public static KieBase load(RuleSet rules, Path cache) {
    Map<String, String> texts = new LinkedHashMap<>();
    Map<String, Path> paths = new LinkedHashMap<>();
    for (Path file : ruleFiles(rules)) {
      paths.put(file.getFileName().toString(), file);
      texts.put(file.getFileName().toString(), rolepolicy.io.SmallText.read(file, "rule file"));
    }
    String key = cache == null ? null : RuleCache.key(texts);
    KieBase cached = key == null ? null : RuleCache.read(cache, key);
    KieBase base = cached != null ? cached : build(paths, texts);
    if (key != null && cached == null) {
      RuleCache.write(cache, key, base);
    }
    FILES.put(base, paths);
    return base;
  }

  private static KieBase build(Map<String, Path> paths, Map<String, String> texts) {
    KieServices kie = KieServices.Factory.get();
    KieFileSystem files = kie.newKieFileSystem();
    texts.forEach((name, text) -> files.write(RESOURCE_DIR + name, text));
    // a release id of its own: builds in parallel threads must not meet in the KIE repository
    ReleaseId id = kie.newReleaseId("rolepolicy", "rules", "1.0." + BUILDS.incrementAndGet());
    files.generateAndWritePomXML(id);
    KieBuilder builder = kie.newKieBuilder(files, CLASSES).buildAll();
    List<Message> errors =
        builder.getResults().getMessages(Message.Level.ERROR).stream()
            .filter(m -> !m.getText().contains(NO_PACKAGE))
            .toList();
    if (!errors.isEmpty()) {
      throw new RuleFileException(
          errors.stream().map(m -> describe(m, paths)).collect(Collectors.joining("\n")));
    }
    try {
      return kie.newKieContainer(id, CLASSES).getKieBase();
    } finally {
      kie.getRepository().removeKieModule(id);
    }
  }

  /** One rule of a rule base: its file's name and the rule's name. */
  public record RuleName(String file, String rule) {}

  /** Every rule of a compiled rule base, by file name, then in the order of its file. */
  public static List<RuleName> rules(KieBase base) {
    return inOrder(base).stream().map(r -> new RuleName(fileOf(r), r.getName())).toList();
  }

  /** The rules of a compiled rule base, by file name, then in the order of their file. */
  static List<org.kie.api.definition.rule.Rule> inOrder(KieBase base) {
    record Loaded(org.kie.api.definition.rule.Rule rule, String file, int order) {}
    List<Loaded> loaded = new java.util.ArrayList<>();
    for (org.kie.api.definition.KiePackage pkg : base.getKiePackages()) {
      for (org.kie.api.definition.rule.Rule rule : pkg.getRules()) {
        // the load order is on Drools' implementation class, not its API
        loaded.add(new Loaded(rule, fileOf(rule), (Integer) call(rule, "getLoadOrder")));
      }
    }
    loaded.sort(java.util.Comparator.comparing(Loaded::file).thenComparingInt(Loaded::order));
    return loaded.stream().map(Loaded::rule).toList();
  }

  /** A rule of {@code base} for messages: its file (in the folder it was loaded from) and its name. */
  static String describe(KieBase base, org.kie.api.definition.rule.Rule rule) {
    String file = fileOf(rule);
    Map<String, Path> files = FILES.get(base);
    Path path = files == null ? null : files.get(file);
    return (path == null ? file : path.toString()) + ": rule \"" + rule.getName() + "\"";
  }

  /**
   * Rules {@code base} lacks, as a {@link RuleFileException} naming the file that holds them in the
   * shipped rules ({@code file}) where the rule set has it, else the folder without it.
   */
  static RuleFileException lacking(KieBase base, String file, String what) {
    Map<String, Path> files = FILES.get(base);
    Path path = files == null ? null : files.get(file);
    Path folder = files == null || files.isEmpty() ? null : files.values().iterator().next().getParent();
    String where = path != null ? path.toString() : folder == null ? file : folder + " (no " + file + ")";
    return new RuleFileException(where + ": " + what);
  }

  private static String fileOf(org.kie.api.definition.rule.Rule rule) {
    // the rule's resource is on Drools' implementation class, not its API
    String source = String.valueOf(call(call(rule, "getResource"), "getSourcePath"));
    return source.substring(source.lastIndexOf('/') + 1);
  }

  private static Object call(Object target, String method) {
    try {
      return target.getClass().getMethod(method).invoke(target);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Drools rule without " + method, e);
    }
  }

  private static String describe(Message message, Map<String, Path> paths) {
    String path = message.getPath();
    Path named = path == null ? null : paths.get(Path.of(path).getFileName().toString());
    String file = named != null ? named.toString() : path != null ? path : String.join(", ", paths.keySet());
    String line = message.getLine() > 0 ? ":" + message.getLine() : "";
    return file + line + ": " + message.getText().strip();
  }
}
