package rolepolicy.casebank;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Embeddings kept on disk by text and model: a second embedder embeds only what the first did not. */
class EmbeddingCacheTest {
  @TempDir Path cache;

  private static final List<String> TEXTS = List.of("How many singers are there?", "What is the <mask> of <mask>?",
      "Show the name of every stadium.");

  @Test
  void aSecondEmbedderReadsTheVectorsFromTheCacheAndEmbedsOnlyNewTexts() {
    Embedder first = new Embedder(cache);
    first.embedAll(TEXTS);
    assertEquals(3, first.computed());
    assertEquals(3, first.save());
    assertEquals(0, first.save(), "nothing new: the file is left as it is");

    Embedder second = new Embedder(cache);
    assertEquals(3, second.cached());
    for (String text : TEXTS) {
      assertArrayEquals(first.embed(text), second.embed(text), text);
    }
    second.embedAll(List.of(TEXTS.get(0), "A question the first never saw?"));
    assertEquals(1, second.computed());
    assertEquals(1, second.save());
    assertEquals(4, new Embedder(cache).cached(), "the file keeps the old texts and the new one");
  }

  @Test
  void theCacheGivesTheVectorsTheModelGives() {
    Embedder cached = new Embedder(cache);
    cached.embedAll(TEXTS);
    cached.save();
    Embedder plain = new Embedder();
    Embedder reread = new Embedder(cache);
    for (String text : TEXTS) {
      assertArrayEquals(plain.embed(text), reread.embed(text), text);
    }
    assertEquals(0, reread.computed());
  }

  @Test
  void anUnreadableOrAnotherModelsFileIsNoCache() throws Exception {
    Embedder first = new Embedder(cache);
    first.embed(TEXTS.get(0));
    first.save();
    Path file = new EmbeddingCache(cache, Embedder.MODEL).file();
    assertTrue(Files.isRegularFile(file), file.toString());
    assertEquals(0, new EmbeddingCache(cache, "another model").read().size(), "another model's name: another file");

    Files.write(file, new byte[] {0, 3, 'x', 'y'});
    Embedder afterDamage = new Embedder(cache);
    assertEquals(0, afterDamage.cached());
    afterDamage.embed(TEXTS.get(0));
    assertEquals(1, afterDamage.computed());
    assertEquals(1, afterDamage.save(), "the damaged file is written again");
    assertEquals(1, new Embedder(cache).cached());
  }

  @Test
  void withoutAFolderNothingIsWritten() throws Exception {
    Embedder none = new Embedder(null);
    none.embed(TEXTS.get(0));
    assertEquals(0, none.save());
    try (var files = Files.list(cache)) {
      assertEquals(0, files.count());
    }
  }

  @Test
  void pastItsLimitTheCacheKeepsTheTextsThisBuildAskedFor() {
    float[] vector = new float[Embedder.DIMENSION];
    EmbeddingCache cache3 = new EmbeddingCache(cache, "a model", 3);
    cache3.read();
    assertEquals(3, cache3.write(java.util.Map.of("a", vector, "b", vector, "c", vector), java.util.Set.of("a", "b", "c")));
    EmbeddingCache again = new EmbeddingCache(cache, "a model", 3);
    java.util.Map<String, float[]> known = new java.util.HashMap<>(again.read());
    assertEquals(3, known.size());
    known.put("d", vector);
    assertEquals(1, again.write(known, java.util.Set.of("b", "d")));
    assertEquals(java.util.Set.of("b", "d"), new EmbeddingCache(cache, "a model", 3).read().keySet());
  }
}
