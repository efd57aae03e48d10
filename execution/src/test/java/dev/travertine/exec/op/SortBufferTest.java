package dev.travertine.exec.op;

import dev.travertine.exec.Columns;
import static dev.travertine.exec.op.VectorFixtures.BIG;
import static dev.travertine.exec.op.VectorFixtures.BOOL;
import static dev.travertine.exec.op.VectorFixtures.CHR;
import static dev.travertine.exec.op.VectorFixtures.DATE;
import static dev.travertine.exec.op.VectorFixtures.DBL;
import static dev.travertine.exec.op.VectorFixtures.DEC;
import static dev.travertine.exec.op.VectorFixtures.INT;
import static dev.travertine.exec.op.VectorFixtures.REAL;
import static dev.travertine.exec.op.VectorFixtures.SMALL;
import static dev.travertine.exec.op.VectorFixtures.STR;
import static dev.travertine.exec.op.VectorFixtures.TINY;
import static dev.travertine.exec.op.VectorFixtures.TS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.travertine.exec.op.VectorFixtures.Col;
import dev.travertine.exec.op.VectorFixtures.Generated;
import dev.travertine.exec.op.VectorFixtures.Shape;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.junit.jupiter.api.Test;

/**
 * SortBuffer against a stable sort of the same rows (java.util.List.sort) on seeded random
 * batches. Field 0 is a row number in input order, never a sort key: equal rows of the reference
 * and the buffer then prove ties kept their input order.
 */
class SortBufferTest {
  static final List<DataType> TYPES = List.of(BIG, BOOL, TINY, SMALL, INT, BIG, REAL, DBL, DEC, STR, CHR, DATE, TS);

  static List<Col> columns(Random rnd, int distinct) {
    List<Col> cols = new ArrayList<>();
    for (DataType t : TYPES) {
      cols.add(Col.of(rnd, t, distinct, 0.15));
    }
    return cols;
  }

  /** Batches whose field 0 numbers the positions (so every row's number follows the previous rows'). */
  static final class Input {
    final List<Batch> batches = new ArrayList<>();
    final List<List<Object[]>> rows = new ArrayList<>();
    long next;

    void add(Generated g) {
      Batch b = g.batch();
      int cap = b.cols()[1].isNull.length;
      LongColumnVector id = new LongColumnVector(cap);
      for (int i = 0; i < cap; i++) {
        id.vector[i] = next + i;
      }
      ColumnVector[] cols = b.cols().clone();
      cols[0] = id;
      List<Object[]> rs = new ArrayList<>();
      for (int k = 0; k < b.size(); k++) {
        Object[] r = g.rows().get(k).clone();
        r[0] = next + b.sel()[k];
        rs.add(r);
      }
      next += cap;
      batches.add(new Batch(cols, b.sel(), b.size()));
      rows.add(rs);
    }

    List<Object[]> allRows() {
      List<Object[]> out = new ArrayList<>();
      rows.forEach(out::addAll);
      return out;
    }
  }

  static Input input(Random rnd, List<Col> cols, Shape shape, int batches) {
    Input in = new Input();
    for (int i = 0; i < batches; i++) {
      in.add(VectorFixtures.batch(rnd, cols, shape));
    }
    return in;
  }

  static Comparator<Object[]> comparator(List<Step.SortKey> keys, List<DataType> types) {
    return (a, b) -> {
      for (Step.SortKey k : keys) {
        Object x = a[k.field()];
        Object y = b[k.field()];
        if (x == null || y == null) {
          if (x == y) {
            continue;
          }
          return (x == null) == k.nullsFirst() ? -1 : 1;
        }
        int c = VectorFixtures.compare(types.get(k.field()), x, y);
        if (c != 0) {
          return k.descending() ? -c : c;
        }
      }
      return 0;
    };
  }

