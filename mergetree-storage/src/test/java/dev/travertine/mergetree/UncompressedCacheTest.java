package dev.travertine.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.mergetree.scan.DecodedColumnCache;
import dev.travertine.mergetree.scan.ReadSettings;
import dev.travertine.mergetree.scan.ScanRequest;
import dev.travertine.mergetree.scan.TableScanner;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The decoded-column cache (use_uncompressed_cache): hits, identical results, no stale data, its byte bound. */
class UncompressedCacheTest {
  @TempDir Path dir;

  private static final int[] ALL = {0, 1, 2};

  private static TableDefinition def(int granularity) {
    TableSchema schema = new TableSchema(List.of(
        new Column("k", DataType.of(TypeKind.INTEGER), false),
        new Column("v", DataType.of(TypeKind.BIGINT), true),
        new Column("s", DataType.varchar(-1), true)));
    return new TableDefinition("t", schema, List.of("k"), null, List.of(),
        Map.of("index_granularity", Integer.toString(granularity), "min_insert_rows_for_direct_part", "1"),
        List.of());
  }

  private Database open(long cacheBytes) throws IOException {
    EngineContext c = EngineTestSupport.manualContext();
    return Database.open(dir, c.withColumnCache(new DecodedColumnCache(cacheBytes, c.events())));
  }

  /** Inserts rows k = from .. from + n - 1 as one part: v = k * 10 (NULL every 7th), s = "s" + k % 13 (NULL every 5th). */
  private static void insert(MergeTreeTable t, int from, int n) throws IOException {
    try (Inserter ins = t.newInserter(1 << 22)) {
      for (int k = from; k < from + n; k++) {
        ins.add(new Object[] {k, k % 7 == 0 ? null : k * 10L, k % 5 == 0 ? null : "s" + k % 13});
      }
      ins.commit();
    }
  }

  private record Result(List<String> rows, long rowsRead) {}

  private static Result scan(MergeTreeTable t, int[] cols, Predicate filter, boolean ordered, int threads,
      boolean cache) throws IOException {
    TableSchema schema = t.definition().schema();
    ReadSettings read = ReadSettings.DEFAULT.withUncompressedCache(cache);
    List<String> out = new ArrayList<>();
    long rowsRead;
    try (TableScanner s = TableScanner.open(t.snapshot(), new ScanRequest(cols, filter == null ? null
        : filter.bind(schema), -1, ordered, threads, 1024, true, read), t.context())) {
      Batch b;
      while ((b = s.next()) != null) {
        for (int k = 0; k < b.size(); k++) {
          StringBuilder row = new StringBuilder();
          for (int c : cols) {
            row.append(Vectors.get(b.cols()[c], schema.column(c).type().kind(), b.sel()[k])).append('|');
          }
          out.add(row.toString());
        }
      }
      rowsRead = s.rowsRead();
    }
    if (!ordered) {
      out.sort(null);
    }
    return new Result(out, rowsRead);
  }

  private static long hits(Database db) {
    return db.events().get(EngineEvents.UNCOMPRESSED_CACHE_HITS);
  }

  private static long misses(Database db) {
    return db.events().get(EngineEvents.UNCOMPRESSED_CACHE_MISSES);
  }

  @Test
  void secondScanComesFromTheCacheWithTheSameRows() throws Exception {
    try (Database db = open(64L << 20)) {
      db.createTable(def(1000), false);
      MergeTreeTable t = db.table("t");
      for (int p = 0; p < 3; p++) {
        insert(t, p * 5000, 5000);
      }
      Result plain = scan(t, ALL, null, false, 2, false);
      assertEquals(15000, plain.rows().size());
      assertEquals(0, hits(db) + misses(db), "setting off: the cache is not looked at");
      assertEquals(0, db.context().columnCache().entries(), "nor filled");

      Result first = scan(t, ALL, null, false, 2, true);
      assertEquals(0, hits(db));
      assertEquals(9, misses(db), "3 parts x 3 columns");
      assertEquals(9, db.context().columnCache().entries());
      assertTrue(db.context().columnCache().bytes() > 15000 * (4 + 8), "weighed by its vectors");

      long selected = db.events().get(EngineEvents.SELECTED_ROWS);
      Result second = scan(t, ALL, null, false, 2, true);
      assertEquals(9, hits(db));
      assertEquals(9, misses(db));
      assertEquals(plain, first);
      assertEquals(plain, second, "same rows, same rows read");
      assertEquals(15000, db.events().get(EngineEvents.SELECTED_ROWS) - selected);

      // Other read paths over the same tasks: one thread, in key order, filtered.
      assertEquals(plain, scan(t, ALL, null, false, 1, true));
      Result ordered = scan(t, ALL, null, true, 1, true);
      assertEquals(scan(t, ALL, null, true, 1, false), ordered);
      Predicate f = new Predicate.Compare(2, Predicate.Op.EQ, "s3"); // prunes nothing: every task is read
      assertEquals(scan(t, ALL, f, false, 2, false), scan(t, ALL, f, false, 2, true));
      assertEquals(9 * 4, hits(db), "every later scan hit every column task");
      assertEquals(9, misses(db));

      // Setting off again: no hits.
      scan(t, ALL, null, false, 2, false);
      assertEquals(9 * 4, hits(db));
    }
  }

