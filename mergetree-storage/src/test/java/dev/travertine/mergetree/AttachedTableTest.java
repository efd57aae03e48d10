package dev.travertine.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.mergetree.mutation.MutationCommand;
import dev.travertine.mergetree.scan.ScanRequest;
import dev.travertine.mergetree.scan.TableScanner;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.vector.Batch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table one database writes and another attaches read-only from the shared storage (ATTACH
 * TABLE … FROM): the reader sees what the writer commits, never writes or deletes there, and
 * the writer keeps replaced parts' files for {@code old_parts_lifetime} so the reader's running
 * queries can finish.
 */
class AttachedTableTest {
  @TempDir Path dir;

  /** A clock the test moves. */
  static final class TestClock extends Clock {
    final AtomicLong millis = new AtomicLong(1_700_000_000_000L);

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis.get());
    }
  }

  private static EngineContext context(Clock clock) {
    return new EngineContext(clock, Executors.newSingleThreadScheduledExecutor(), Executors.newCachedThreadPool(),
        new EngineEvents(), false);
  }

  private TableDefinition shared(String name, long lifetimeSeconds) {
    TableDefinition d = EngineTestSupport.keyedTable(name);
    Map<String, String> s = new LinkedHashMap<>(d.settings());
    s.put("storage", dir.resolve("shared").toUri().toString());
    s.put("old_parts_lifetime", String.valueOf(lifetimeSeconds));
    return new TableDefinition(name, d.schema(), d.orderBy(), d.partitionBy(), d.primaryKey(), s, d.indexes());
  }

  private static void insert(MergeTreeTable t, int from, int n) throws IOException {
    try (Inserter ins = t.newInserter(1 << 20)) {
      for (int i = from; i < from + n; i++) {
        ins.add(new Object[] {i % 50, (long) i, "v" + i});
      }
      ins.commit();
    }
  }

  private static long sumSeq(TableSnapshot snap, EngineContext ctx) throws IOException {
    long sum = 0;
    try (TableScanner s = TableScanner.open(snap, new ScanRequest(new int[] {1}, null, -1, false, 2, 100, true), ctx)) {
      Batch b;
      while ((b = s.next()) != null) {
        long[] v = ((org.apache.hadoop.hive.ql.exec.vector.LongColumnVector) b.cols()[1]).vector;
        for (int i = 0; i < b.size(); i++) {
          sum += v[b.sel() == null ? i : b.sel()[i]];
        }
      }
    }
    return sum;
  }

  private static long sumOf(int n) {
    return (long) n * (n - 1) / 2;
  }

  @Test
  void theReaderSeesWhatTheWriterCommitsAndOldPartsOutliveItsQueries() throws Exception {
    TestClock clock = new TestClock();
    EngineContext wctx = context(clock);
    EngineContext rctx = context(clock);
    try (Database writer = Database.open(dir.resolve("w"), wctx);
         Database reader = Database.open(dir.resolve("r"), rctx)) {
      writer.createTable(shared("hits", 60), false);
      MergeTreeTable w = writer.table("hits");
      insert(w, 0, 300);
      insert(w, 300, 300);
      assertTrue(reader.attachTable("copy", w.storageLocation(), false));
      assertFalse(reader.attachTable("copy", w.storageLocation(), true), "IF NOT EXISTS");
      MergeTreeTable r = reader.table("copy");
      assertTrue(r.readOnly());
      assertEquals(w.definition().schema(), r.definition().schema());
      try (TableSnapshot s = r.snapshot()) {
        assertEquals(2, s.parts().size());
        assertEquals(sumOf(600), sumSeq(s, rctx));
      }

      insert(w, 600, 400);
      TableSnapshot before = r.snapshot();
      assertEquals(3, before.parts().size(), "the third insert is seen by the next query");
      w.optimize(true);
      assertEquals(1, w.activeParts().size());
      Path parts = dir.resolve("shared").resolve("tables").resolve(w.id()).resolve("parts");
      try (Stream<Path> files = Files.list(parts)) {
        assertEquals(4, files.count(), "replaced parts kept for old_parts_lifetime");
      }
      // The reader's query that began before the merge reads the replaced parts to its end.
      assertEquals(sumOf(1000), sumSeq(before, rctx));
      before.close();
      try (TableSnapshot s = r.snapshot()) {
        assertEquals(1, s.parts().size(), "the merge is seen");
        assertEquals(sumOf(1000), sumSeq(s, rctx));
      }
      assertEquals(0, w.removeOldParts(), "not yet: their lifetime is not over");
      clock.millis.addAndGet(60_000);
      assertEquals(3, w.removeOldParts());
      try (Stream<Path> files = Files.list(parts)) {
        assertEquals(1, files.count());
      }
      assertEquals(0, r.removeOldParts(), "the reader deletes nothing");
    }
  }

  @Test
  void theReaderRefusesEveryChangeAndItsDropKeepsTheData() throws Exception {
    EngineContext wctx = EngineTestSupport.manualContext();
    try (Database writer = Database.open(dir.resolve("w"), wctx)) {
      writer.createTable(shared("hits", 0), false);
      MergeTreeTable w = writer.table("hits");
      insert(w, 0, 100);
      String location = w.storageLocation();
      try (Database reader = Database.open(dir.resolve("r"), EngineTestSupport.manualContext())) {
        reader.attachTable("copy", location, false);
        MergeTreeTable r = reader.table("copy");
        String expected = "Table copy is attached read-only from " + location
            + ": change it on the node that writes it";
        assertEquals(expected, assertThrows(ReadOnlyTableException.class, () -> r.newInserter(10)).getMessage());
        assertThrows(ReadOnlyTableException.class, () -> r.optimize(true));
        assertThrows(ReadOnlyTableException.class, r::truncate);
        assertThrows(ReadOnlyTableException.class, () -> r.mutate(MutationCommand.delete("k = 1"), false));
        assertThrows(ReadOnlyTableException.class, () -> reader.updateDefinition(r, r.definition()));
        assertEquals(1, r.check(() -> false, true).size(), "CHECK TABLE reads");
      }
      // Reopened, the reader still has the table attached; dropping it forgets it and deletes nothing.
      try (Database reader = Database.open(dir.resolve("r"), EngineTestSupport.manualContext())) {
        MergeTreeTable r = reader.table("copy");
        assertTrue(r.readOnly());
        try (TableSnapshot s = r.snapshot()) {
          assertEquals(1, s.parts().size());
        }
        assertTrue(reader.dropTable("copy", false));
        assertEquals(null, reader.table("copy"));
      }
      assertEquals(1, w.activeParts().size());
      try (TableSnapshot s = w.snapshot()) {
        assertEquals(sumOf(100), sumSeq(s, wctx));
      }
    }
  }

  @Test
  void attachingSomethingThatIsNotATableSaysWhatALocationIs() throws Exception {
    Files.createDirectories(dir.resolve("empty"));
    try (Database reader = Database.open(dir.resolve("r"), EngineTestSupport.manualContext())) {
      String where = dir.resolve("empty").toUri().toString();
      IOException e = assertThrows(IOException.class, () -> reader.attachTable("x", where, false));
      assertTrue(e.getMessage().startsWith("No Travertine table at "), e.getMessage());
      assertTrue(e.getMessage().contains("<storage>/tables/<uuid>"), e.getMessage());
      assertEquals(null, reader.table("x"));
    }
  }

  @Test
  void theWriterCheckpointingWhileTheReaderCatchesUpLosesNothing() throws Exception {
    EngineContext wctx = EngineTestSupport.manualContext();
    try (Database writer = Database.open(dir.resolve("w"), wctx);
         Database reader = Database.open(dir.resolve("r"), EngineTestSupport.manualContext())) {
      writer.createTable(shared("hits", 0), false);
      MergeTreeTable w = writer.table("hits");
      reader.attachTable("copy", w.storageLocation(), false);
      MergeTreeTable r = reader.table("copy");
      int n = 0;
      // 150 commits: two checkpoints (every 64 entries) remove the entries the reader had read.
      for (int i = 0; i < 150; i++) {
        insert(w, n, 3);
        n += 3;
        if (i % 37 == 0) {
          try (TableSnapshot s = r.snapshot()) {
            assertEquals(i + 1, s.parts().size());
          }
        }
      }
      try (TableSnapshot s = r.snapshot()) {
        assertEquals(150, s.parts().size());
        assertEquals(sumOf(n), sumSeq(s, EngineTestSupport.manualContext()));
      }
    }
  }

  @Test
  void aReaderRunningBesideTheWriterAlwaysSeesAWholeCommit() throws Exception {
    EngineContext wctx = EngineTestSupport.manualContext();
    EngineContext rctx = EngineTestSupport.manualContext();
    try (Database writer = Database.open(dir.resolve("w"), wctx);
         Database reader = Database.open(dir.resolve("r"), rctx)) {
      writer.createTable(shared("hits", 600), false);
      MergeTreeTable w = writer.table("hits");
      reader.attachTable("copy", w.storageLocation(), false);
      MergeTreeTable r = reader.table("copy");
      java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
      java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
      java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
      Thread readerThread = new Thread(() -> {
        long last = -1;
        try {
          while (!done.get()) {
            try (TableSnapshot s = r.snapshot()) {
              long sum = sumSeq(s, rctx);
              // Whole inserts of 3 rows each: the sum is that of 0 .. 3m-1 for some m, never less than before.
              long m = Math.round((1 + Math.sqrt(1 + 8.0 * sum)) / 2);
              boolean whole = false;
              for (long n = Math.max(0, 3 * (m / 3) - 6); n <= 3 * (m / 3) + 6; n += 3) {
                whole |= sumOf((int) n) == sum;
              }
              if (!whole || sum < last) {
                throw new AssertionError("sum " + sum + " after " + last);
              }
              last = sum;
              reads.incrementAndGet();
            }
          }
        } catch (Throwable t) {
          failed.set(t);
        }
      });
      readerThread.start();
      int n = 0;
      for (int i = 0; i < 200 && failed.get() == null; i++) {
        insert(w, n, 3);
        n += 3;
        if (i % 25 == 24) {
          w.optimize(false); // merges replace parts the reader may be reading
        }
      }
      done.set(true);
      readerThread.join();
      if (failed.get() != null) {
        throw new AssertionError("the reader failed after " + reads.get() + " reads", failed.get());
      }
      assertTrue(reads.get() > 0);
      try (TableSnapshot s = r.snapshot()) {
        assertEquals(sumOf(n), sumSeq(s, rctx));
      }
    }
  }

  @Test
  void theWritersAlterAndDropReachTheReader() throws Exception {
    String location;
    try (Database writer = Database.open(dir.resolve("w"), EngineTestSupport.manualContext());
         Database reader = Database.open(dir.resolve("r"), EngineTestSupport.manualContext())) {
      writer.createTable(shared("hits", 0), false);
      MergeTreeTable w = writer.table("hits");
      insert(w, 0, 10);
      location = w.storageLocation();
      reader.attachTable("copy", location, false);
      MergeTreeTable r = reader.table("copy");
      assertEquals(3, r.definition().schema().size());

      TableDefinition d = w.definition();
      List<dev.travertine.mergetree.schema.Column> cols = new java.util.ArrayList<>(d.schema().columns());
      cols.add(new dev.travertine.mergetree.schema.Column("extra",
          dev.travertine.vector.DataType.of(dev.travertine.vector.TypeKind.INTEGER), true));
      writer.alterTable(w, new TableDefinition(d.name(), new dev.travertine.mergetree.schema.TableSchema(cols),
          d.orderBy(), d.partitionBy(), d.primaryKey(), d.settings(), d.indexes()));
      try (TableSnapshot s = r.snapshot()) {
        assertEquals(3, s.definition().schema().size(), "a snapshot keeps the definition its statement planned with");
      }
      assertTrue(r.refreshFromWriter(), "what a statement does before it is planned");
      assertFalse(r.refreshFromWriter(), "once");
      try (TableSnapshot s = r.snapshot()) {
        assertEquals(4, s.definition().schema().size(), "the reader reads the new definition");
        assertEquals("copy", s.definition().name());
      }

      assertTrue(writer.dropTable("hits", false));
      java.io.UncheckedIOException gone = assertThrows(java.io.UncheckedIOException.class, r::snapshot);
      assertTrue(gone.getMessage().contains("dropped by the node that writes it"), gone.getMessage());
      IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
          () -> reader.attachTable("copy2", location, false));
      assertTrue(twice.getMessage().endsWith("it is attached already, as table copy"), twice.getMessage());
    }
    // The reader's next start: the table it attached is gone; the node opens and DROP forgets the table.
    try (Database reader = Database.open(dir.resolve("r"), EngineTestSupport.manualContext())) {
      assertEquals(null, reader.table("copy"));
      assertThrows(IllegalArgumentException.class, () -> reader.createTable(shared("copy", 0), false));
      assertThrows(IllegalArgumentException.class, () -> reader.createTable(EngineTestSupport.keyedTable("COPY"), false),
          "names are case-insensitive for unavailable tables too");
      assertTrue(reader.dropTable("COPY", false));
      IOException again = assertThrows(IOException.class, () -> reader.attachTable("copy", location, false));
      assertTrue(again.getMessage().startsWith("No Travertine table at"), again.getMessage());
      assertTrue(reader.createTable(EngineTestSupport.keyedTable("copy"), false));
    }
  }

  @Test
  void theDatabasesTimerDeletesOldPartsWhenTheirLifetimeIsOver() throws Exception {
    try (Database writer = Database.open(dir.resolve("w"))) {
      writer.createTable(shared("hits", 1), false);
      MergeTreeTable w = writer.table("hits");
      insert(w, 0, 10);
      insert(w, 10, 10);
      w.optimize(true);
      Path parts = dir.resolve("shared").resolve("tables").resolve(w.id()).resolve("parts");
      long deadline = System.nanoTime() + 30_000_000_000L;
      long files;
      do {
        Thread.sleep(50);
        try (Stream<Path> f = Files.list(parts)) {
          files = f.count();
        }
      } while (files > 1 && System.nanoTime() < deadline);
      assertEquals(1, files, "the merged parts' files are deleted after old_parts_lifetime");
      assertEquals(0, w.oldPartFiles());
    }
  }

  @Test
  void aFailedRefreshIsNotTriedAgainForAWhileButQueriesStillSayWhy() throws Exception {
    TestClock clock = new TestClock();
    try (Database writer = Database.open(dir.resolve("w"), context(clock));
         Database reader = Database.open(dir.resolve("r"), context(clock))) {
      writer.createTable(shared("hits", 0), false);
      insert(writer.table("hits"), 0, 10);
      reader.attachTable("copy", writer.table("hits").storageLocation(), false);
      MergeTreeTable r = reader.table("copy");
      writer.dropTable("hits", false);
      assertThrows(java.io.UncheckedIOException.class, r::refreshFromWriter);
      assertFalse(r.refreshFromWriter(), "statements are not held up by a table whose storage just failed");
      java.io.UncheckedIOException q = assertThrows(java.io.UncheckedIOException.class, r::snapshot);
      assertTrue(q.getMessage().contains("dropped by the node that writes it"), q.getMessage());
      clock.millis.addAndGet(TableFollower.BACKOFF_MILLIS);
      assertThrows(java.io.UncheckedIOException.class, r::refreshFromWriter, "tried again after the back-off");
    }
  }
}
