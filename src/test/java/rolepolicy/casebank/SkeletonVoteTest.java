package rolepolicy.casebank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.spider.Schema;

/** The skeleton vote, the fusion of BM25 and vector rankings, and the linking of values to cells. */
class SkeletonVoteTest {
  private static final String COUNT = "select count ( _ ) from _";
  private static final String GROUP = "select _ , avg ( _ ) from _ group by _ having _ order by _ desc limit _";

  private static CaseBank.Hit hit(String id, double cosine) {
    Case c = new Case(id, null, null, "SQL", null, null, null, null, "q", "s", null, null, null, null);
    return new CaseBank.Hit("skeleton", cosine, c);
  }

  @Test
  void theVotePicksTheSkeletonMostNeighboursShare() {
    // the nearest neighbour alone has GROUP; three slightly farther ones agree on COUNT
    List<CaseBank.Hit> hits = List.of(hit("a", 0.9), hit("b", 0.8), hit("c", 0.8), hit("d", 0.8));
    Map<String, String> skeletons = Map.of("a", GROUP, "b", COUNT, "c", COUNT, "d", COUNT);
    assertEquals(COUNT, DraftSelection.medoid(hits, 10, 1, skeletons::get));
    // only the first voters count
    assertEquals(GROUP, DraftSelection.medoid(hits, 1, 1, skeletons::get));
  }

  @Test
  void aTiedVoteGoesToTheSkeletonOfTheSmallestCaseId() {
    Map<String, String> skeletons = Map.of("train_0002", GROUP, "train_0001", COUNT);
    List<CaseBank.Hit> hits = List.of(hit("train_0002", 0.8), hit("train_0001", 0.8));
    assertEquals(COUNT, DraftSelection.medoid(hits, 10, 4, skeletons::get));
    assertEquals(COUNT, DraftSelection.medoid(List.of(hits.get(1), hits.get(0)), 10, 4, skeletons::get));
  }

  @Test
  void fusionRanksByBothListsAndBreaksTiesByCaseId() {
    List<CaseBank.Hit> vector = List.of(hit("y", 0.9), hit("x", 0.8), hit("z", 0.7));
    List<CaseBank.Hit> words = List.of(hit("x", 5), hit("y", 4), hit("w", 3));
    List<String> fused = CaseBank.fuse(vector, words, 10).stream().map(h -> h.kase().id()).toList();
    // x and y share ranks 1 and 2, tied: x first by id; z and w share rank 3, tied: w first
    assertEquals(List.of("x", "y", "w", "z"), fused);
    assertEquals(1.0, CaseBank.fuse(vector, vector, 1).get(0).cosine(), 1e-9);
  }

  @Test
  void aQuestionsWordsThatAreCellValuesOfItsDatabaseAreMaskedAsValues() {
    Schema schema = TestData.schemas().get("concert_singer");
    ValueLinker linker = new ValueLinker(Path.of("../shared/spider/database"));
    String question = "What is the average age of singers from France?";
    List<String> linked = linker.linked(question, "concert_singer", schema);
    assertTrue(linked.contains("france"), linked.toString());
    assertEquals("What is the <mask> <mask> of <mask> from <unk>?", QuestionMasker.mask(question, schema, linked));
    assertEquals("What is the <mask> <mask> of <mask> from France?", QuestionMasker.mask(question, schema));
  }

  @Test
  void aMissingDatabaseFolderIsAClearError() {
    var e = org.junit.jupiter.api.Assertions.assertThrows(rolepolicy.io.InputException.class,
        () -> new ValueLinker(Path.of("no/such/folder")));
    assertEquals("no/such/folder: database folder not found (--db)", e.getMessage());
  }
}