  static List<Object[]> expected(List<Object[]> rows, List<Step.SortKey> keys, List<DataType> types, long offset,
      long fetch) {
    List<Object[]> s = new ArrayList<>(rows);
    s.sort(comparator(keys, types)); // stable
    int from = (int) Math.min(s.size(), offset);
    int to = fetch < 0 ? s.size() : (int) Math.min(s.size(), Math.min(Long.MAX_VALUE - offset, fetch) + offset);
    return s.subList(from, to);
  }

  static List<Object[]> actual(SortBuffer buf, List<DataType> types, long offset, long fetch, int batchSize) {
    List<Object[]> out = new ArrayList<>();
    for (Batch b : buf.result(offset, fetch, batchSize)) {
      assertTrue(b.size() > 0 && b.size() <= batchSize, "result batch of " + b.size() + " rows, batch size " + batchSize);
      out.addAll(VectorFixtures.rows(b, types));
    }
    return out;
  }

  static void assertRows(String what, List<Object[]> expected, List<Object[]> actual) {
    int n = Math.min(expected.size(), actual.size());
    for (int i = 0; i < n; i++) {
      if (!Arrays.equals(expected.get(i), actual.get(i))) {
        fail(what + ": row " + i + " of " + expected.size() + " differs: expected " + Arrays.toString(expected.get(i))
            + ", got " + Arrays.toString(actual.get(i)));
      }
    }
    assertEquals(expected.size(), actual.size(), what + ": row count");
  }

  static List<Step.SortKey> randomKeys(Random rnd, int fields) {
    List<Step.SortKey> keys = new ArrayList<>();
    int n = 1 + rnd.nextInt(3);
    for (int i = 0; i < n; i++) {
      keys.add(new Step.SortKey(1 + rnd.nextInt(fields - 1), rnd.nextBoolean(), rnd.nextBoolean()));
    }
    return keys;
  }

  static long randomFetch(Random rnd) {
    return switch (rnd.nextInt(7)) {
      case 0 -> -1;
      case 1 -> 0;
      case 2 -> 1;
      case 3 -> 10;
      case 4 -> 1000;
      default -> rnd.nextInt(5000);
    };
  }

  @Test void randomMultiKeySorts() {
    for (long seed = 1; seed <= 30; seed++) {
      Random rnd = new Random(seed);
      List<Col> cols = columns(rnd, 2 + rnd.nextInt(8));
      Input in = input(rnd, cols, new Shape(600, 0.1, 0.3), 1 + rnd.nextInt(30));
      List<Step.SortKey> keys = randomKeys(rnd, TYPES.size());
      long offset = rnd.nextInt(4) == 0 ? rnd.nextInt(100) : 0;
      long fetch = randomFetch(rnd);
      boolean bounded = rnd.nextInt(4) != 0;
      long bound = bounded ? new Step.Sort(keys, offset, fetch).bound() : -1;
      SortBuffer buf = new SortBuffer(TYPES, keys, bound);
      in.batches.forEach(buf::add);
      String what = "seed " + seed + " keys " + keys + " offset " + offset + " fetch " + fetch + " bound " + bound;
      assertRows(what, expected(in.allRows(), keys, TYPES, offset, fetch),
          actual(buf, TYPES, offset, fetch, 1 + rnd.nextInt(3000)));
    }
  }

