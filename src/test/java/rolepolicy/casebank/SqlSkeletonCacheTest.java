package rolepolicy.casebank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.skeleton.Skeleton;
import rolepolicy.skeleton.Skeletonizer;

/** The skeletons of the cases' SQL kept on disk by text: read back as written; a damaged file is no cache. */
class SqlSkeletonCacheTest {
  @TempDir Path dir;

  private static final List<String> SQL = List.of(
      "SELECT count(*) FROM head WHERE age > 56",
      "SELECT T1.name FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.singer_id WHERE T2.year = '2014'",
      "SELECT nonsense FROM");

  @Test
  void theSkeletonsWrittenAreReadBackAsTheSkeletonizerMadeThem() throws Exception {
    Skeletonizer skeletonizer = new Skeletonizer();
    Map<String, Skeleton> made = new java.util.HashMap<>();
    SQL.forEach(sql -> made.put(sql, skeletonizer.skeletonize(sql)));
    SqlSkeletonCache cache = new SqlSkeletonCache(dir);
    assertEquals(Map.of(), cache.read());
    cache.write(made);
    Map<String, Skeleton> read = new SqlSkeletonCache(dir).read();
    assertEquals(made, read);
    assertTrue(read.get("SELECT nonsense FROM").failed());
    assertEquals(made.get(SQL.get(1)).columns(), read.get(SQL.get(1)).columns());
    assertEquals(List.copyOf(made.get(SQL.get(1)).columns().keySet()), List.copyOf(read.get(SQL.get(1)).columns().keySet()));
  }

  @Test
  void aFileThatCannotBeReadIsNoCacheAndIsWrittenAgain() throws Exception {
    SqlSkeletonCache cache = new SqlSkeletonCache(dir);
    cache.write(Map.of(SQL.get(0), new Skeletonizer().skeletonize(SQL.get(0))));
    Path file;
    try (var files = Files.list(dir)) {
      file = files.filter(f -> f.getFileName().toString().startsWith("sql-skeletons-")).findFirst().orElseThrow();
    }
    Files.writeString(file, "{\"sql\": \"SELECT 1\", \"skeleton\": ");
    SqlSkeletonCache again = new SqlSkeletonCache(dir);
    assertEquals(Map.of(), again.read());
    again.write(Map.of(SQL.get(0), new Skeletonizer().skeletonize(SQL.get(0))));
    assertEquals(1, new SqlSkeletonCache(dir).read().size());
  }
}
