package dev.travertine.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing a database (the end of a load, a server's SIGTERM) does not wait for background merges:
 * a running merge gives up at its next block, leaves no file behind, loses no row, and the same
 * merge runs again at the next open.
 */
class MergeCancellationTest {
  @TempDir Path dir;

  @Test
  void closeCancelsARunningMergeWhichResumesAtTheNextOpen() throws Exception {
    int parts = 4;
    int rowsPerPart = 20_000;
    CountDownLatch mergeStarted = new CountDownLatch(1);
    try (Database db = Database.open(dir)) {
      db.createTable(EngineTestSupport.keyedTable("m"), false);
      MergeTreeTable t = db.table("m");
      t.stopMerges(true);
      for (int p = 0; p < parts; p++) {
        try (Inserter ins = t.newInserter(1 << 20)) {
          for (int i = 0; i < rowsPerPart; i++) {
            ins.add(new Object[] {i * parts + p, (long) p * rowsPerPart + i, "row " + i});
          }
          ins.commit();
        }
      }
      assertEquals(parts, t.activeParts().size());
      // The merge holds still once its part file is open, until the database starts closing.
      t.merger.duringMerge = () -> {
        mergeStarted.countDown();
        while (!t.backgroundCancelled) {
          Thread.onSpinWait();
        }
      };
      t.stopMerges(false);
      assertTrue(mergeStarted.await(60, TimeUnit.SECONDS), "a background merge started");
      assertEquals(1, t.runningMerges().size());
    }
    assertEquals(List.of(), leftovers(), "the cancelled merge left no file");
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      MergeTreeTable t = db.table("m");
      assertEquals(parts, t.activeParts().size(), "nothing was committed by the cancelled merge");
      assertEquals(parts * rowsPerPart, EngineTestSupport.scan(t, null, false, 2).size());
    }
    try (Database db = Database.open(dir)) { // background on: the same merge runs again
      MergeTreeTable t = db.table("m");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (t.activeParts().size() > 1) {
        assertTrue(System.nanoTime() < deadline, "the merge resumed after the reopen: " + t.activeParts());
        Thread.sleep(20);
      }
      List<Object[]> rows = EngineTestSupport.scan(t, null, true, 2);
      assertEquals(parts * rowsPerPart, rows.size());
      for (int i = 0; i < rows.size(); i++) {
        assertEquals(i, rows.get(i)[0], "sorted and complete at " + i);
      }
    }
  }

  /** Temporary files and part files no log entry names. */
  private List<String> leftovers() throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith(".tmp-") || n.contains("_1_4_1")).toList();
    }
  }
}
