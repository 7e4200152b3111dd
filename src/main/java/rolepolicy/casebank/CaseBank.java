package rolepolicy.casebank;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import rolepolicy.cache.CacheFolder;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.RunTemp;
import rolepolicy.io.InputException;
import rolepolicy.spider.Schema;

/**
 * Train questions as few-shot cases in a Lucene index on disk, in two collections: <em>specific</em>
 * (question, database, gold label, policies; searched within one database) and <em>skeleton</em>
 * (masked question, skeleton, operators; nothing that names a database). Questions are found by
 * their all-MiniLM-L6-v2 embeddings in Lucene's HNSW graph, the database filter inside the search.
 * An open bank retrieves; {@link CaseIndex} builds, checks and opens its folder.
 */
public final class CaseBank implements AutoCloseable {
  /** What a retrieval may return. */
  public enum Method {
    /** Skeleton cases only, never a specific one. */
    SKELETON_ONLY,
    /** Same-database specific cases when the best clears its threshold, else skeletons above theirs, else none. */
    TIERED,
    /**
     * The tiers of {@link #TIERED}; the skeleton tier's examples chosen by {@link DraftSelection}: the
     * candidates' skeletons vote on the target's, the examples nearest to it in skeleton come first.
     */
    SKELETON_VOTE
  }

  /** One retrieved case: its type ({@code specific} or {@code skeleton}) and cosine similarity. */
  public record Hit(String type, double cosine, Case kase) {}

  /**
   * A retrieval: the type of its cases ({@code specific}, {@code skeleton} or {@code none}) and why.
   */
  public record Retrieval(String type, List<Hit> hits, String why) {}

  /** Cosine thresholds of the tiers (docs/retrieval.md: how they are calibrated on train). */
  public record Thresholds(double specific, double skeleton) {}

  /**
   * {@code bank.json}: where the cases came from, the thresholds in force, and the format of the
   * bank (a bank of another format is built again, not read).
   */
  public record Meta(String source, int cases, String model, Thresholds thresholds, Integer format,
      @JsonProperty("index_key") String indexKey, @JsonProperty("calibration_key") String calibrationKey,
      Calibration.Result calibration) {}

  /**
   * How many nearest cases say whether a question looks like a REFUSE: when most of them are REFUSE,
   * its examples are taken as retrieved; else REFUSE examples are capped at the bank's REFUSE rate.
   */
  static final int NEIGHBOURS = 5;

  /** How many nearest neighbours the HNSW search looks for before the best k are kept. */
  static final int CANDIDATES = 100;
  private static final ObjectMapper JSON = DatasetWriter.JSON;
  static final String SPECIFIC = "specific";
  static final String SKELETON = "skeleton";

  /** One Lucene index per collection: a skeleton search needs no filter, a database search a small one. */
  private final Collection specificCases;
  private final Collection skeletonCases;
  private final Embedder embedder;
  private final Path dir;
  private final java.util.Map<String, Boolean> databasesWithCases = new java.util.concurrent.ConcurrentHashMap<>();
  Meta meta;
  private final double refuseRate;
  boolean indexReused;
  boolean previousIndexDamaged;

  /** The cases by document number, and as the skeleton collection shows them. */
  private final List<Case> cases;
  private final List<Case> skeletonViews;
  private final java.util.Map<String, Case> byId = new java.util.HashMap<>();

  /** An open index (the index never changes while open). */
  static final class Collection {
    final Directory directory;
    final DirectoryReader reader;
    final IndexSearcher searcher;

    private Collection(Directory directory, DirectoryReader reader) {
      this.directory = directory;
      this.reader = reader;
      this.searcher = new IndexSearcher(reader);
    }

    /** Opens an index that exists (Lucene would make the folder of one that does not: a bank is only read). */
    static Collection open(Path dir) throws IOException {
      if (!Files.isDirectory(dir)) {
        throw new java.nio.file.NoSuchFileException(dir.toString(), null, "the index is missing");
      }
      Directory d = RunTemp.unlessStopping(() -> FSDirectory.open(dir));
      return new Collection(d, DirectoryReader.open(d));
    }

    DirectoryReader reader() {
      return reader;
    }

    IndexSearcher searcher() {
      return searcher;
    }

    void close() throws IOException {
      reader.close();
      directory.close();
    }
  }

