package rolepolicy.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetWriterTest {
  @TempDir Path dir;

  private static String write(Path file) throws Exception {
    try (JsonGenerator out = DatasetWriter.arrayWriter(file)) {
      for (int i = 0; i < 2000; i++) {
        out.writeObject(Map.of("id", i, "nested", Map.of("list", List.of(Map.of("a", 1), Map.of("b", 2)))));
      }
      out.writeEndArray();
    }
    return Files.readString(file);
  }

  @Test
  void twoFilesWrittenAtOnceAreIndentedAsOneWrittenAlone() throws Exception {
    String alone = write(dir.resolve("alone.json"));
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 5; round++) {
        Path a = dir.resolve("a" + round + ".json");
        Path b = dir.resolve("b" + round + ".json");
        Future<String> first = threads.submit(() -> write(a));
        Future<String> second = threads.submit(() -> write(b));
        assertEquals(alone, first.get());
        assertEquals(alone, second.get());
      }
    } finally {
      threads.shutdownNow();
    }
  }
}
