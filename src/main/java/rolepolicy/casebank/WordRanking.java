package rolepolicy.casebank;

import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.LongHeap;

/**
 * The BM25 ranking of one text field of a small index for the words of a text: what Lucene's search
 * of the text's words as a boolean query of SHOULD clauses gives (the same documents, scores and
 * order), scored with the searcher's own similarity on the field's postings read into memory once.
 * Lucene's MaxScore search is built for large indexes; over a bank's 7,000 short masked questions,
 * most of them holding "mask", "the" and "of", a pass over every posting is 4× faster
 * (docs/benchmark.md, "run's overhead").
 */
final class WordRanking {
  /** The analyser of the bank's indexes (IndexWriterConfig's default) and of the queries. */
  static final Analyzer ANALYZER = new StandardAnalyzer();

  /**
   * A word's postings: its documents, and for each the index of its (frequency, norm) pair among the
   * word's distinct pairs, scored once per query.
   */
  private record Postings(TermStatistics stats, int[] docs, int[] pair, int[] pairFreq, long[] pairNorm) {}

  private final String field;
  private final Similarity similarity;
  private final CollectionStatistics collection;
  private final Map<String, Postings> words;
  private final int maxDoc;

  /** A thread's arrays over the documents, left zeroed after each use. */
  private static final class Scratch {
    final double[] score;
    final boolean[] matched;

    Scratch(int maxDoc) {
      score = new double[maxDoc];
      matched = new boolean[maxDoc];
    }
  }

  private final ThreadLocal<Scratch> scratch;

  private WordRanking(String field, Similarity similarity, CollectionStatistics collection, Map<String, Postings> words,
      int maxDoc) {
    this.field = field;
    this.similarity = similarity;
    this.collection = collection;
    this.words = words;
    this.maxDoc = maxDoc;
    this.scratch = ThreadLocal.withInitial(() -> new Scratch(maxDoc));
  }

  /**
   * Reads the field's postings and norms from the searcher's index, which is one segment as a bank's
   * is (a word's statistics are then the segment's) and has no deleted document.
   */
  static WordRanking read(IndexSearcher searcher, String field) throws IOException {
    IndexReader reader = searcher.getIndexReader();
    if (reader.leaves().size() > 1 || reader.hasDeletions()) {
      throw new IllegalStateException("a case bank's index is one segment without deletions; this one has "
          + reader.leaves().size() + " segments and " + reader.numDeletedDocs() + " deleted documents");
    }
    Map<String, Postings> words = new HashMap<>();
    Terms terms = reader.leaves().isEmpty() ? null : reader.leaves().get(0).reader().terms(field);
    CollectionStatistics collection = searcher.collectionStatistics(field);
    if (terms == null || collection == null) {
      return new WordRanking(field, searcher.getSimilarity(), collection, words, reader.maxDoc());
    }
    LeafReader leaf = reader.leaves().get(0).reader();
    long[] norms = new long[leaf.maxDoc()];
    NumericDocValues nv = leaf.getNormValues(field);
    for (int d = nv.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = nv.nextDoc()) {
      norms[d] = nv.longValue();
    }
    TermsEnum te = terms.iterator();
    PostingsEnum pe = null;
    for (BytesRef word = te.next(); word != null; word = te.next()) {
      pe = te.postings(pe, PostingsEnum.FREQS);
      int[] docs = new int[te.docFreq()];
      int[] pair = new int[te.docFreq()];
      Map<Long, Integer> pairs = new LinkedHashMap<>();
      int n = 0;
      for (int d = pe.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = pe.nextDoc()) {
        docs[n] = d;
        long key = ((long) pe.freq() << 8) | (norms[d] & 0xFF);
        pair[n++] = pairs.computeIfAbsent(key, k -> pairs.size());
      }
      int[] pairFreq = new int[pairs.size()];
      long[] pairNorm = new long[pairs.size()];
      pairs.forEach((key, i) -> {
        pairFreq[i] = (int) (key >>> 8);
        pairNorm[i] = (byte) (key & 0xFF);
      });
      words.put(word.utf8ToString(), new Postings(new TermStatistics(BytesRef.deepCopyOf(word), te.docFreq(),
          te.totalTermFreq()), docs, pair, pairFreq, pairNorm));
    }
    return new WordRanking(field, searcher.getSimilarity(), collection, words, reader.maxDoc());
  }

  /**
   * The best k documents for the words of the text, best first, ties by document number; each word
   * counted once with its number of occurrences as its boost, as Lucene rewrites repeated clauses.
   */
  ScoreDoc[] top(String text, int k) throws IOException {
    if (k <= 0) {
      return new ScoreDoc[0];
    }
    Map<String, Integer> count = new HashMap<>();
    try (TokenStream ts = ANALYZER.tokenStream(field, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        count.merge(term.toString(), 1, Integer::sum);
      }
      ts.end();
    }
    Scratch work = scratch.get();
    double[] score = work.score;
    boolean[] matched = work.matched;
    try {
      // the sum of a document's word scores in double is exact, so the order of the words does not matter
      for (Map.Entry<String, Integer> word : count.entrySet()) {
        Postings p = words.get(word.getKey());
        if (p == null) {
          continue;
        }
        Similarity.SimScorer scorer = similarity.scorer(word.getValue(), collection, p.stats());
        double[] byPair = new double[p.pairFreq().length];
        for (int i = 0; i < byPair.length; i++) {
          byPair[i] = scorer.score(p.pairFreq()[i], p.pairNorm()[i]);
        }
        int[] postings = p.docs();
        int[] pair = p.pair();
        for (int i = 0; i < postings.length; i++) {
          score[postings[i]] += byPair[pair[i]];
          matched[postings[i]] = true;
        }
      }
      // the best k, best first, ties by document number, as Lucene's top-score collector keeps them:
      // a heap of keys that order as (score, -document) do (a score is never negative)
      LongHeap best = new LongHeap(k);
      for (int d = 0; d < maxDoc; d++) {
        if (matched[d]) {
          best.insertWithOverflow((long) Float.floatToIntBits((float) score[d]) << 32 | (Integer.MAX_VALUE - d));
        }
      }
      ScoreDoc[] top = new ScoreDoc[best.size()];
      for (int i = top.length - 1; i >= 0; i--) {
        long key = best.pop();
        top[i] = new ScoreDoc(Integer.MAX_VALUE - (int) key, Float.intBitsToFloat((int) (key >>> 32)));
      }
      return top;
    } finally {
      java.util.Arrays.fill(score, 0);
      java.util.Arrays.fill(matched, false);
    }
  }
}