  /**
   * Two workers' heaps share a top-N threshold (TopNThreshold) that drops rows before they are
   * offered, as the scan does: the merged answer equals the top-N of every row. Field 0 (the row
   * number) ends the keys, so the order is total however the workers split the rows.
   */
  @Test void thresholdDropsOnlyRowsNoHeapTakes() {
    int[] keyed = {1, 2, 3, 4, 5, 11, 12}; // BOOLEAN, the integers, DATE, TIMESTAMP
    long droppedInAll = 0;
    for (long seed = 1; seed <= 60; seed++) {
      Random rnd = new Random(seed);
      List<Col> cols = columns(rnd, 2 + rnd.nextInt(40));
      Input in = input(rnd, cols, new Shape(700, 0.1, 0.3), 2 + rnd.nextInt(20));
      List<Step.SortKey> keys = new ArrayList<>();
      int first = keyed[rnd.nextInt(keyed.length)];
      keys.add(new Step.SortKey(first, rnd.nextBoolean(), rnd.nextBoolean()));
      keys.addAll(randomKeys(rnd, TYPES.size()).subList(0, rnd.nextInt(2)));
      keys.add(new Step.SortKey(0, false, false));
      long fetch = 1 + rnd.nextInt(rnd.nextBoolean() ? 20 : 800);
      TopNThreshold t = new TopNThreshold(keys.get(0), TYPES.get(first).kind());
      SortBuffer[] workers = {new SortBuffer(TYPES, keys, fetch), new SortBuffer(TYPES, keys, fetch)};
      int dropped = 0;
      for (int i = 0; i < in.batches.size(); i++) {
        Batch b = in.batches.get(i);
        int[] sel = Arrays.copyOf(b.sel(), b.size());
        int m = t.filter(b.cols()[first], sel, b.size());
        dropped += b.size() - m;
        SortBuffer w = workers[rnd.nextInt(2)];
        w.add(new Batch(b.cols(), sel, m));
        w.publish(t);
      }
      workers[0].merge(workers[1]);
      String what = "seed " + seed + " keys " + keys + " fetch " + fetch + " dropped " + dropped;
      assertRows(what, expected(in.allRows(), keys, TYPES, 0, fetch), actual(workers[0], TYPES, 0, fetch, 1024));
      droppedInAll += dropped;
    }
    assertTrue(droppedInAll > 10_000, "the threshold dropped " + droppedInAll + " rows");
  }

  @Test void everyTypeAsTheOnlyKey() {
    Random rnd = new Random(7);
    List<Col> cols = columns(rnd, 12);
    Input in = input(rnd, cols, Shape.DEFAULT, 6);
    for (int f = 1; f < TYPES.size(); f++) {
      for (boolean desc : new boolean[] {false, true}) {
        for (boolean nullsFirst : new boolean[] {false, true}) {
          List<Step.SortKey> keys = List.of(new Step.SortKey(f, desc, nullsFirst));
          for (long bound : new long[] {-1, 25}) {
            SortBuffer buf = new SortBuffer(TYPES, keys, bound);
            in.batches.forEach(buf::add);
            long fetch = bound < 0 ? -1 : bound;
            assertRows(TYPES.get(f) + " " + keys + " bound " + bound, expected(in.allRows(), keys, TYPES, 0, fetch),
                actual(buf, TYPES, 0, fetch, 1024));
          }
        }
      }
    }
  }

  @Test void unboundedBufferWithOffsetAndFetch() {
    Random rnd = new Random(8);
    Input in = input(rnd, columns(rnd, 5), Shape.DEFAULT, 10);
    List<Step.SortKey> keys = List.of(new Step.SortKey(4, true, false), new Step.SortKey(9, false, true));
    SortBuffer buf = new SortBuffer(TYPES, keys, -1);
    in.batches.forEach(buf::add);
    int n = in.allRows().size();
    assertEquals(n, buf.rows());
    for (long[] of : new long[][] {{0, -1}, {0, 0}, {3, -1}, {3, 7}, {n - 1, 5}, {n, 1}, {n + 10, -1}, {0, n + 10}}) {
      assertRows("offset " + of[0] + " fetch " + of[1], expected(in.allRows(), keys, TYPES, of[0], of[1]),
          actual(buf, TYPES, of[0], of[1], 100));
    }
  }