  CaseBank(Path dir, Embedder embedder, Meta meta) throws IOException {
    this.dir = dir;
    this.embedder = embedder;
    this.meta = meta;
    if (Files.notExists(dir.resolve(CaseIndex.CASES))) {
      throw CaseIndex.damaged(dir, CaseIndex.CASES + " is missing");
    }
    this.cases = CaseIndex.readCases(dir.resolve(CaseIndex.CASES));
    if (!CaseIndex.indexKey(cases).equals(meta.indexKey())) {
      throw CaseIndex.damaged(dir, CaseIndex.CASES + " is not the file its indexes were built from");
    }
    Path index = dir.resolve("index");
    this.specificCases = Collection.open(index.resolve(SPECIFIC));
    try {
      this.skeletonCases = Collection.open(index.resolve(SKELETON));
    } catch (IOException e) {
      specificCases.close();
      throw e;
    }
    if (cases.size() != specificCases.reader().maxDoc() || cases.size() != skeletonCases.reader().maxDoc()) {
      String counts = CaseIndex.CASES + " holds " + cases.size() + " cases, its indexes " + specificCases.reader().maxDoc() + " and "
          + skeletonCases.reader().maxDoc();
      close();
      throw CaseIndex.damaged(dir, counts);
    }
    this.skeletonViews = cases.stream().map(CaseBank::skeletonOnly).toList();
    cases.forEach(c -> byId.putIfAbsent(c.id(), c)); // the first of an id, as a search by id found it
    this.refuseRate = cases.isEmpty() ? 0 : (double) cases.stream().filter(Case::refuse).count() / cases.size();
  }

  /** Whether {@link CaseIndex#build} copied the indexes of the previous bank instead of writing them. */
  public boolean indexReused() {
    return indexReused;
  }

  /** Whether {@link CaseIndex#build} found the previous bank's indexes damaged when it came to copy them (and wrote new ones). */
  public boolean previousIndexDamaged() {
    return previousIndexDamaged;
  }

