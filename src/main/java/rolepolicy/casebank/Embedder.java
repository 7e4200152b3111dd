package rolepolicy.casebank;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sentence embeddings from all-MiniLM-L6-v2 (quantised), in-process and offline: the model is in the
 * jar. Each text is embedded once per process; with a cache folder, once per text and model on this
 * machine ({@link EmbeddingCache}).
 */
public final class Embedder {
  public static final String MODEL = "all-MiniLM-L6-v2 (quantised, langchain4j-embeddings 1.20.0-beta30)";
  public static final int DIMENSION = 384;

  private final EmbeddingModel model = new AllMiniLmL6V2QuantizedEmbeddingModel();
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
      vector = model.embed(text).content().vector(); // outside the map: other threads embed meanwhile
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
    var vectors = model.embedAll(missing.stream().map(TextSegment::from).toList()).content();
    for (int i = 0; i < missing.size(); i++) {
      if (known.putIfAbsent(missing.get(i), vectors.get(i).vector()) == null) {
        computed.incrementAndGet();
      }
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
}