  /** Bounds 0, 1, 10, 1000 (the heap) over many small batches: the heap compacts every 64 batches. */
  @Test void topNHeapOverManyBatches() {
    for (long bound : new long[] {0, 1, 10, 1000}) {
      Random rnd = new Random(bound);
      List<Col> cols = columns(rnd, 4);
      Input in = input(rnd, cols, new Shape(120, 0.15, 0.3), 300);
      assertTrue(in.batches.size() > 4 * 64);
      List<Step.SortKey> keys = List.of(new Step.SortKey(2, false, true), new Step.SortKey(9, true, false));
      SortBuffer buf = new SortBuffer(TYPES, keys, bound);
      SortBuffer all = new SortBuffer(TYPES, keys, -1);
      for (Batch b : in.batches) {
        buf.add(b);
        all.add(b);
        assertTrue(buf.rows() <= bound, "heap holds " + buf.rows() + " rows for bound " + bound);
      }
      for (long offset : new long[] {0, bound / 2}) {
        long fetch = bound - offset;
        assertRows("bound " + bound + " offset " + offset, expected(in.allRows(), keys, TYPES, offset, fetch),
            actual(buf, TYPES, offset, fetch, 7));
      }
      // a top-N holds O(N) rows, not the input
      if (bound <= 10) {
        assertTrue(buf.bytes() * 4 < all.bytes(), "top-" + bound + " holds " + buf.bytes() + " bytes, all rows "
            + all.bytes());
      }
    }
  }

  /** Bounds above 65536 compact to the best rows whenever twice the bound is held. */
  @Test void largeBoundCompacts() {
    List<DataType> types = List.of(BIG, INT, DBL);
    Random rnd = new Random(9);
    List<Col> cols = List.of(Col.of(rnd, BIG, 1, 0), Col.of(rnd, INT, 50, 0.1), Col.of(rnd, DBL, 8, 0.1));
    List<Step.SortKey> keys = List.of(new Step.SortKey(1, true, true), new Step.SortKey(2, false, false));
    Input in = new Input();
    int rows = 0;
    while (rows < 150_000) {
      Generated g = VectorFixtures.batch(rnd, cols, new Shape(2048, 0.05, 0.5));
      in.add(g);
      rows += g.rows().size();
    }
    List<Object[]> sorted = expected(in.allRows(), keys, types, 0, -1);
    // 65536: the largest heap; 70000 compacts (at 140000 rows)
    for (long[] bf : new long[][] {{65_536, 0}, {70_000, 5}}) {
      long bound = bf[0];
      long offset = bf[1];
      SortBuffer buf = new SortBuffer(types, keys, bound);
      for (Batch b : in.batches) {
        buf.add(b);
        assertTrue(buf.rows() <= Math.max(2 * bound, 4096) + 2048, buf.rows() + " rows held for bound " + bound);
      }
      assertRows("bound " + bound, sorted.subList((int) offset, (int) bound),
          actual(buf, types, offset, bound - offset, 65_536));
    }
  }

  /** Partial buffers (one per worker) merged: the rows of all, ties in the order buffer 0's, 1's, … */
  @Test void mergeOfSeveralBuffers() {
    for (long seed = 1; seed <= 16; seed++) {
      Random rnd = new Random(seed);
      List<Col> cols = columns(rnd, 3 + rnd.nextInt(4));
      Input in = input(rnd, cols, new Shape(400, 0.1, 0.3), 10 + rnd.nextInt(60));
      List<Step.SortKey> keys = randomKeys(rnd, TYPES.size());
      long fetch = randomFetch(rnd);
      long offset = rnd.nextInt(3) == 0 ? rnd.nextInt(20) : 0;
      long bound = new Step.Sort(keys, offset, fetch).bound();
      int parts = 2 + rnd.nextInt(3);
      List<SortBuffer> bufs = new ArrayList<>();
      List<List<Object[]>> partRows = new ArrayList<>();
      for (int p = 0; p < parts; p++) {
        bufs.add(new SortBuffer(TYPES, keys, bound));
        partRows.add(new ArrayList<>());
      }
      for (int i = 0; i < in.batches.size(); i++) {
        int p = rnd.nextInt(parts);
        bufs.get(p).add(in.batches.get(i));
        partRows.get(p).addAll(in.rows.get(i));
      }
      boolean prepared = rnd.nextBoolean();
      if (prepared) {
        bufs.forEach(SortBuffer::prepare); // as FragmentRunner does, on its pool, before it merges them
      }
      SortBuffer into = bufs.get(0);
      for (int p = 1; p < parts; p++) {
        into.merge(bufs.get(p));
      }
      List<Object[]> order = new ArrayList<>();
      partRows.forEach(order::addAll);
      String what = "seed " + seed + ", " + parts + " buffers" + (prepared ? " prepared" : "") + ", keys " + keys
          + " offset " + offset + " fetch " + fetch;
      assertRows(what, expected(order, keys, TYPES, offset, fetch), actual(into, TYPES, offset, fetch, 500));
    }
  }

