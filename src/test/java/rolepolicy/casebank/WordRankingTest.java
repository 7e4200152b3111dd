package rolepolicy.casebank;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.QueryBuilder;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;

/** The in-memory BM25 ranking gives what Lucene's search of the same words gives, on Spider's masked questions. */
class WordRankingTest {
  /** The masked questions of a Spider file, in order. */
  private static List<String> masked(String file) throws Exception {
    List<String> out = new ArrayList<>();
    for (JsonNode q : new ObjectMapper().readTree(TestData.spiderDir().resolve(file).toFile())) {
      out.add(QuestionMasker.mask(q.get("question").asText(), TestData.schemas().get(q.get("db_id").asText())));
    }
    return out;
  }

  /** A one-segment index of the texts in field "masked", written as a bank's skeleton index is. */
  private static DirectoryReader index(List<String> texts) throws Exception {
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(WordRanking.ANALYZER).setRAMBufferSizeMB(1024))) {
      for (String t : texts) {
        Document d = new Document();
        d.add(new TextField("masked", t, Field.Store.NO));
        w.addDocument(d);
      }
    }
    return DirectoryReader.open(dir);
  }

  private static String describe(ScoreDoc[] docs) {
    StringBuilder s = new StringBuilder();
    for (ScoreDoc d : docs) {
      s.append(d.doc).append(':').append(d.score).append(' ');
    }
    return s.toString();
  }

  @Test
  void theRankingOfEveryDevQuestionAndEveryFifthTrainQuestionIsLucenesOwn() throws Exception {
    List<String> train = masked("train_spider.json");
    List<String> queries = new ArrayList<>(masked("dev.json"));
    for (int i = 0; i < train.size(); i += 5) {
      queries.add(train.get(i));
    }
    queries.add("zzz qqq"); // no word of the index
    queries.add("<mask> <mask> <mask> of the <mask>"); // repeated words
    try (DirectoryReader reader = index(train)) {
      IndexSearcher searcher = new IndexSearcher(reader);
      WordRanking ranking = WordRanking.read(searcher, "masked");
      QueryBuilder words = new QueryBuilder(WordRanking.ANALYZER);
      int tiedAtTheCut = 0;
      for (String q : queries) {
        Query query = words.createBooleanQuery("masked", q);
        ScoreDoc[] lucene = query == null ? new ScoreDoc[0]
            : searcher.search(query, new TopScoreDocCollectorManager(100, null, 100)).scoreDocs;
        ScoreDoc[] ours = ranking.top(q, 100);
        assertEquals(describe(lucene), describe(ours), q);
        if (lucene.length == 100 && lucene[99].score == lucene[98].score) {
          tiedAtTheCut++;
        }
      }
      // the check covers ties: where they fall at the 100th place, the smaller document numbers are kept
      assertTrue(tiedAtTheCut > 50, tiedAtTheCut + " queries tied at the cut");
      assertEquals(0, ranking.top("zzz qqq", 100).length);
      assertEquals(0, ranking.top("the", 0).length);
    }
  }

  @Test
  void equalScoresRankByDocumentNumber() throws Exception {
    try (DirectoryReader reader = index(List.of("name of the singer", "age of the singer", "name of the singer"))) {
      ScoreDoc[] top = WordRanking.read(new IndexSearcher(reader), "masked").top("name singer", 3);
      assertArrayEquals(new int[] {0, 2, 1}, java.util.Arrays.stream(top).mapToInt(d -> d.doc).toArray());
      assertEquals(top[0].score, top[1].score);
      assertTrue(top[1].score > top[2].score);
      assertEquals(2, WordRanking.read(new IndexSearcher(reader), "masked").top("name singer", 2).length);
    }
  }
}
