package rolepolicy.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunTempTest {
  @TempDir Path dir;

  /** What other tests in this JVM registered, kept out of the way of undoAll here. */
  private java.util.Map<Object, RunTemp.Pending> others;

  @org.junit.jupiter.api.BeforeEach
  void setOthersAside() {
    others = RunTemp.takeAll();
  }

  @org.junit.jupiter.api.AfterEach
  void putOthersBack() {
    RunTemp.restore(others);
  }

  private List<String> names() throws Exception {
    try (var entries = Files.list(dir)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void aFolderLeftByADeadRunIsSweptAndOneOfALiveRunIsNot() throws Exception {
    long dead = ProcessHandle.current().pid() + 1_000_000_000L;
    Path stale = Files.createDirectories(dir.resolve(RunTemp.PREFIX + dead + "-1"));
    Files.writeString(stale.resolve("dev.json123.tmp"), "half");
    Path live = Files.createDirectories(dir.resolve(RunTemp.PREFIX + ProcessHandle.current().pid() + "-2"));
    Files.createDirectories(dir.resolve(RunTemp.PREFIX + "notapid"));
    Files.writeString(dir.resolve("dev.json"), "mine");

    Path made = RunTemp.newFolder(dir);

    assertTrue(Files.notExists(stale));
    assertTrue(Files.isDirectory(live));
    assertEquals(List.of(RunTemp.PREFIX + "notapid", live.getFileName().toString(), made.getFileName().toString(),
        "dev.json").stream().sorted().toList(), names());
  }

  @Test
  void whatIsStillRegisteredAtExitIsUndoneAndSaid() throws Exception {
    Path folder = RunTemp.folderIn(dir, "the test's folder was removed");
    Files.writeString(folder.resolve("x.tmp"), "half");
    Path released = RunTemp.folderIn(dir, "never said");
    RunTemp.release(released);
    assertFalse(Files.exists(released));

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    RunTemp.undoAll(new PrintStream(err, true, StandardCharsets.UTF_8));

    assertFalse(Files.exists(folder));
    assertEquals("rolepolicy: stopped before the end: the test's folder was removed\n", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void registrationsSetAsideAreNeitherUndoneNorSaidUntilPutBack() throws Exception {
    Path kept = RunTemp.folderIn(dir, "the folder set aside was removed");
    var aside = RunTemp.takeAll();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    RunTemp.undoAll(new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals("", err.toString(StandardCharsets.UTF_8));
    assertTrue(Files.isDirectory(kept));

    RunTemp.restore(aside);
    RunTemp.undoAll(new PrintStream(err, true, StandardCharsets.UTF_8));
    assertFalse(Files.exists(kept));
    assertEquals("rolepolicy: stopped before the end: the folder set aside was removed\n", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void anOutputAbandonedAtExitLeavesNoTemporaryFileAndTheEarlierOutput() throws Exception {
    Files.writeString(dir.resolve("dev.json"), "earlier");
    OwnedFolder.recordWritten(List.of(dir.resolve("dev.json"))); // an earlier run's
    AtomicOutput output = new AtomicOutput(dir);
    Files.writeString(output.stage(dir.resolve("dev.json")), "half written");
    Files.writeString(output.stage(dir.resolve("policies/a.json")), "half written");

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    RunTemp.undoAll(new PrintStream(err, true, StandardCharsets.UTF_8));

    assertEquals(List.of(OwnedFolder.MARKER, "dev.json"), names(), "the folder it made for policies/ is removed too");
    assertEquals("earlier", Files.readString(dir.resolve("dev.json")));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("the earlier ones are as they were"), err.toString());
    output.close();
  }

  @Test
  void aCommittedOutputLeavesOnlyItsFiles() throws Exception {
    Files.writeString(dir.resolve("dev.json"), "earlier");
    OwnedFolder.recordWritten(List.of(dir.resolve("dev.json"))); // an earlier run's
    try (AtomicOutput output = new AtomicOutput(dir)) {
      Files.writeString(output.stage(dir.resolve("dev.json")), "new");
      Files.writeString(output.stage(dir.resolve("policies/a.json")), "new");
      output.commit();
    }
    assertEquals(List.of(OwnedFolder.MARKER, "dev.json", "policies"), names());
    assertEquals("new", Files.readString(dir.resolve("dev.json")));
    assertEquals("new", Files.readString(dir.resolve("policies/a.json")));
  }

  @Test
  void aFolderAnotherThreadMakesAgainIsRemovedOnceThatThreadStops() throws Exception {
    Path building = dir.resolve(".bank.building");
    // an index writer that opens its directory again 30 times, 5 ms apart, most of them while the
    // folder is being removed; so only a removal that returned while the writer still ran leaves it
    java.util.concurrent.CountDownLatch made = new java.util.concurrent.CountDownLatch(1);
    Thread writer = new Thread(() -> {
      for (int i = 0; i < 30; i++) {
        try {
          Files.createDirectories(building.resolve("index/specific"));
          made.countDown();
          Thread.sleep(5);
        } catch (Exception e) {
          return;
        }
      }
    });
    writer.start();
    made.await(); // the removal begins once the writer has made the folder
    RunTemp.deleteUntilGone(building);
    writer.join();
    assertFalse(Files.exists(building), "made again after it was removed");
  }

  @Test
  void aStepThatMakesFoldersDoesNotBeginOnceTheRunIsStopping() throws Exception {
    Path made = dir.resolve(".bank.building").resolve("index");
    RunTemp.beginStopping();
    try {
      org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
          () -> RunTemp.unlessStopping(() -> Files.createDirectories(made)));
      // the case bank's build makes its folder through such a step: stopped, it makes nothing
      org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> rolepolicy.casebank.CaseIndex.build(
          List.of(), "test", dir.resolve("bank"), null, new rolepolicy.casebank.CaseBank.Thresholds(0.94, 0.54)));
    } finally {
      RunTemp.resume();
    }
    assertEquals(List.of(), names());
    // not stopping: the step runs, and what it made is returned
    assertEquals(made, RunTemp.unlessStopping(() -> Files.createDirectories(made)));
  }

  @Test
  void theRunStopsOnlyOnceAStepUnderWayIsDone() throws Exception {
    Path made = dir.resolve(".bank.building").resolve("index");
    java.util.concurrent.CountDownLatch begun = new java.util.concurrent.CountDownLatch(1);
    Thread step = new Thread(() -> {
      try {
        RunTemp.unlessStopping(() -> {
          begun.countDown();
          pause(300);
          return Files.createDirectories(made);
        });
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    step.start();
    assertTrue(begun.await(10, java.util.concurrent.TimeUnit.SECONDS));
    try {
      RunTemp.beginStopping(); // waits for the step: what the hook removes after this, no step makes again
      assertTrue(Files.isDirectory(made), "the step under way finished before the run began to stop");
    } finally {
      RunTemp.resume();
    }
    step.join();
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