  /** The same, but the keys alone decide the order (no ties): what SQL promises. */
  @Test void mergeOfSeveralBuffersWithoutTies() {
    for (long seed = 1; seed <= 12; seed++) {
      Random rnd = new Random(seed);
      List<Col> cols = columns(rnd, 4);
      Input in = input(rnd, cols, new Shape(400, 0.1, 0.3), 10 + rnd.nextInt(100));
      List<Step.SortKey> keys = new ArrayList<>(randomKeys(rnd, TYPES.size()));
      keys.add(new Step.SortKey(0, rnd.nextBoolean(), false)); // the row number breaks every tie
      long fetch = randomFetch(rnd);
      long bound = new Step.Sort(keys, 0, fetch).bound();
      SortBuffer[] bufs = {new SortBuffer(TYPES, keys, bound), new SortBuffer(TYPES, keys, bound),
          new SortBuffer(TYPES, keys, bound)};
      for (Batch b : in.batches) {
        bufs[rnd.nextInt(3)].add(b);
      }
      bufs[0].merge(bufs[1]);
      bufs[0].merge(bufs[2]);
      assertRows("seed " + seed + " keys " + keys + " fetch " + fetch, expected(in.allRows(), keys, TYPES, 0, fetch),
          actual(bufs[0], TYPES, 0, fetch, 500));
    }
  }

  @Test void emptyBuffer() {
    List<Step.SortKey> keys = List.of(new Step.SortKey(1, false, false));
    for (long bound : new long[] {-1, 0, 5, 100_000}) {
      SortBuffer buf = new SortBuffer(TYPES, keys, bound);
      Random rnd = new Random(1);
      Generated g = VectorFixtures.batch(rnd, columns(rnd, 3), Shape.DEFAULT);
      buf.add(new Batch(g.batch().cols(), g.batch().sel(), 0));
      buf.merge(new SortBuffer(TYPES, keys, bound));
      assertEquals(0, buf.rows());
      assertEquals(List.of(), buf.result(0, -1, 10));
    }
  }

  /** LIMIT 9223372036854775807 OFFSET 1 (a common way to say "all rows after the first"). */
  @Test void hugeFetchAfterAnOffset() {
    Random rnd = new Random(10);
    Input in = input(rnd, columns(rnd, 5), Shape.DEFAULT, 4);
    List<Step.SortKey> keys = List.of(new Step.SortKey(4, false, false));
    long offset = 1;
    long fetch = Long.MAX_VALUE;
    SortBuffer buf = new SortBuffer(TYPES, keys, new Step.Sort(keys, offset, fetch).bound());
    in.batches.forEach(buf::add);
    assertRows("offset 1 fetch Long.MAX_VALUE", expected(in.allRows(), keys, TYPES, offset, fetch),
        actual(buf, TYPES, offset, fetch, 1024));
  }

  /** Minimal case of the above: ties of a merged top-N buffer come back in heap order. */
  @Test void mergeKeepsTiesInInputOrder() {
    List<DataType> types = List.of(BIG, BIG);
    List<Step.SortKey> keys = List.of(new Step.SortKey(1, false, false));
    SortBuffer other = new SortBuffer(types, keys, 3);
    other.add(new Batch(new ColumnVector[] {VectorFixtures.vector(BIG, 10L, 11L, 12L, 13L),
        VectorFixtures.vector(BIG, 7L, 7L, 7L, 7L)}, Columns.identity(4), 4));
    SortBuffer into = new SortBuffer(types, keys, 3);
    into.merge(other);
    List<Object> ids = new ArrayList<>();
    actual(into, types, 0, 3, 10).forEach(r -> ids.add(r[0]));
    assertEquals(List.of(10L, 11L, 12L), ids); // got [12, 10, 11]: other's heap array order
  }

