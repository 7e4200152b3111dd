package rolepolicy.casebank;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import rolepolicy.generate.SpiderRun;

/** The embedder's own session (one thread a run) gives, bit for bit, the vectors of langchain4j's model. */
class EmbedderTest {
  @Test
  void everyVectorIsTheOneLangchain4jsOwnModelGives() throws Exception {
    List<String> texts = new ArrayList<>();
    JsonNode dev = SpiderRun.records("dev", "dev.json");
    for (int i = 0; i < dev.size(); i += 5) {
      texts.add(dev.get(i).get("question").asText());
    }
    texts.add("What is the <mask> of <mask>?");
    Embedder embedder = new Embedder();
    embedder.embedAll(texts); // in a batch, on every core
    assertEquals(texts.size(), embedder.computed());
    AllMiniLmL6V2QuantizedEmbeddingModel reference = new AllMiniLmL6V2QuantizedEmbeddingModel();
    for (String text : texts) {
      assertArrayEquals(reference.embed(text).content().vector(), embedder.embed(text), text);
    }
    assertEquals(Embedder.DIMENSION, embedder.embed(texts.get(0)).length);
  }
}
