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
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
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
import rolepolicy.io.OutputGuard;
import rolepolicy.io.OwnedFolder;
import rolepolicy.io.RunTemp;
import rolepolicy.io.InputException;
import rolepolicy.spider.Schema;

/**
 * Train questions as few-shot cases in a Lucene index on disk, in two collections: <em>specific</em>
 * (question, database, gold label, policies; searched within one database) and <em>skeleton</em>
 * (masked question, skeleton, operators; nothing that names a database). Questions are found by
 * their all-MiniLM-L6-v2 embeddings in Lucene's HNSW graph, the database filter inside the search.
 */
public final class CaseBank implements AutoCloseable {
  /** What a retrieval may return. */
  public enum Policy {
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
   * The bank's format: 3 since the cases are kept in {@code cases.jsonl} and the indexes hold only what
   * is searched (2: cases carry their REFUSE reason in words and their columns' policies). Change it
   * with what the indexes hold: a rebuild reuses an index of the same format, model and questions.
   */
  static final int FORMAT = 3;
  /**
   * How many nearest cases say whether a question looks like a REFUSE: when most of them are REFUSE,
   * its examples are taken as retrieved; else REFUSE examples are capped at the bank's REFUSE rate.
   */
  static final int NEIGHBOURS = 5;

  static final String META = "bank.json";
  /** The cases, one JSON line each, in index order (document n of each index is line n). */
  static final String CASES = "cases.jsonl";
  private static final String COMMAND = "casebank";
  private static final String OPTION = "--bank";
  /** How many nearest neighbours the HNSW search looks for before the best k are kept. */
  static final int CANDIDATES = 100;
  private static final ObjectMapper JSON = DatasetWriter.JSON;
  private static final String SPECIFIC = "specific";
  private static final String SKELETON = "skeleton";

  /** One Lucene index per collection: a skeleton search needs no filter, a database search a small one. */
  private final Collection specificCases;
  private final Collection skeletonCases;
  private final Embedder embedder;
  private final Path dir;
  private final java.util.Map<String, Boolean> databasesWithCases = new java.util.concurrent.ConcurrentHashMap<>();
  private Meta meta;
  private final double refuseRate;
  private boolean indexReused;
  private boolean previousIndexDamaged;

  /** The cases by document number, and as the skeleton collection shows them. */
  private final List<Case> cases;
  private final List<Case> skeletonViews;
  private final java.util.Map<String, Case> byId = new java.util.HashMap<>();

  /** An open index (the index never changes while open). */
  private static final class Collection {
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

  private CaseBank(Path dir, Embedder embedder, Meta meta) throws IOException {
    this.dir = dir;
    this.embedder = embedder;
    this.meta = meta;
    if (Files.notExists(dir.resolve(CASES))) {
      throw damaged(dir, CASES + " is missing");
    }
    this.cases = readCases(dir.resolve(CASES));
    if (!indexKey(cases).equals(meta.indexKey())) {
      throw damaged(dir, CASES + " is not the file its indexes were built from");
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
      String counts = CASES + " holds " + cases.size() + " cases, its indexes " + specificCases.reader().maxDoc() + " and "
          + skeletonCases.reader().maxDoc();
      close();
      throw damaged(dir, counts);
    }
    this.skeletonViews = cases.stream().map(CaseBank::skeletonOnly).toList();
    cases.forEach(c -> byId.putIfAbsent(c.id(), c)); // the first of an id, as a search by id found it
    this.refuseRate = cases.isEmpty() ? 0 : (double) cases.stream().filter(Case::refuse).count() / cases.size();
  }

  private static InputException damaged(Path dir, String why) {
    return new InputException(dir + ": the case bank is damaged (" + why + "); build it again with the casebank command");
  }

  private static List<Case> readCases(Path file) throws IOException {
    List<Case> read = new ArrayList<>();
    try (var lines = Files.newBufferedReader(file, java.nio.charset.StandardCharsets.UTF_8)) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        read.add(JSON.readValue(line, Case.class));
      }
    }
    return List.copyOf(read);
  }

  /**
   * {@link #build} in the {@link #staging} folder of {@code dir}, which is removed if the run stops
   * before {@link #commit} moves it into place: what the {@code casebank} command writes.
   */
  public static CaseBank buildStaged(List<Case> cases, String source, Path dir, Embedder embedder, Thresholds thresholds,
      Path previous) {
    Path staging = staging(dir);
    OwnedFolder.checkReplaceable(staging, COMMAND, OPTION);
    // registered before it is made: an interrupt between the two left it behind
    RunTemp.register(staging, "the unfinished bank in " + staging + " was removed; the bank beside it is as it was");
    return build(cases, source, staging, embedder, thresholds, previous);
  }