  /**
   * A bound above any row count (LIMIT 9223372036854775807) must not compact: compaction at 4096
   * rows (2 * bound overflows) re-sorts and copies every row held on every later batch, quadratic:
   * 100 k rows take 6.6 s instead of 25 ms. Observable without timing: compaction copies only the
   * selected rows, so the buffer then holds fewer bytes than one without a bound.
   */
  @Test void hugeBoundDoesNotCompact() {
    List<DataType> types = List.of(BIG, BIG);
    List<Step.SortKey> keys = List.of(new Step.SortKey(1, false, false));
    SortBuffer unbounded = new SortBuffer(types, keys, -1);
    SortBuffer huge = new SortBuffer(types, keys, Long.MAX_VALUE);
    for (int i = 0; i < 20; i++) {
      LongColumnVector a = new LongColumnVector(1024);
      LongColumnVector k = new LongColumnVector(1024);
      for (int j = 0; j < 1024; j++) {
        a.vector[j] = i * 1024L + j;
        k.vector[j] = (j * 31L + i) % 100;
      }
      int[] sel = new int[512]; // every other row
      for (int j = 0; j < sel.length; j++) {
        sel[j] = 2 * j;
      }
      Batch b = new Batch(new ColumnVector[] {a, k}, sel, sel.length);
      unbounded.add(b);
      huge.add(b);
    }
    assertEquals(unbounded.rows(), huge.rows());
    assertEquals(unbounded.bytes(), huge.bytes(), "a bound of Long.MAX_VALUE compacted the buffer");
    assertRows("Long.MAX_VALUE bound", actual(unbounded, types, 0, -1, 4096), actual(huge, types, 0, Long.MAX_VALUE, 4096));
  }

  /**
   * Batches sorted by themselves, as a replica's sorted output arrives: slices of 1 to 4 sorted
   * parts of the input, some with gaps in their selection, in a random order.
   */
  static List<Batch> sortedSlices(Random rnd, Input in, List<Step.SortKey> keys) {
    int parts = 1 + rnd.nextInt(4);
    List<SortBuffer> sorters = new ArrayList<>();
    for (int p = 0; p < parts; p++) {
      sorters.add(new SortBuffer(TYPES, keys, -1));
    }
    in.batches.forEach(b -> sorters.get(rnd.nextInt(parts)).add(b));
    List<Batch> slices = new ArrayList<>();
    for (SortBuffer s : sorters) {
      for (Batch b : s.result(0, -1, 1 + rnd.nextInt(300))) {
        if (rnd.nextInt(3) == 0) {
          int[] sel = new int[(b.size() + 1) / 2];
          for (int k = 0; k < sel.length; k++) {
            sel[k] = 2 * k;
          }
          b = new Batch(b.cols(), sel, sel.length);
        }
        slices.add(b);
      }
    }
    java.util.Collections.shuffle(slices, rnd);
    return slices;
  }

