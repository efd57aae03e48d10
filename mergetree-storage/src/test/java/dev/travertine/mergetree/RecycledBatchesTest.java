package dev.travertine.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.mergetree.scan.ReadSettings;
import dev.travertine.mergetree.scan.ScanRequest;
import dev.travertine.mergetree.scan.TableScanner;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.Batch;
import dev.travertine.vector.BatchStage;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stage that consumes its batches ({@link BatchStage#consumesBatches}) lets a part's reader
 * decode the next batch into the same vectors; any other stage gets new vectors every batch. The
 * rows are the same either way.
 */
class RecycledBatchesTest {
  @TempDir Path dir;

  private static final int[] ALL = {0, 1, 2};

  private static TableDefinition def() {
    TableSchema schema = new TableSchema(List.of(
        new Column("k", DataType.of(TypeKind.INTEGER), false),
        new Column("v", DataType.of(TypeKind.BIGINT), true),
        new Column("s", DataType.varchar(-1), true)));
    return new TableDefinition("t", schema, List.of("k"), null, List.of(),
        Map.of("index_granularity", "1000", "min_insert_rows_for_direct_part", "1"), List.of());
  }

  /** Rows k = from .. from + n - 1: v = k * 10 (NULL every 7th), s = a distinct string per row (NULL every 5th). */
  private static void insert(MergeTreeTable t, int from, int n) throws IOException {
    try (Inserter ins = t.newInserter(1 << 22)) {
      for (int k = from; k < from + n; k++) {
        ins.add(new Object[] {k, k % 7 == 0 ? null : k * 10L, k % 5 == 0 ? null : "row-" + k});
      }
      ins.commit();
    }
  }

  /**
   * What a scan's stages saw: every row as text (sorted), the distinct vectors of column v, and
   * the distinct value arrays of column k when it came as our narrow vectors (0 otherwise).
   */
  private record Seen(List<String> rows, int batches, int vectors, int narrowArrays) {}

  private static Seen scan(MergeTreeTable t, boolean consuming) throws IOException {
    return scan(t, consuming, null);
  }

  private static Seen scan(MergeTreeTable t, boolean consuming, dev.travertine.vector.Predicate filter)
      throws IOException {
    return scan(t, consuming, filter, 2, false);
  }

  /** {@code narrow}: the consumer takes our vectors, and its factory says its stages consume every batch. */
  private static Seen scan(MergeTreeTable t, boolean consuming, dev.travertine.vector.Predicate filter, int threads,
      boolean narrow) throws IOException {
    TableSchema schema = t.definition().schema();
    List<String> rows = Collections.synchronizedList(new ArrayList<>());
    Set<ColumnVector> vectors = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    Set<Object> narrowArrays = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    int[] batches = new int[1];
    java.util.function.Consumer<Batch> sink = b -> {
      synchronized (batches) {
        batches[0]++;
      }
      vectors.add(b.cols()[1]);
      if (b.cols()[0] instanceof dev.travertine.vector.Int32Vector k) {
        narrowArrays.add(k.values);
      }
      for (int k = 0; k < b.size(); k++) {
        StringBuilder row = new StringBuilder();
        for (int c : ALL) {
          row.append(Vectors.get(b.cols()[c], schema.column(c).type().kind(), b.sel()[k])).append('|');
        }
        rows.add(row.toString()); // a copy: the vectors may hold the next batch soon
      }
    };
    BatchStage.Factory stages = consuming ? () -> BatchStage.consuming(sink) : () -> b -> {
      sink.accept(b);
      return null;
    };
    if (narrow) {
      stages = BatchStage.Factory.ofConsuming(stages);
    }
    try (TableScanner s = TableScanner.open(t.snapshot(), new ScanRequest(ALL, filter, -1, false, threads, 512, true,
        ReadSettings.DEFAULT.withNarrowIntegers(narrow), stages), t.context())) {
      while (s.next() != null) {
        // the stages saw every batch
      }
    }
    List<String> sorted = new ArrayList<>(rows);
    sorted.sort(null);
    return new Seen(sorted, batches[0], vectors.size(), narrowArrays.size());
  }

  @Test
  void consumingStagesGetTheirVectorsAgain() throws Exception {
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      db.createTable(def(), false);
      MergeTreeTable t = db.table("t");
      for (int p = 0; p < 3; p++) {
        insert(t, p * 5000, 5000);
      }
      Seen fresh = scan(t, false);
      Seen recycled = scan(t, true);
      assertEquals(15000, fresh.rows().size());
      assertEquals(fresh.rows(), recycled.rows());
      assertTrue(fresh.batches() >= 30, fresh.batches() + " batches");
      assertEquals(fresh.batches(), fresh.vectors(), "a stage that may keep batches gets new vectors each time");
      assertTrue(recycled.vectors() <= 6, recycled.vectors() + " vectors for " + recycled.batches() + " batches");
      assertEquals(fresh.rows(), scan(t, true).rows());
      // one thread (the stage runs on the consumer's thread): the same
      Seen oneThread = scan(t, true, null, 1, false);
      assertEquals(fresh.rows(), oneThread.rows());
      assertTrue(oneThread.vectors() <= 3, oneThread.vectors() + " vectors for " + oneThread.batches() + " batches");
      assertEquals(fresh.batches(), scan(t, false, null, 1, false).vectors(), "not consumed: new vectors");
      // narrow integers (k) decoded into arrays filled again, batch after batch, on two threads and one
      System.setProperty("travertine.scan.narrowDecode", "true"); // off by default
      try {
        for (int threads : new int[] {2, 1}) {
          Seen narrow = scan(t, true, null, threads, true);
          assertEquals(fresh.rows(), narrow.rows(), threads + " threads, narrow");
          assertTrue(narrow.narrowArrays() >= 1 && narrow.narrowArrays() <= 6,
              narrow.narrowArrays() + " arrays of k for " + narrow.batches() + " batches");
        }
      } finally {
        System.clearProperty("travertine.scan.narrowDecode");
      }
      // with a filter: the selections are recycled with the vectors
      dev.travertine.vector.Predicate odd = new dev.travertine.vector.Predicate.Compare(1,
          dev.travertine.vector.Predicate.Op.GT, 30_000L); // k > 3000, v not NULL
      Seen freshFiltered = scan(t, false, odd);
      Seen recycledFiltered = scan(t, true, odd);
      long expected = java.util.stream.IntStream.range(3001, 15000).filter(k -> k % 7 != 0).count();
      assertEquals(expected, freshFiltered.rows().size());
      assertEquals(freshFiltered.rows(), recycledFiltered.rows());
      // without a stage nothing is recycled: every batch keeps its own selection, also when held
      List<Batch> held = new ArrayList<>();
      try (TableScanner s = TableScanner.open(t.snapshot(), new ScanRequest(ALL, odd, -1, false, 2, 512, true,
          ReadSettings.DEFAULT, null), t.context())) {
        Batch b;
        while ((b = s.next()) != null) {
          held.add(b);
        }
      }
      List<String> rows = new ArrayList<>();
      TableSchema schema = t.definition().schema();
      for (Batch b : held) {
        for (int k = 0; k < b.size(); k++) {
          StringBuilder row = new StringBuilder();
          for (int c : ALL) {
            row.append(Vectors.get(b.cols()[c], schema.column(c).type().kind(), b.sel()[k])).append('|');
          }
          rows.add(row.toString());
        }
      }
      rows.sort(null);
      assertEquals(freshFiltered.rows(), rows);
    }
  }
}
