package rolepolicy.casebank;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import rolepolicy.cache.CacheFolder;
import rolepolicy.casebank.CaseBank.Meta;
import rolepolicy.casebank.CaseBank.Thresholds;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.InputException;
import rolepolicy.io.OutputGuard;
import rolepolicy.io.OwnedFolder;
import rolepolicy.io.RunTemp;

/**
 * The life cycle of a case bank's folder: built (in a staging folder, moved into place whole, its
 * indexes reused when the questions are the same), checked, opened, calibrated. What an open bank
 * does, retrieval, is {@link CaseBank}'s.
 */
public final class CaseIndex {
  /**
   * The bank's format: 3 since the cases are kept in {@code cases.jsonl} and the indexes hold only what
   * is searched (2: cases carry their REFUSE reason in words and their columns' policies). Change it
   * with what the indexes hold: a rebuild reuses an index of the same format, model and questions.
   */
  static final int FORMAT = 3;
  static final String META = "bank.json";
  /** The cases, one JSON line each, in index order (document n of each index is line n). */
  static final String CASES = "cases.jsonl";
  private static final String COMMAND = "casebank";
  private static final String OPTION = "--bank";
  private static final ObjectMapper JSON = DatasetWriter.JSON;
  private static final String SPECIFIC = CaseBank.SPECIFIC;
  private static final String SKELETON = CaseBank.SKELETON;

  private CaseIndex() {}

  static InputException damaged(Path dir, String why) {
    return new InputException(dir + ": the case bank is damaged (" + why + "); build it again with the casebank command");
  }

  static List<Case> readCases(Path file) throws IOException {
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
}