  /** Writes a bank of the cases into {@code dir} (replacing a bank there, and nothing else) and opens it. */
  public static CaseBank build(List<Case> cases, String source, Path dir, Embedder embedder, Thresholds thresholds) {
    return build(cases, source, dir, embedder, thresholds, null);
  }

  /**
   * {@link #build}, reusing the indexes of the bank in {@code previous} (null: none) when they were
   * built from the same questions, masked questions, databases and ids, in the same order, with the
   * same model and format: a rebuild after a rule edit, which changes gold labels and policies only,
   * embeds and indexes nothing. The indexes are copied as they are; each is what a new build writes.
   */
  public static CaseBank build(List<Case> cases, String source, Path dir, Embedder embedder, Thresholds thresholds,
      Path previous) {
    try {
      RunTemp.unlessStopping(() -> {
        OwnedFolder.recreate(dir, COMMAND, OPTION);
        return dir;
      });
      Path index = dir.resolve("index");
      String key = indexKey(cases);
      Meta before = previous == null ? null : previousMeta(previous);
      boolean reuse = before != null && key.equals(before.indexKey()) && Files.isDirectory(previous.resolve("index"));
      boolean damagedBefore = false;
      if (reuse) {
        RunTemp.unlessStopping(() -> copyFolder(previous.resolve("index"), index));
        if (!intact(index, cases)) { // a damaged index is built anew, not copied again and again
          OwnedFolder.deleteTree(index); // in the staging folder this build made
          reuse = false;
          damagedBefore = true;
        }
      }
      if (!reuse) {
        if (before != null) { // the texts the bank it replaces embedded are not embedded again
          embedder.learn(vectors(previous));
        }
        writeIndexes(cases, index, embedder);
      }
      try (var out = new java.io.BufferedOutputStream(Files.newOutputStream(dir.resolve(CASES)))) { // the folder is moved into place whole
        for (Case c : cases) {
          out.write(JSON.writeValueAsBytes(c));
          out.write('\n');
        }
      }
      Meta meta = new Meta(source, cases.size(), Embedder.MODEL, thresholds, FORMAT, key, null, null);
      DatasetWriter.write(dir.resolve(META), meta);
      CaseBank bank = new CaseBank(dir, embedder, meta);
      bank.indexReused = reuse;
      bank.previousIndexDamaged = damagedBefore;
      return bank;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether {@link #build} copied the indexes of the previous bank instead of writing them. */
  public boolean indexReused() {
    return indexReused;
  }

  /** Whether {@link #build} found the previous bank's indexes damaged when it came to copy them (and wrote new ones). */
  public boolean previousIndexDamaged() {
    return previousIndexDamaged;
  }

  /**
   * SHA-256 of what the indexes are built from: the format, Lucene's version, the model, and each
   * case's id, database, question and masked question, in order.
   */
  static String indexKey(List<Case> cases) {
    var sha = CacheFolder.sha256();
    sha.update((FORMAT + "\n" + org.apache.lucene.util.Version.LATEST + "\n" + Embedder.MODEL + "\n")
        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    for (Case c : cases) {
      sha.update(String.join("\0", c.id(), c.dbId(), c.question(), c.maskedQuestion(), "\n")
          .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    return java.util.HexFormat.of().formatHex(sha.digest());
  }

  /**
   * The embeddings a bank in {@code dir} holds, by text: each case's question with its vector in the
   * specific index, its masked question with its vector in the skeleton index. Empty when there is no
   * intact bank of this format and model to read: the vectors are a help, never needed.
   */
  public static java.util.Map<String, float[]> vectors(Path dir) {
    java.util.Map<String, float[]> vectors = new java.util.HashMap<>();
    Meta meta = previousMeta(dir);
    if (meta == null || !Embedder.MODEL.equals(meta.model())) {
      return vectors;
    }
    try {
      List<Case> cases = readCases(dir.resolve(CASES));
      if (!indexKey(cases).equals(meta.indexKey()) || !intact(dir.resolve("index"), cases)) {
        return vectors;
      }
      for (String collection : List.of(SPECIFIC, SKELETON)) {
        if (!Files.isDirectory(dir.resolve("index").resolve(collection))) {
          return vectors;
        }
        try (Directory d = FSDirectory.open(dir.resolve("index").resolve(collection));
            DirectoryReader reader = DirectoryReader.open(d)) {
          for (var leaf : reader.leaves()) {
            var values = leaf.reader().getFloatVectorValues("vector");
            for (int doc = values.nextDoc(); doc != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS;
                doc = values.nextDoc()) {
              Case c = cases.get(leaf.docBase + doc);
              vectors.putIfAbsent(collection.equals(SPECIFIC) ? c.question() : c.maskedQuestion(), values.vectorValue().clone());
            }
          }
        }
      }
      return vectors;
    } catch (IOException | RuntimeException e) {
      return new java.util.HashMap<>();
    }
  }

  /** The {@code bank.json} of a bank of this format in {@code dir}, or null when there is none to read. */
  public static Meta previousMeta(Path dir) {
    try {
      Meta meta = JSON.readValue(dir.resolve(META).toFile(), Meta.class);
      return meta.format() != null && meta.format() == FORMAT ? meta : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Whether both copied indexes are whole — every file's checksum right — and hold the cases'
   * documents: as many, each with its case's id, in order.
   */
  private static boolean intact(Path index, List<Case> cases) {
    for (String collection : List.of(SPECIFIC, SKELETON)) {
      if (!Files.isDirectory(index.resolve(collection))) {
        return false;
      }
      try (Directory d = RunTemp.unlessStopping(() -> FSDirectory.open(index.resolve(collection)))) {
        for (String file : d.listAll()) {
          if (!file.equals(IndexWriter.WRITE_LOCK_NAME)) {
            try (org.apache.lucene.store.IndexInput in = d.openInput(file, org.apache.lucene.store.IOContext.READONCE)) {
              org.apache.lucene.codecs.CodecUtil.checksumEntireFile(in);
            }
          }
        }
        try (DirectoryReader reader = DirectoryReader.open(d)) {
          if (reader.maxDoc() != cases.size()) {
            return false;
          }
          var fields = reader.storedFields();
          for (int doc = 0; doc < cases.size(); doc++) {
            if (!cases.get(doc).id().equals(fields.document(doc, Set.of("id")).get("id"))) {
              return false;
            }
          }
        }
      } catch (IOException | RuntimeException e) {
        return false;
      }
    }
    return true;
  }

  private static Path copyFolder(Path from, Path to) throws IOException {
    try (java.util.stream.Stream<Path> files = Files.walk(from)) {
      for (Path f : files.sorted().toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
    return to;
  }

  private static void writeIndexes(List<Case> cases, Path index, Embedder embedder) throws IOException {
    // opened unless the run is stopping: each makes its folder, and the staging folder, again if gone
    try (Directory specificDir = RunTemp.unlessStopping(() -> FSDirectory.open(index.resolve(SPECIFIC)));
        Directory skeletonDir = RunTemp.unlessStopping(() -> FSDirectory.open(index.resolve(SKELETON)));
        IndexWriter specificWriter = RunTemp.unlessStopping(() -> new IndexWriter(specificDir, config()));
        IndexWriter skeletonWriter = RunTemp.unlessStopping(() -> new IndexWriter(skeletonDir, config()))) {
      List<String> texts = new ArrayList<>(2 * cases.size());
      cases.forEach(c -> texts.addAll(List.of(c.question(), c.maskedQuestion())));
      embedder.embedAll(texts);
      // each index is written by one thread in case order (its HNSW graph the same on every build), the two at once
      var skeletons = java.util.concurrent.CompletableFuture.runAsync(() -> {
        try {
          for (Case c : cases) {
            skeletonWriter.addDocument(skeleton(c, embedder.embed(c.maskedQuestion())));
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      for (Case c : cases) {
        specificWriter.addDocument(specific(c, embedder.embed(c.question())));
      }
      try {
        skeletons.join();
      } catch (java.util.concurrent.CompletionException e) {
        throw e.getCause() instanceof UncheckedIOException u ? u.getCause() : new IOException(e.getCause());
      }
    }
  }

  /**
   * One segment, flushed once at the end and never merged: the HNSW graph is built in case order,
   * the same on every build.
   */
  private static IndexWriterConfig config() {
    return new IndexWriterConfig(WordRanking.ANALYZER).setOpenMode(IndexWriterConfig.OpenMode.CREATE).setRAMBufferSizeMB(1024)
        .setMergeScheduler(new SerialMergeScheduler());
  }

  /** The folder a bank is built in before {@link #commit} moves it to {@code dir}. */
  public static Path staging(Path dir) {
    Path absolute = dir.toAbsolutePath().normalize();
    return absolute.resolveSibling("." + absolute.getFileName() + ".building");
  }

  /**
   * Fails, before any work, unless the bank folder and its staging folder are absent, empty, or
   * banks: a folder that {@code casebank} did not write is never replaced.
   */
  public static void checkReplaceable(Path dir) {
    OutputGuard.current().checkFolder(dir);
    OwnedFolder.checkReplaceable(dir, COMMAND, OPTION);
    OwnedFolder.checkReplaceable(staging(dir), COMMAND, OPTION);
    Path parent = dir.toAbsolutePath().normalize().getParent();
    try { // the bank is built beside it: a folder that takes no new file is named now, as the user gave it
      Files.createDirectories(parent);
      Files.delete(Files.createTempFile(parent, ".rolepolicy-probe-", ".tmp"));
    } catch (IOException e) {
      throw new InputException(OPTION + " " + dir + ": cannot write the folder (" + InputException.reason(e) + ")", e);
    }
  }

  /**
   * Moves a bank built (and closed) in {@link #staging} to {@code dir}, replacing the bank there only
   * once the new one is complete.
   */
  public static void commit(Path dir) {
    Path absolute = dir.toAbsolutePath().normalize();
    Path old = absolute.resolveSibling("." + absolute.getFileName() + ".previous");
    OwnedFolder.delete(old, COMMAND, OPTION);
    OwnedFolder.checkReplaceable(absolute, COMMAND, OPTION);
    try {
      if (Files.exists(absolute)) {
        Files.move(absolute, old);
      }
      Files.move(staging(dir), absolute);
      RunTemp.forget(staging(dir));
    } catch (IOException e) {
      throw new InputException(dir + ": cannot put the new bank in place (" + InputException.reason(e) + ")", e);
    }
    OwnedFolder.delete(old, COMMAND, OPTION);
  }

  public static CaseBank open(Path dir, Embedder embedder) {
    Path metaFile = dir.resolve(META);
    if (!Files.isRegularFile(metaFile)) {
      throw new InputException(dir + ": no case bank here (" + META + " not found); build one with: casebank --dataset "
          + "data/train.json --bank " + dir + " (a generated train split: generate --spider ../shared/spider --splits train)");
    }
    try {
      Meta meta = JSON.readValue(metaFile.toFile(), Meta.class);
      if (meta.format() == null || meta.format() != FORMAT) {
        throw new InputException(dir + ": a case bank of an earlier format (" + META + " has "
            + (meta.format() == null ? "no format" : "format " + meta.format()) + ", this version reads " + FORMAT
            + "); build it again with the casebank command");
      }
      return new CaseBank(dir, embedder, meta);
    } catch (IOException e) {
      throw new InputException(dir + ": cannot read the case bank (" + e.getMessage() + "); build it again with the casebank command", e);
    }
  }

  /** Puts a calibration's thresholds in force and writes it, with its key, to the bank's {@code bank.json}. */
  public static void writeCalibration(Path dir, CaseBank bank, String key, Calibration.Result calibration) {
    bank.meta = new Meta(bank.meta.source(), bank.meta.cases(), bank.meta.model(), calibration.thresholds(), FORMAT,
        bank.meta.indexKey(), key, calibration);
    DatasetWriter.write(dir.resolve(META), bank.meta);
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
  public Retrieval retrieve(String question, String dbId, Schema schema, Policy policy, int k) {
    return retrieve(question, dbId, schema, policy, k, Set.of());
  }

  /** As {@link #retrieve}, never returning the cases whose ids are in {@code exclude}. */
  Retrieval retrieve(String question, String dbId, Schema schema, Policy policy, int k, Set<String> exclude) {
    return tier(question, dbId, schema, policy, k, exclude).retrieval();
  }

  /**
   * A retrieval and the candidates of its tier it was chosen from, nearest first: the {@code max(k,
   * }{@value #CANDIDATES}{@code )} nearest same-database cases or skeleton cases (none for {@code none}).
   */
  record Tier(Retrieval retrieval, List<Hit> candidates) {}

  /** {@link #retrieve}, with the candidates its examples were chosen from. */
  Tier tier(String question, String dbId, Schema schema, Policy policy, int k, Set<String> exclude) {
    Thresholds t = meta.thresholds();
    if (policy == Policy.TIERED || policy == Policy.SKELETON_VOTE) {
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

  private static Document specific(Case c, float[] vector) throws IOException {
    Document doc = new Document();
    doc.add(new StringField("id", c.id(), Field.Store.YES));
    doc.add(new StringField("db_id", c.dbId(), Field.Store.NO));
    doc.add(new TextField("question", c.question(), Field.Store.NO));
    doc.add(new KnnFloatVectorField("vector", vector, VectorSimilarityFunction.COSINE));
    return doc;
  }

  private static Document skeleton(Case c, float[] vector) throws IOException {
    Document doc = new Document();
    doc.add(new StringField("id", c.id(), Field.Store.YES));
    doc.add(new TextField("masked", c.maskedQuestion(), Field.Store.NO));
    doc.add(new KnnFloatVectorField("vector", vector, VectorSimilarityFunction.COSINE));
    return doc;
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