  /**
   * Sorted runs are merged, not sorted again: the result must be a stable sort's all the same,
   * also when an unsorted batch comes among them (the buffer then sorts everything).
   */
  @Test void sortedRunsGiveAStableSort() {
    for (long seed = 1; seed <= 30; seed++) {
      Random rnd = new Random(seed);
      Input in = input(rnd, columns(rnd, 2 + rnd.nextInt(8)), new Shape(400, 0.1, 0.3), 1 + rnd.nextInt(40));
      List<Step.SortKey> keys = randomKeys(rnd, TYPES.size());
      List<Batch> fed = sortedSlices(rnd, in, keys);
      boolean unsorted = rnd.nextInt(4) == 0;
      if (unsorted) {
        fed.add(rnd.nextInt(fed.size() + 1), in.batches.get(rnd.nextInt(in.batches.size())));
      }
      long offset = rnd.nextInt(4) == 0 ? rnd.nextInt(100) : 0;
      long fetch = rnd.nextBoolean() ? -1 : randomFetch(rnd);
      SortBuffer buf = new SortBuffer(TYPES, keys, rnd.nextBoolean() ? -1 : Long.MAX_VALUE);
      List<Object[]> order = new ArrayList<>();
      for (Batch b : fed) {
        buf.add(b);
        order.addAll(VectorFixtures.rows(b, TYPES));
      }
      if (!unsorted) {
        assertTrue(buf.sortedRuns() >= 1 && buf.sortedRuns() <= fed.size(), "runs noted: " + buf.sortedRuns());
      }
      String what = "seed " + seed + ", " + fed.size() + " batches" + (unsorted ? " with an unsorted one" : "")
          + ", keys " + keys + " offset " + offset + " fetch " + fetch;
      assertRows(what, expected(order, keys, TYPES, offset, fetch), actual(buf, TYPES, offset, fetch, 300));
    }
  }

  /** Buffers of sorted runs merged into one (the initiator's receiving workers' buffers). */
  @Test void mergeOfBuffersOfSortedRuns() {
    for (long seed = 1; seed <= 20; seed++) {
      Random rnd = new Random(seed);
      Input in = input(rnd, columns(rnd, 2 + rnd.nextInt(6)), new Shape(400, 0.1, 0.3), 5 + rnd.nextInt(40));
      List<Step.SortKey> keys = randomKeys(rnd, TYPES.size());
      int parts = 2 + rnd.nextInt(3);
      List<SortBuffer> bufs = new ArrayList<>();
      List<List<Object[]>> partRows = new ArrayList<>();
      for (int p = 0; p < parts; p++) {
        bufs.add(new SortBuffer(TYPES, keys, -1));
        partRows.add(new ArrayList<>());
      }
      for (Batch b : sortedSlices(rnd, in, keys)) {
        int p = rnd.nextInt(parts);
        bufs.get(p).add(b);
        partRows.get(p).addAll(VectorFixtures.rows(b, TYPES));
      }
      if (rnd.nextBoolean()) {
        bufs.forEach(SortBuffer::prepare); // as FragmentRunner does, on its pool
      }
      SortBuffer into = bufs.get(0);
      for (int p = 1; p < parts; p++) {
        into.merge(bufs.get(p));
      }
      List<Object[]> order = new ArrayList<>();
      partRows.forEach(order::addAll);
      assertRows("seed " + seed + ", " + parts + " buffers, keys " + keys, expected(order, keys, TYPES, 0, -1),
          actual(into, TYPES, 0, -1, 500));
    }
  }

  /**
   * A bound past the heap's (no heap) compacts the buffer to its best rows while sorted runs keep
   * coming: what it keeps is one run, and the runs after it merge with it.
   */
  @Test void compactionBetweenSortedRuns() {
    List<DataType> types = List.of(BIG, BIG);
    List<Step.SortKey> keys = List.of(new Step.SortKey(1, true, false));
    int bound = 70_000;
    SortBuffer buf = new SortBuffer(types, keys, bound);
    Random rnd = new Random(7);
    List<long[]> all = new ArrayList<>();
    long id = 0;
    for (int i = 0; i < 300; i++) {
      long[] values = new long[1024];
      for (int j = 0; j < values.length; j++) {
        values[j] = rnd.nextInt(50_000);
      }
      Arrays.sort(values);
      LongColumnVector a = new LongColumnVector(1024);
      LongColumnVector k = new LongColumnVector(1024);
      for (int j = 0; j < 1024; j++) { // descending, as the key is
        a.vector[j] = id;
        k.vector[j] = values[1023 - j];
        all.add(new long[] {id++, k.vector[j]});
      }
      buf.add(new Batch(new ColumnVector[] {a, k}, Columns.identity(1024), 1024));
    }
    all.sort((x, y) -> Long.compare(y[1], x[1])); // stable: ties by id
    List<Object[]> expected = new ArrayList<>();
    for (long[] r : all.subList(0, bound)) {
      expected.add(new Object[] {r[0], r[1]});
    }
    assertRows("300 sorted runs, bound " + bound, expected, actual(buf, types, 0, bound, 4096));
  }