  @Test
  void onlyTheMissingColumnsAreDecoded() throws Exception {
    try (Database db = open(64L << 20)) {
      db.createTable(def(1000), false);
      MergeTreeTable t = db.table("t");
      insert(t, 0, 3000);
      insert(t, 3000, 3000);
      assertEquals(scan(t, new int[] {1}, null, false, 2, false), scan(t, new int[] {1}, null, false, 2, true));
      assertEquals(2, misses(db));
      Result both = scan(t, new int[] {1, 2}, null, false, 2, true);
      assertEquals(2, hits(db), "v from the cache");
      assertEquals(4, misses(db), "s decoded");
      assertEquals(scan(t, new int[] {1, 2}, null, false, 2, false), both);
      assertEquals(both, scan(t, new int[] {1, 2}, null, false, 1, true));
      assertEquals(6, hits(db));
      assertEquals(4, misses(db));
    }
  }

  @Test
  void aMergeOrTruncateNeverServesStaleVectors() throws Exception {
    try (Database db = open(64L << 20)) {
      db.createTable(def(1000), false);
      MergeTreeTable t = db.table("t");
      insert(t, 0, 2000);
      insert(t, 2000, 2000);
      scan(t, ALL, null, false, 2, true);
      scan(t, ALL, null, false, 2, true);
      assertEquals(6, hits(db));
      insert(t, 4000, 2000);
      t.optimize(true);
      assertEquals(1, t.activeParts().size());
      Result merged = scan(t, ALL, null, false, 2, true);
      assertEquals(6, hits(db), "the merged part is a new file: nothing of the old parts is used");
      assertEquals(6 + 3, misses(db));
      assertEquals(scan(t, ALL, null, false, 2, false), merged);
      assertEquals(6000, merged.rows().size());
      assertEquals(merged, scan(t, ALL, null, false, 2, true));
      assertEquals(9, hits(db));

      t.truncate();
      insert(t, 100, 10); // new part, its name could recall an old one's: the file is new
      Result after = scan(t, ALL, null, false, 2, true);
      assertEquals(10, after.rows().size());
      assertEquals(scan(t, ALL, null, false, 2, false), after);
    }
  }

  @Test
  void aTaskThatSkipsFewGranulesFillsTheCache() throws Exception {
    try (Database db = open(64L << 20)) {
      db.createTable(def(1000), false);
      MergeTreeTable t = db.table("t");
      insert(t, 0, 10_000);
      Predicate most = new Predicate.Compare(0, Predicate.Op.GE, 1500L); // skips granule 0 of 10
      Result plain = scan(t, ALL, most, false, 2, false);
      assertEquals(8500, plain.rows().size());
      assertEquals(plain, scan(t, ALL, most, false, 2, true), "cold, filling");
      assertEquals(3, misses(db));
      assertEquals(3, db.context().columnCache().entries(), "the whole stripe went to the cache");
      Result hot = scan(t, ALL, most, false, 2, true);
      assertEquals(3, hits(db));
      assertEquals(plain, hot, "the same rows and rows read from the cache");
      assertEquals(10_000, scan(t, ALL, null, false, 1, true).rows().size());
      assertEquals(6, hits(db), "and a whole read finds it too");
    }
  }

  /** Batches smaller than a granule: a batch of a skipped granule selects no row, and the task goes on. */
  @Test
  void aFillingTaskGoesOnPastTheBatchesOfGranulesItSkips() throws Exception {
    try (Database db = open(64L << 20)) {
      db.createTable(def(1000), false);
      MergeTreeTable t = db.table("t");
      insert(t, 0, 10_000);
      Predicate most = new Predicate.Compare(0, Predicate.Op.GE, 1500L); // skips granule 0 of 10
      TableSchema schema = t.definition().schema();
      for (int threads : new int[] {1, 2}) {
        for (int round = 0; round < 2; round++) { // filling, then from the cache
          int rows = 0;
          try (TableScanner s = TableScanner.open(t.snapshot(), new ScanRequest(ALL, most.bind(schema), -1, false,
              threads, 256, true, ReadSettings.DEFAULT.withUncompressedCache(true)), t.context())) {
            Batch b;
            while ((b = s.next()) != null) {
              rows += b.size();
            }
          }
          assertEquals(8500, rows, threads + " threads, round " + round);
        }
      }
      assertTrue(hits(db) > 0, "the second round read from the cache");
    }
  }

