package rolepolicy.casebank;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;

/** Sentence embeddings from all-MiniLM-L6-v2 (quantised), in-process and offline: the model is in the jar. */
public final class Embedder {
  public static final String MODEL = "all-MiniLM-L6-v2 (quantised, langchain4j-embeddings 1.20.0-beta30)";
  public static final int DIMENSION = 384;

  private final EmbeddingModel model = new AllMiniLmL6V2QuantizedEmbeddingModel();

  public float[] embed(String text) {
    return model.embed(text).content().vector();
  }
}