  /**
   * SHA-256 of the bank's files: {@code bank.json}, {@code cases.jsonl} and the indexes, each by name and content (a file's
   * digest remembered in {@code cacheFolder} while its size and time stay the same; null: read each time).
   */
  public String digest(Path cacheFolder) {
    var sha = rolepolicy.cache.CacheFolder.sha256();
    try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().equals("write.lock"))
          .sorted().toList()) {
        String entry = dir.relativize(file) + "\0" + rolepolicy.cache.CacheFolder.digest(file, cacheFolder) + "\n";
        sha.update(entry.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new InputException(dir + ": cannot read the case bank (" + InputException.reason(e) + ")", e);
    }
    return java.util.HexFormat.of().formatHex(sha.digest());
  }

  Embedder embedder() {
    return embedder;
  }

  public Meta meta() {
    return meta;
  }

  /** The share of REFUSE cases in the bank. */
  public double refuseRate() {
    return refuseRate;
  }

  /** Up to {@code k} cases for a question of database {@code dbId} (its schema masks the question). */
  public Retrieval retrieve(String question, String dbId, Schema schema, Method method, int k) {
    return retrieve(question, dbId, schema, method, k, Set.of());
  }

  /** As {@link #retrieve}, never returning the cases whose ids are in {@code exclude}. */
  Retrieval retrieve(String question, String dbId, Schema schema, Method method, int k, Set<String> exclude) {
    return tier(question, dbId, schema, method, k, exclude).retrieval();
  }

  /**
   * A retrieval and the candidates of its tier it was chosen from, nearest first: the {@code max(k,
   * }{@value #CANDIDATES}{@code )} nearest same-database cases or skeleton cases (none for {@code none}).
   */
  record Tier(Retrieval retrieval, List<Hit> candidates) {}

  /** {@link #retrieve}, with the candidates its examples were chosen from. */
  Tier tier(String question, String dbId, Schema schema, Method method, int k, Set<String> exclude) {
    Thresholds t = meta.thresholds();
    if (method == Method.TIERED || method == Method.SKELETON_VOTE) {
      // a database without cases needs no embedding of the question (Spider dev: none of its databases is in train)
      List<Hit> same = hasCases(dbId) ? sameDatabase(embedder.embed(question), dbId, Math.max(k, CANDIDATES), exclude) : List.of();
      if (!same.isEmpty() && same.get(0).cosine() >= t.specific()) {
        Selection s = select(same, k, refuseRate);
        return new Tier(new Retrieval(SPECIFIC, s.hits(), String.format(Locale.ROOT,
            "same database: best cosine %.3f >= %.3f", same.get(0).cosine(), t.specific()) + s.why()), same);
      }
      String first = same.isEmpty() ? "no case of " + dbId
          : String.format(Locale.ROOT, "same database: best cosine %.3f < %.3f", same.get(0).cosine(), t.specific());
      List<Hit> skeletons = skeletons(embedder.embed(QuestionMasker.mask(question, schema)), Math.max(k, CANDIDATES), exclude);
      if (!skeletons.isEmpty() && skeletons.get(0).cosine() >= t.skeleton()) {
        Selection s = select(skeletons, k, refuseRate);
        return new Tier(new Retrieval(SKELETON, s.hits(), first + String.format(Locale.ROOT,
            "; skeletons: best cosine %.3f >= %.3f", skeletons.get(0).cosine(), t.skeleton()) + s.why()), skeletons);
      }
      return new Tier(new Retrieval("none", List.of(), first + (skeletons.isEmpty() ? "; no skeleton" : String.format(Locale.ROOT,
          "; skeletons: best cosine %.3f < %.3f", skeletons.get(0).cosine(), t.skeleton()))), List.of());
    }
    List<Hit> skeletons = skeletons(embedder.embed(QuestionMasker.mask(question, schema)), Math.max(k, CANDIDATES), exclude);
    if (skeletons.isEmpty()) {
      return new Tier(new Retrieval("none", List.of(), "no skeleton"), List.of());
    }
    Selection s = select(skeletons, k, refuseRate);
    return new Tier(new Retrieval(SKELETON, s.hits(),
        String.format(Locale.ROOT, "skeletons only: best cosine %.3f", skeletons.get(0).cosine()) + s.why()), skeletons);
  }

  /** The examples chosen among the candidates, and what the REFUSE cap did ("" when nothing). */
  record Selection(List<Hit> hits, String why) {}

  /**
   * The first k candidates, REFUSE ones at most {@code floor(k × the bank's REFUSE rate)} of them
   * (the next compliant candidates take the others' places) unless the question looks like a REFUSE:
   * most of its {@value #NEIGHBOURS} nearest candidates are.
   */
  static Selection select(List<Hit> candidates, int k, double refuseRate) {
    List<Hit> nearest = candidates.subList(0, Math.min(NEIGHBOURS, candidates.size()));
    long nearRefuse = nearest.stream().filter(h -> h.kase().refuse()).count();
    if (2 * nearRefuse > nearest.size()) {
      return new Selection(candidates.subList(0, Math.min(k, candidates.size())), String.format(Locale.ROOT,
          "; looks like a REFUSE (%d of its %d nearest are), REFUSE examples not capped", nearRefuse, nearest.size()));
    }
    int cap = (int) Math.floor(k * refuseRate + 1e-9);
    List<Hit> chosen = new ArrayList<>();
    int refuse = 0;
    int skipped = 0;
    for (Hit h : candidates) {
      if (chosen.size() == k) {
        break;
      }
      if (h.kase().refuse() && refuse == cap) {
        skipped++;
        continue;
      }
      refuse += h.kase().refuse() ? 1 : 0;
      chosen.add(h);
    }
    return new Selection(chosen, skipped == 0 ? "" : String.format(Locale.ROOT,
        "; REFUSE examples capped at %d of %d (the bank's REFUSE rate %.2f), %d passed over", cap, k, refuseRate, skipped));
  }

  /** Whether the bank holds a specific case of the database. */
  private boolean hasCases(String dbId) {
    return databasesWithCases.computeIfAbsent(dbId, db -> {
      try {
        return specificCases.searcher().count(new TermQuery(new Term("db_id", db))) > 0;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /** The nearest specific cases of one database, the filter inside the vector search. */
  List<Hit> sameDatabase(float[] vector, String dbId, int k, Set<String> exclude) {
    BooleanQuery.Builder filter = new BooleanQuery.Builder()
        .add(new TermQuery(new Term("db_id", dbId)), BooleanClause.Occur.FILTER);
    return search(specificCases, vector, filter, k, exclude, SPECIFIC);
  }

  /** The nearest skeleton cases by masked question, any database. */
  List<Hit> skeletons(float[] maskedVector, int k, Set<String> exclude) {
    return search(skeletonCases, maskedVector, new BooleanQuery.Builder(), k, exclude, SKELETON);
  }

  /**
   * The skeleton candidates of a masked question: the {@value #CANDIDATES} nearest by vector and the
   * {@value #CANDIDATES} best by BM25 over the masked questions' words, fused by reciprocal rank.
   */
  List<Hit> fusedSkeletons(String maskedQuestion) {
    return fusedSkeletons(maskedQuestion, skeletons(embedder.embed(maskedQuestion), CANDIDATES, Set.of()));
  }

  /** {@link #fusedSkeletons(String)} given the {@value #CANDIDATES} nearest by vector, already searched. */
  List<Hit> fusedSkeletons(String maskedQuestion, List<Hit> byVector) {
    return fuse(byVector, skeletonsByWords(maskedQuestion, CANDIDATES), CANDIDATES);
  }

  /** The BM25 ranking of the skeleton cases' masked questions, read on the first search by words. */
  private WordRanking words;

  private synchronized WordRanking words() throws IOException {
    if (words == null) {
      words = WordRanking.read(skeletonCases.searcher(), "masked");
    }
    return words;
  }

  /** The skeleton cases by BM25 over the words of their masked questions. */
  List<Hit> skeletonsByWords(String masked, int k) {
    try {
      List<Hit> hits = new ArrayList<>();
      for (ScoreDoc d : words().top(masked, k)) {
        hits.add(new Hit(SKELETON, d.score, skeletonViews.get(d.doc)));
      }
      return hits;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reciprocal rank fusion (constant 60) of two rankings, ties by case id; each hit's score is its
   * fused score scaled so that first in both is 1.
   */
  static List<Hit> fuse(List<Hit> a, List<Hit> b, int k) {
    final class Fused {
      final Hit hit;
      double score;

      Fused(Hit hit) {
        this.hit = hit;
      }
    }
    // sized so that no bucket fills up: the ids "train_0001", … collide often in String's hash
    java.util.Map<String, Fused> byId = new java.util.HashMap<>(4 * (a.size() + b.size()));
    List<Fused> fused = new ArrayList<>();
    for (List<Hit> ranking : List.of(a, b)) {
      for (int i = 0; i < ranking.size(); i++) {
        Hit h = ranking.get(i);
        Fused f = byId.get(h.kase().id());
        if (f == null) {
          f = new Fused(h);
          byId.put(h.kase().id(), f);
          fused.add(f);
        }
        f.score += 1.0 / (61 + i);
      }
    }
    fused.sort((x, y) -> x.score != y.score ? Double.compare(y.score, x.score) : x.hit.kase().id().compareTo(y.hit.kase().id()));
    List<Hit> best = new ArrayList<>(Math.min(k, fused.size()));
    for (int i = 0; i < Math.min(k, fused.size()); i++) {
      Fused f = fused.get(i);
      best.add(new Hit(f.hit.type(), 61 * f.score / 2, f.hit.kase()));
    }
    return best;
  }

  /** The nearest specific cases by plain question, any database (a baseline of the benchmark). */
  List<Hit> anyDatabase(float[] vector, int k, Set<String> exclude) {
    return search(specificCases, vector, new BooleanQuery.Builder(), k, exclude, SPECIFIC);
  }

  /** The case of an id (as a specific case: with its database and SQL), or null when the bank has none. */
  Case caseById(String id) {
    return byId.get(id);
  }

  /** Every case of the bank, in index order. */
  List<Case> cases() {
    return cases;
  }

  private List<Hit> search(Collection in, float[] vector, BooleanQuery.Builder filter, int k, Set<String> exclude, String type) {
    for (String id : exclude) {
      filter.add(new TermQuery(new Term("id", id)), BooleanClause.Occur.MUST_NOT);
    }
    // HNSW is approximate: the graph is searched for more candidates than asked, the best k kept;
    // with nothing to filter, no filter (a filter of every document is the same search, after a pass over them all)
    Query knn = new KnnFloatVectorQuery("vector", vector, Math.max(k, CANDIDATES), filter.build().clauses().isEmpty() ? null
        : filter.add(new MatchAllDocsQuery(), BooleanClause.Occur.MUST).build());
    try {
      List<Hit> hits = new ArrayList<>();
      for (ScoreDoc d : in.searcher().search(knn, k).scoreDocs) {
        hits.add(new Hit(type, 2.0 * d.score - 1.0, (type.equals(SPECIFIC) ? cases : skeletonViews).get(d.doc)));
      }
      return hits;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A skeleton case: what the skeleton collection holds, nothing that names a database. */
  static Case skeletonOnly(Case c) {
    return new Case(c.id(), null, null, c.goldType(), null, c.reason(), null, null, c.maskedQuestion(), c.skeleton(),
        c.opSignature(), c.shapeRefusal(), c.shapePolicies(), null);
  }

  @Override
  public void close() {
    try {
      specificCases.close();
      skeletonCases.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