  @Test
  void prunedTasksUseTheCacheOnlyWhenEveryColumnIsThereAndReadTheSameRows() throws Exception {
    try (Database db = open(64L << 20)) {
      db.createTable(def(1000), false);
      MergeTreeTable t = db.table("t");
      insert(t, 0, 10_000);
      Predicate range = new Predicate.And(List.of(new Predicate.Compare(0, Predicate.Op.GE, 2500L),
          new Predicate.Compare(0, Predicate.Op.LT, 3500L)));
      Result plain = scan(t, ALL, range, false, 2, false);
      assertEquals(1000, plain.rows().size());
      assertEquals(2000, plain.rowsRead(), "granules 2 and 3");

      // Cold: a read that skips granules neither uses nor fills the cache.
      assertEquals(plain, scan(t, ALL, range, false, 2, true));
      assertEquals(0, hits(db));
      assertEquals(3, misses(db));
      assertEquals(0, db.context().columnCache().entries());

      // A whole read fills it; then the pruned scan takes its granules from there.
      scan(t, ALL, null, false, 2, true);
      assertEquals(6, misses(db));
      Result hot = scan(t, ALL, range, false, 2, true);
      assertEquals(3, hits(db));
      assertEquals(plain, hot, "the same rows, and only the selected granules count as read");
      Result point = scan(t, ALL, new Predicate.Compare(0, Predicate.Op.EQ, 9999L), false, 1, true);
      assertEquals(List.of("9999|99990|s2|"), point.rows());
      assertEquals(1000, point.rowsRead());
    }
  }

  @Test
  void stripeTasksAndAFullySelectedStripeOfAPrunedPart() throws Exception {
    try (Database db = open(256L << 20)) {
      db.createTable(def(1024), false); // 1024 granules (1 Mi rows) per stripe
      MergeTreeTable t = db.table("t");
      insert(t, 0, 1_600_000); // stripe 0 of 2^20 rows and a shorter stripe 1
      int[] kv = {0, 1};
      // k >= 2^20 leaves stripe 0 out and selects all of stripe 1: that one is read whole and kept.
      Predicate upper = new Predicate.Compare(0, Predicate.Op.GE, 1L << 20);
      Result plain = scan(t, kv, upper, false, 2, false);
      assertEquals(1_600_000 - (1 << 20), plain.rows().size());
      assertEquals(plain, scan(t, kv, upper, false, 2, true));
      assertEquals(2, misses(db), "1 stripe x 2 columns");
      assertEquals(2, db.context().columnCache().entries());
      Result all = scan(t, kv, null, false, 2, true);
      assertEquals(2, hits(db));
      assertEquals(4, misses(db), "stripe 0 decoded now");
      assertEquals(scan(t, kv, null, false, 2, false), all);
      assertEquals(all, scan(t, kv, null, false, 2, true));
      assertEquals(6, hits(db));
      assertEquals(plain, scan(t, kv, upper, false, 2, true));
      assertEquals(8, hits(db));
      assertEquals(4, misses(db));
    }
  }

  @Test
  void aSmallCacheEvictsAndStaysCorrect() throws Exception {
    long bound = 48 << 10;
    try (Database db = open(bound)) {
      db.createTable(def(1000), false);
      MergeTreeTable t = db.table("t");
      for (int p = 0; p < 10; p++) {
        insert(t, p * 1000, 1000); // a column of a part: ~9 KiB of vectors, under the 12 KiB entry limit
      }
      int[] kv = {0, 1};
      Result plain = scan(t, kv, null, false, 2, false);
      for (int round = 0; round < 3; round++) {
        assertEquals(plain, scan(t, kv, null, false, 2, true), "round " + round);
        DecodedColumnCache cache = db.context().columnCache();
        assertTrue(cache.bytes() <= bound, cache.bytes() + " bytes held");
        assertTrue(cache.entries() < 20, cache.entries() + " entries");
      }
      assertTrue(db.events().get(EngineEvents.UNCOMPRESSED_CACHE_WEIGHT_LOST) > 0, "evicted bytes are counted");
      assertEquals(3 * 20, hits(db) + misses(db));
      assertTrue(misses(db) > 20, "evicted columns are decoded again");
    }
  }

  @Test
  void aZeroSizedCacheKeepsNothing() throws Exception {
    try (Database db = open(0)) {
      db.createTable(def(1000), false);
      MergeTreeTable t = db.table("t");
      insert(t, 0, 1000);
      assertEquals(scan(t, ALL, null, false, 1, false), scan(t, ALL, null, false, 1, true));
      assertEquals(scan(t, ALL, null, false, 1, false), scan(t, ALL, null, false, 1, true));
      assertEquals(0, hits(db) + misses(db));
    }
  }

  @Test
  void sizeProperty() {
    assertEquals(DecodedColumnCache.DEFAULT_MAX_BYTES, DecodedColumnCache.size(Map.of()));
    assertEquals(Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 4), DecodedColumnCache.DEFAULT_MAX_BYTES);
    assertEquals(12345, DecodedColumnCache.size(Map.of("uncompressed_cache_size", "12345")));
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> DecodedColumnCache.size(Map.of("uncompressed_cache_size", "1G")));
    assertTrue(e.getMessage().contains("Invalid uncompressed_cache_size: '1G'"), e.getMessage());
  }
}
