package rolepolicy.cache;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The native libraries that ONNX Runtime (the embeddings) and sqlite-jdbc carry in their jars,
 * copied once into the cache folder ({@code native/<library>-<crc>/}) and loaded from there: left to
 * themselves they copy them into the temporary folder on every start (ONNX Runtime leaves its folder
 * there). DuckDB, which has no such setting, copies its library to a temporary file deleted at exit;
 * {@link #loading} makes the exit wait for a copy under way, so that it is deleted whole.
 */
public final class NativeLibraries {
  private NativeLibraries() {}

  /**
   * Points ONNX Runtime and sqlite-jdbc at their libraries in {@code cache}/native, copying them
   * there first where they are not yet; with no cache folder, or where a copy fails, the libraries
   * load as they would by themselves.
   */
  public static void useCacheFolder(Path cache) {
    if (cache == null || System.getProperty("onnxruntime.native.path") != null || System.getProperty("org.sqlite.lib.path") != null) {
      return;
    }
    String ort = onnxRuntimeFolder();
    Path onnx = copied(cache, "onnxruntime", ort == null ? List.of()
        : List.of("ai/onnxruntime/native/" + ort + "/" + System.mapLibraryName("onnxruntime"),
            "ai/onnxruntime/native/" + ort + "/" + System.mapLibraryName("onnxruntime4j_jni")));
    if (onnx != null) {
      System.setProperty("onnxruntime.native.path", onnx.toString());
    }
    String sqliteName = sqliteLibraryName();
    Path sqlite = sqliteName == null ? null : copied(cache, "sqlite-jdbc",
        List.of("org/sqlite/native/" + org.sqlite.util.OSInfo.getNativeLibFolderPathForCurrentOS() + "/" + sqliteName));
    if (sqlite != null) {
      System.setProperty("org.sqlite.lib.path", sqlite.toString());
      System.setProperty("org.sqlite.lib.name", sqliteName);
    }
  }

  private static final Object LOADING = new Object();
  private static final List<CountDownLatch> UNDER_WAY = new ArrayList<>();
  private static boolean hooked;

  /**
   * Runs {@code load}, which may make a library copy itself into the temporary folder, such that an
   * exit meanwhile (Ctrl-C, an error on another thread) waits for it to end: the copy is then whole
   * and registered for deletion at exit, which comes after.
   */
  public static <T> T loading(java.util.concurrent.Callable<T> load) throws Exception {
    CountDownLatch done = new CountDownLatch(1);
    synchronized (LOADING) {
      if (exiting) {
        throw new IllegalStateException("the run is stopping: no more native work");
      }
      if (!hooked) {
        hooked = true;
        Runtime.getRuntime().addShutdownHook(new Thread(NativeLibraries::awaitLoads, "native-library-copies"));
      }
      UNDER_WAY.add(done);
    }
    try {
      return load.call();
    } finally {
      done.countDown();
      synchronized (LOADING) {
        UNDER_WAY.remove(done);
      }
    }
  }

  /** Set when the process begins to exit: no native call begins after it. */
  private static boolean exiting;

  /**
   * Lets no native call begin and waits (at most 30 s each) for those under way: before the exit on a
   * signal, since ONNX Runtime's own exit hook frees its environment whatever runs in it, which aborts
   * the JVM (exit 134) when an embedding is under way.
   */
  public static void stopNativeWork() {
    awaitLoads();
  }

  private static void awaitLoads() {
    List<CountDownLatch> all;
    synchronized (LOADING) {
      exiting = true;
      all = List.copyOf(UNDER_WAY);
    }
    for (CountDownLatch done : all) {
      try {
        done.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** ONNX Runtime's folder name for this platform, or null where its jar has none. */
  private static String onnxRuntimeFolder() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    String cpu = arch.equals("amd64") || arch.equals("x86_64") ? "x64" : arch.equals("aarch64") ? "aarch64" : null;
    String system = os.contains("linux") ? "linux" : os.contains("mac") ? "osx" : null;
    return cpu == null || system == null ? null : system + "-" + cpu;
  }

  private static String sqliteLibraryName() {
    try {
      return org.sqlite.util.LibraryLoaderUtil.getNativeLibName();
    } catch (RuntimeException | LinkageError e) {
      return null;
    }
  }

  /**
   * The folder holding the resources, named after the library and their checksums, copied there if
   * absent (each to a file beside it, then moved into place, so that another process never finds
   * half a library); null when a resource is missing or cannot be copied.
   */
  private static Path copied(Path cache, String library, List<String> resources) {
    if (resources.isEmpty()) {
      return null;
    }
    try {
      StringBuilder checksums = new StringBuilder();
      List<URL> urls = new ArrayList<>();
      for (String resource : resources) {
        URL url = NativeLibraries.class.getClassLoader().getResource(resource);
        if (url == null) {
          return null;
        }
        urls.add(url);
        checksums.append(checksum(url));
      }
      Path folder = cache.resolve("native").resolve(library + "-"
          + HexFormat.of().formatHex(CacheFolder.sha256().digest(checksums.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8))).substring(0, 16));
      for (int i = 0; i < resources.size(); i++) {
        Path target = folder.resolve(resources.get(i).substring(resources.get(i).lastIndexOf('/') + 1));
        URLConnection connection = urls.get(i).openConnection();
        long size = connection.getContentLengthLong();
        if (Files.isRegularFile(target) && Files.size(target) == size) {
          continue;
        }
        Files.createDirectories(folder);
        Path temp = Files.createTempFile(folder, target.getFileName().toString(), ".part");
        temp.toFile().deleteOnExit(); // a copy cut short by an exit
        try (InputStream in = connection.getInputStream()) {
          Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
          Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
          Files.deleteIfExists(temp);
        }
      }
      return folder;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** A resource's checksum: its jar entry's CRC and size, else a digest of its bytes. */
  private static String checksum(URL url) throws IOException {
    URLConnection connection = url.openConnection();
    if (connection instanceof JarURLConnection jar) {
      var entry = jar.getJarEntry();
      return entry.getCrc() + ":" + entry.getSize() + ";";
    }
    try (InputStream in = connection.getInputStream()) {
      return HexFormat.of().formatHex(CacheFolder.sha256().digest(in.readAllBytes())) + ";";
    }
  }
}