  /** Sorted batches are merged as runs, not sorted again; one batch out of order ends that. */
  @Test void runsAreNotedAndMerged() {
    List<DataType> types = List.of(BIG, BIG);
    List<Step.SortKey> keys = List.of(new Step.SortKey(1, false, false));
    SortBuffer buf = new SortBuffer(types, keys, -1);
    long id = 0;
    for (int b = 0; b < 5; b++) {
      LongColumnVector a = new LongColumnVector(100);
      LongColumnVector k = new LongColumnVector(100);
      for (int j = 0; j < 100; j++) {
        a.vector[j] = id++;
        k.vector[j] = (b * 37L) % 11 + 2L * j; // each batch in order, the batches interleaved
      }
      buf.add(new Batch(new ColumnVector[] {a, k}, Columns.identity(100), 100));
    }
    assertEquals(5, buf.sortedRuns());
    assertTrue(buf.bytes() >= 8L * 500, "the merge's array is counted: " + buf.bytes());
    buf.prepare();
    assertEquals(1, buf.sortedRuns());
    List<Object[]> rows = actual(buf, types, 0, -1, 1000);
    for (int i = 1; i < rows.size(); i++) {
      assertTrue((Long) rows.get(i - 1)[1] <= (Long) rows.get(i)[1], "row " + i);
    }
    LongColumnVector a = new LongColumnVector(2);
    LongColumnVector k = new LongColumnVector(2);
    k.vector[0] = 5;
    k.vector[1] = 4;
    SortBuffer other = new SortBuffer(types, keys, -1);
    other.add(new Batch(new ColumnVector[] {a, k}, Columns.identity(2), 2));
    assertEquals(-1, other.sortedRuns());
  }

  /** Buffers whose rows together pass twice a large bound (no heap) compact while they merge. */
  @Test void mergeThenCompaction() {
    for (long seed = 1; seed <= 3; seed++) {
      Random rnd = new Random(seed);
      List<DataType> types = List.of(BIG, BIG);
      List<Step.SortKey> keys = List.of(new Step.SortKey(1, rnd.nextBoolean(), false));
      int bound = 70_000;
      List<SortBuffer> bufs = new ArrayList<>();
      List<long[]> all = new ArrayList<>();
      long id = 0;
      for (int p = 0; p < 3; p++) {
        SortBuffer buf = new SortBuffer(types, keys, bound);
        for (int b = 0; b < 60; b++) {
          LongColumnVector a = new LongColumnVector(1024);
          LongColumnVector k = new LongColumnVector(1024);
          for (int j = 0; j < 1024; j++) {
            a.vector[j] = id++;
            k.vector[j] = rnd.nextInt(40_000);
            all.add(new long[] {a.vector[j], k.vector[j]});
          }
          buf.add(new Batch(new ColumnVector[] {a, k}, Columns.identity(1024), 1024));
        }
        bufs.add(buf);
      }
      bufs.forEach(SortBuffer::prepare);
      bufs.get(0).merge(bufs.get(1));
      bufs.get(0).merge(bufs.get(2));
      boolean desc = keys.get(0).descending();
      all.sort((x, y) -> desc ? Long.compare(y[1], x[1]) : Long.compare(x[1], y[1])); // stable: ties by id
      List<Object[]> expected = new ArrayList<>();
      for (long[] r : all.subList(0, bound)) {
        expected.add(new Object[] {r[0], r[1]});
      }
      assertRows("seed " + seed + ", 3 buffers of 61,440 rows, bound " + bound, expected,
          actual(bufs.get(0), types, 0, bound, 4096));
    }
  }
}
