package dev.travertine.exec.agg;

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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.exec.Columns;
import dev.travertine.exec.agg.AggCall.AggFunction;
import dev.travertine.exec.op.MemoryTracker;
import dev.travertine.exec.op.VectorFixtures;
import dev.travertine.exec.op.VectorFixtures.Col;
import dev.travertine.exec.op.VectorFixtures.Generated;
import dev.travertine.exec.op.VectorFixtures.Shape;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.junit.jupiter.api.Test;

/**
 * HashAggregator against {@link AggReference} on seeded random batches: every group-table kind,
 * every aggregate function over every argument type, FILTER, selection vectors with gaps,
 * repeating vectors, NULLs; partial aggregates merged; no rows; many groups.
 */
public class HashAggregatorTest {
  // Fields of the generated input.
  public static final int K_BIG = 0;
  public static final int K_INT = 1;
  public static final int K_BIG2 = 2;
  public static final int K_STR = 3;
  public static final int K_DEC = 4;
  public static final int K_TS = 5;
  public static final int K_DBL = 6;
  public static final int F1 = 7;
  public static final int C_TINY = 8;
  public static final int C_SMALL = 9;
  public static final int C_REAL = 10;
  public static final int C_DATE = 11;
  public static final int C_CHAR = 12;
  public static final int F2 = 13;
  public static final List<DataType> TYPES = List.of(BIG, INT, BIG, STR, DEC, TS, DBL, BOOL, TINY, SMALL, REAL, DATE, CHR, BOOL);
  static final DataType SUM_DEC = DataType.decimal(38, 3);
  static final DataType AVG_DEC = DataType.decimal(20, 6);

  public static AggCall call(AggFunction f, int arg, boolean distinct, int filter, DataType type) {
    return new AggCall(f, arg, distinct, filter, type);
  }

  /** Every function over every argument type, with and without FILTER. */
  public static final List<AggCall> CALLS = allCalls();

  private static List<AggCall> allCalls() {
    List<AggCall> c = new ArrayList<>();
    c.add(call(AggFunction.COUNT, -1, false, -1, BIG));
    c.add(call(AggFunction.COUNT, -1, false, F1, BIG));
    for (int i = 0; i < TYPES.size(); i++) {
      DataType t = TYPES.get(i);
      c.add(call(AggFunction.COUNT, i, false, -1, BIG));
      c.add(call(AggFunction.COUNT, i, true, -1, BIG));
      c.add(call(AggFunction.MIN, i, false, -1, t));
      c.add(call(AggFunction.MAX, i, false, -1, t));
      c.add(call(AggFunction.MIN, i, false, i == F2 ? F1 : F2, t));
      c.add(call(AggFunction.MAX, i, false, F1, t));
    }
    c.add(call(AggFunction.COUNT, K_INT, false, F2, BIG));
    c.add(call(AggFunction.COUNT, K_BIG2, true, F1, BIG));
    c.add(call(AggFunction.COUNT, K_STR, true, F2, BIG));
    c.add(call(AggFunction.COUNT, K_DBL, true, F1, BIG));
    for (int i : new int[] {K_BIG, K_INT, K_BIG2, C_TINY, C_SMALL}) {
      c.add(call(AggFunction.SUM, i, false, -1, BIG));
      c.add(call(AggFunction.SUM0, i, false, -1, BIG));
      c.add(call(AggFunction.AVG, i, false, -1, TYPES.get(i)));
      c.add(call(AggFunction.AVG, i, false, -1, DBL));
      c.add(call(AggFunction.SUM, i, false, F1, BIG));
      c.add(call(AggFunction.SUM0, i, false, F2, BIG));
    }
    for (int i : new int[] {K_DBL, C_REAL}) {
      DataType t = TYPES.get(i);
      c.add(call(AggFunction.SUM, i, false, -1, t));
      c.add(call(AggFunction.SUM0, i, false, -1, t));
      c.add(call(AggFunction.AVG, i, false, -1, t));
      c.add(call(AggFunction.SUM, i, false, F2, t));
      c.add(call(AggFunction.SUM0, i, false, F1, t));
      c.add(call(AggFunction.AVG, i, false, F1, t));
    }
    c.add(call(AggFunction.SUM, K_DEC, false, -1, SUM_DEC));
    c.add(call(AggFunction.SUM0, K_DEC, false, -1, SUM_DEC));
    c.add(call(AggFunction.AVG, K_DEC, false, -1, AVG_DEC));
    c.add(call(AggFunction.SUM, K_DEC, false, F2, SUM_DEC));
    c.add(call(AggFunction.SUM0, K_DEC, false, F1, SUM_DEC));
    c.add(call(AggFunction.AVG, K_DEC, false, F2, AVG_DEC));
    return List.copyOf(c);
  }

  /** Columns of the input; {@code distinct[i]} values in field i (0 = a default). */
  public static List<Col> columns(Random rnd, int[] distinct, double nullRate) {
    int[] defaults = {300, 40, 25, 60, 50, 40, 12, 2, 256, 100, 60, 200, 15, 2};
    List<Col> cols = new ArrayList<>();
    for (int i = 0; i < TYPES.size(); i++) {
      int d = distinct.length > i && distinct[i] > 0 ? distinct[i] : defaults[i];
      cols.add(Col.of(rnd, TYPES.get(i), d, i == F1 || i == F2 ? 0.15 : nullRate));
    }
    return cols;
  }

  public static List<Generated> batches(Random rnd, List<Col> cols, Shape shape, int count) {
    List<Generated> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(VectorFixtures.batch(rnd, cols, shape));
    }
    return out;
  }

  public static List<Object[]> rows(List<Generated> batches) {
    List<Object[]> rows = new ArrayList<>();
    batches.forEach(g -> rows.addAll(g.rows()));
    return rows;
  }

  static HashAggregator aggregate(List<Generated> batches, int[] keys, List<AggCall> calls) {
    HashAggregator h = new HashAggregator(TYPES, keys, calls);
    batches.forEach(g -> h.add(g.batch()));
    return h;
  }

  /**
   * One aggregator, and the batches spread over 2-4 merged partials (into the largest, as
   * FragmentRunner does, or into the first, which may have seen no rows), equal the reference.
   */
  static void check(String name, long seed, int[] keys, int[] distinct, double nullRate, Shape shape, int nBatches) {
    Random rnd = new Random(seed);
    List<Col> cols = columns(rnd, distinct, nullRate);
    List<Generated> batches = batches(rnd, cols, shape, nBatches);
    checkBatches(name + " seed " + seed, rnd, batches, keys, CALLS);
  }

  static void checkBatches(String name, Random rnd, List<Generated> batches, int[] keys, List<AggCall> calls) {
    Map<List<Object>, List<Object>> expected = AggReference.aggregate(rows(batches), TYPES, keys, calls);
    HashAggregator one = aggregate(batches, keys, calls);
    AggReference.assertSame(name + ", one aggregator", expected,
        AggReference.actual(one, TYPES, keys, calls, 1 + rnd.nextInt(700)), calls);

    int parts = 2 + rnd.nextInt(3);
    List<List<Generated>> split = new ArrayList<>();
    for (int p = 0; p < parts; p++) {
      split.add(new ArrayList<>());
    }
    // the last few batches go to the merged aggregator after the merge
    int late = rnd.nextInt(Math.min(4, batches.size() + 1));
    for (Generated g : batches.subList(0, batches.size() - late)) {
      split.get(rnd.nextInt(parts)).add(g);
    }
    if (rnd.nextBoolean()) { // the first partial sees nothing
      split.get(1).addAll(split.get(0));
      split.get(0).clear();
    }
    List<HashAggregator> partials = new ArrayList<>();
    split.forEach(s -> partials.add(aggregate(s, keys, calls)));
    HashAggregator into;
    if (rnd.nextBoolean()) {
      partials.sort((x, y) -> Integer.compare(y.groups(), x.groups()));
    }
    into = partials.get(0);
    for (int p = 1; p < partials.size(); p++) {
      into.merge(partials.get(p));
    }
    for (Generated g : batches.subList(batches.size() - late, batches.size())) {
      into.add(g.batch());
    }
    AggReference.assertSame(name + ", " + parts + " merged partials, then " + late + " batches", expected,
        AggReference.actual(into, TYPES, keys, calls, 1 + rnd.nextInt(700)), calls);
  }

  static final int[] NONE = {};

  @Test void noKeys() {
    for (long seed = 1; seed <= 2; seed++) {
      check("no keys", seed, NONE, NONE, 0.2, Shape.DEFAULT, 18);
    }
  }

  @Test void noKeysDenseNoNullBatches() {
    // the one-group fast paths (addAll over a dense selection, no NULLs)
    for (long seed = 1; seed <= 2; seed++) {
      check("no keys, dense", seed, NONE, NONE, 0.0, new Shape(1024, 0.0, 1.0), 20);
    }
  }

  @Test void oneBigintKey() {
    for (long seed = 1; seed <= 2; seed++) {
      check("BIGINT key", seed, new int[] {K_BIG}, NONE, 0.0, new Shape(1500, 0.1, 1.0), 25);
    }
  }

  @Test void oneBigintKeyWithNullsAndRepeats() {
    for (long seed = 1; seed <= 2; seed++) {
      check("BIGINT key, NULLs", seed, new int[] {K_BIG}, new int[] {50}, 0.1, new Shape(1500, 0.3, 0.3), 25);
    }
  }

  @Test void sortedBigintKeyRuns() {
    // runs of equal keys take LongKeys' shortcut past the map; runs cross batch boundaries
    for (long seed = 1; seed <= 2; seed++) {
      Random rnd = new Random(seed);
      List<Col> cols = columns(rnd, NONE, 0.1);
      List<Generated> batches = batches(rnd, cols, new Shape(1500, 0.05, 0.3), 25);
      long next = -5;
      List<Generated> sorted = new ArrayList<>();
      for (Generated g : batches) {
        Batch b = g.batch();
        LongColumnVector v = new LongColumnVector(b.cols()[0].isNull.length);
        int run = 1 + rnd.nextInt(50);
        for (int i = 0; i < v.vector.length; i++) {
          v.vector[i] = next + i / run;
        }
        next += v.vector.length / run;
        ColumnVector[] c = b.cols().clone();
        c[K_BIG] = v;
        List<Object[]> rows = new ArrayList<>();
        for (int k = 0; k < b.size(); k++) {
          Object[] row = g.rows().get(k).clone();
          row[K_BIG] = v.vector[b.sel()[k]];
          rows.add(row);
        }
        sorted.add(new Generated(new Batch(c, b.sel(), b.size()), rows));
      }
      checkBatches("sorted BIGINT key seed " + seed, rnd, sorted, new int[] {K_BIG}, CALLS);
    }
  }

  @Test void oneIntegerKeyWithNulls() {
    for (long seed = 1; seed <= 2; seed++) {
      check("INTEGER key, NULLs", seed, new int[] {K_INT}, NONE, 0.2, Shape.DEFAULT, 18);
    }
  }

  @Test void otherLongBackedKeys() {
    for (int k : new int[] {F1, C_TINY, C_SMALL, C_DATE}) {
      check("key $" + k, 7, new int[] {k}, NONE, 0.1, Shape.DEFAULT, 15);
    }
  }

  @Test void twoLongKeysWithNulls() {
    for (long seed = 1; seed <= 2; seed++) {
      check("two long keys", seed, new int[] {K_BIG, K_BIG2}, new int[] {30, 0, 20}, 0.1, Shape.DEFAULT, 18);
    }
  }

  @Test void twoLongKeysNoNulls() {
    for (long seed = 1; seed <= 2; seed++) {
      check("two long keys, no NULLs", seed, new int[] {K_BIG2, K_BIG}, new int[] {30, 0, 20}, 0.0,
          new Shape(1500, 0.0, 1.0), 25);
    }
  }

  @Test void twoLongKeysRepeatingVectors() {
    for (long seed = 1; seed <= 2; seed++) {
      check("two long keys, repeating", seed, new int[] {K_INT, K_BIG2}, new int[] {0, 10, 10}, 0.2,
          new Shape(1500, 0.5, 0.3), 30);
      check("two long keys (BOOLEAN, DATE), repeating", seed, new int[] {F1, C_DATE}, NONE, 0.2,
          new Shape(1500, 0.5, 0.3), 15);
    }
  }

  @Test void varcharKey() {
    for (long seed = 1; seed <= 2; seed++) {
      check("VARCHAR key", seed, new int[] {K_STR}, NONE, 0.15, Shape.DEFAULT, 18);
    }
  }

  @Test void longAndStringKeysWithNullsAndRepeats() {
    // TupleKeys: string ids beside long values, NULLs in both kinds, repeating vectors
    for (long seed = 1; seed <= 2; seed++) {
      check("BIGINT, VARCHAR keys", seed, new int[] {K_BIG, K_STR}, new int[] {40, 0, 0, 12}, 0.15,
          new Shape(1500, 0.3, 0.3), 20);
      check("VARCHAR, SMALLINT, CHAR, DATE keys", seed, new int[] {K_STR, C_SMALL, C_CHAR, C_DATE},
          new int[] {0, 0, 0, 5, 0, 0, 0, 0, 0, 4, 0, 3, 3}, 0.15, Shape.DEFAULT, 18);
      check("two VARCHAR keys (one column twice)", seed, new int[] {K_STR, K_INT, K_STR}, new int[] {0, 7, 0, 9}, 0.2,
          new Shape(1500, 0.5, 0.3), 15);
    }
  }

  /**
   * String keys as dictionary vectors (what the decoded-column cache hands out): one key, two keys
   * (the pairs memo when neither has NULLs), with a string and a long key; the dictionaries grow
   * from batch to batch and change halfway, as the tasks of several parts do.
   */
  @Test void dictionaryStringKeys() {
    for (double nullRate : new double[] {0.0, 0.15}) {
      for (int[] keys : new int[][] {{K_STR}, {K_STR, C_CHAR}, {C_CHAR, K_STR}, {K_STR, K_BIG}}) {
        Random rnd = new Random(41);
        List<Col> cols = columns(rnd, new int[] {40, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0, 5}, nullRate);
        List<Generated> batches = batches(rnd, cols, new Shape(1500, 0.0, 0.5), 16);
        List<Generated> dict = new ArrayList<>();
        dev.travertine.vector.StringDictionary[] dicts = new dev.travertine.vector.StringDictionary[TYPES.size()];
        for (int i = 0; i < batches.size(); i++) {
          Generated g = batches.get(i);
          ColumnVector[] c = g.batch().cols().clone();
          for (int col : new int[] {K_STR, C_CHAR}) {
            if (dicts[col] == null || i == batches.size() / 2) {
              dicts[col] = new dev.travertine.vector.StringDictionary();
            }
            BytesColumnVector v = (BytesColumnVector) c[col];
            int size = g.batch().size();
            int len = v.isRepeating ? 1 : size == 0 ? 0 : g.batch().sel()[size - 1] + 1;
            c[col] = dev.travertine.vector.DictionaryVector.encode(v, len, dicts[col], 1 << 20);
          }
          dict.add(new Generated(new Batch(c, g.batch().sel(), g.batch().size()), g.rows()));
        }
        checkBatches("dictionary keys " + Arrays.toString(keys) + " nulls " + nullRate, rnd, dict, keys, CALLS);
      }
    }
  }

  @Test void charKey() {
    check("CHAR key", 3, new int[] {C_CHAR}, NONE, 0.15, Shape.DEFAULT, 15);
  }

  @Test void decimalKey() {
    for (long seed = 1; seed <= 2; seed++) {
      check("DECIMAL key", seed, new int[] {K_DEC}, NONE, 0.15, Shape.DEFAULT, 18);
    }
  }

  @Test void timestampKey() {
    for (long seed = 1; seed <= 2; seed++) {
      check("TIMESTAMP key", seed, new int[] {K_TS}, NONE, 0.15, Shape.DEFAULT, 18);
    }
  }

  @Test void doubleKeyWithNegativeZeroAndNaN() {
    // -0.0 and 0.0 are two groups, every NaN one (Double.equals, as Calcite's Enumerable groups them)
    for (long seed = 1; seed <= 2; seed++) {
      check("DOUBLE key", seed, new int[] {K_DBL}, NONE, 0.15, Shape.DEFAULT, 18);
    }
    check("REAL key", 5, new int[] {C_REAL}, new int[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15}, 0.15, Shape.DEFAULT, 15);
  }

  @Test void threeMixedKeys() {
    for (long seed = 1; seed <= 2; seed++) {
      check("INTEGER, VARCHAR, TIMESTAMP keys", seed, new int[] {K_INT, K_STR, K_TS}, new int[] {0, 6, 0, 8, 0, 5},
          0.15, Shape.DEFAULT, 18);
      check("BOOLEAN, DECIMAL, DOUBLE, CHAR keys", seed, new int[] {F1, K_DEC, K_DBL, C_CHAR},
          new int[] {0, 0, 0, 0, 4, 0, 6, 0, 0, 0, 0, 0, 3}, 0.15, Shape.DEFAULT, 18);
    }
  }

  @Test void keyOrderInOutputFollowsTheKeysArray() {
    // keys listed out of field order: the output has them in the keys' order
    check("keys [VARCHAR, BIGINT, INTEGER]", 11, new int[] {K_STR, K_BIG2, K_INT}, new int[] {0, 5, 5, 5}, 0.1,
        Shape.DEFAULT, 20);
  }

  // ---- no rows

  @Test void noRowsWithoutKeysGivesOneRow() {
    List<AggCall> calls = List.of(
        call(AggFunction.COUNT, -1, false, -1, BIG),
        call(AggFunction.COUNT, K_STR, false, -1, BIG),
        call(AggFunction.COUNT, K_STR, true, -1, BIG),
        call(AggFunction.COUNT, K_BIG, true, -1, BIG),
        call(AggFunction.SUM, K_BIG, false, -1, BIG),
        call(AggFunction.SUM0, K_BIG, false, -1, BIG),
        call(AggFunction.SUM0, K_DBL, false, -1, DBL),
        call(AggFunction.SUM0, K_DEC, false, -1, SUM_DEC),
        call(AggFunction.SUM, K_DEC, false, -1, SUM_DEC),
        call(AggFunction.AVG, K_DBL, false, -1, DBL),
        call(AggFunction.MIN, K_STR, false, -1, STR),
        call(AggFunction.MAX, K_TS, false, -1, TS));
    List<Object> want = Arrays.asList(0L, 0L, 0L, 0L, null, 0L, 0.0, BigDecimal.ZERO, null, null, null, null);
    for (int variant = 0; variant < 3; variant++) {
      HashAggregator h = new HashAggregator(TYPES, NONE, calls);
      Random rnd = new Random(variant);
      if (variant >= 1) { // batches whose selection is empty
        Generated g = VectorFixtures.batch(rnd, columns(rnd, NONE, 0.1), Shape.DEFAULT);
        h.add(new Batch(g.batch().cols(), g.batch().sel(), 0));
      }
      if (variant == 2) { // and the merge of a partial that saw nothing
        HashAggregator other = new HashAggregator(TYPES, NONE, calls);
        h.merge(other);
      }
      assertEquals(1, h.groups());
      Map<List<Object>, List<Object>> got = AggReference.actual(h, TYPES, NONE, calls, 1024);
      assertEquals(Map.of(List.of(), want), got);
    }
  }

  @Test void noRowsWithKeysGivesNoRows() {
    for (int[] keys : new int[][] {{K_BIG}, {K_BIG, K_INT}, {K_STR}}) {
      HashAggregator h = new HashAggregator(TYPES, keys, CALLS);
      h.merge(new HashAggregator(TYPES, keys, CALLS));
      assertEquals(0, h.groups());
      assertEquals(List.of(), h.result(100));
    }
  }

  @Test void filterFalseEverywhereWithoutKeys() {
    // all FILTER columns FALSE or NULL: filtered calls see no rows
    Random rnd = new Random(3);
    List<Col> cols = columns(rnd, NONE, 0.1);
    cols.set(F1, new Col(BOOL, List.of(0L), 0.3));
    cols.set(F2, new Col(BOOL, List.of(0L), 0.3));
    checkBatches("FILTER never TRUE", rnd, batches(rnd, cols, Shape.DEFAULT, 10), NONE, CALLS);
    checkBatches("FILTER never TRUE, keyed", rnd, batches(rnd, cols, Shape.DEFAULT, 10), new int[] {K_INT}, CALLS);
  }

  // ---- many groups

  private static long scramble(long g) {
    long h = g * 0x9E3779B97F4A7C15L;
    return h ^ (h >>> 31);
  }

  /** 300 k groups, each twice: table growth of LongKeys, TupleKeys and StringKeys, and their merge. */
  @Test void manyGroups() {
    int groups = 300_000;
    int rows = 2 * groups;
    int batch = 4096;
    List<AggCall> calls = List.of(call(AggFunction.COUNT, -1, false, -1, BIG), call(AggFunction.SUM, 3, false, -1, BIG),
        call(AggFunction.MIN, 3, false, -1, BIG));
    List<Batch> input = new ArrayList<>();
    for (int from = 0; from < rows; from += batch) {
      int n = Math.min(batch, rows - from);
      LongColumnVector a = new LongColumnVector(n);
      LongColumnVector b = new LongColumnVector(n);
      BytesColumnVector s = new BytesColumnVector(n);
      s.initBuffer();
      LongColumnVector v = new LongColumnVector(n);
      for (int i = 0; i < n; i++) {
        int j = from + i;
        int g = j % groups;
        a.vector[i] = scramble(g);
        b.vector[i] = g % 2 == 0 ? g >> 9 : -(g >> 9);
        s.setVal(i, ("group-key-with-a-common-prefix-" + g).getBytes(StandardCharsets.UTF_8));
        v.vector[i] = j;
        if (g % 3 == 0) { // g twice, else g and g + groups
          v.vector[i] = g;
        }
      }
      // b.vector alone is not unique per group: (b, g & 511) is
      LongColumnVector c = new LongColumnVector(n);
      for (int i = 0; i < n; i++) {
        c.vector[i] = (from + i) % groups & 511;
      }
      input.add(new Batch(new ColumnVector[] {a, b, s, v, c}, Columns.identity(n), n));
    }
    List<DataType> withC = List.of(BIG, BIG, STR, BIG, BIG);
    for (int[] keys : new int[][] {{0}, {1, 4}, {2}, {2, 4}}) {
      // three partials of contiguous thirds: the first grows to 200 k groups, the merge to 300 k
      for (int parts : new int[] {3}) {
        HashAggregator[] hs = new HashAggregator[parts];
        for (int p = 0; p < parts; p++) {
          hs[p] = new HashAggregator(withC, keys, calls);
        }
        long lastBytes = hs[0].bytes();
        long firstBytes = lastBytes;
        for (int i = 0; i < input.size(); i++) {
          // partial p gets a contiguous third: every partial holds distinct and shared groups
          int p = (int) ((long) i * parts / input.size());
          hs[p].add(input.get(i));
          if (p == 0) {
            long now = hs[0].bytes();
            assertTrue(now >= lastBytes, "bytes() shrank: " + lastBytes + " -> " + now);
            lastBytes = now;
          }
        }
        for (int p = 1; p < parts; p++) {
          long before = hs[0].bytes();
          hs[0].merge(hs[p]);
          assertTrue(hs[0].bytes() >= before, "bytes() shrank in merge");
        }
        HashAggregator h = hs[0];
        String what = "keys " + Arrays.toString(keys) + ", " + parts + " partial(s)";
        assertEquals(groups, h.groups(), what);
        assertTrue(h.bytes() > firstBytes + 8L * groups, what + ": bytes() " + h.bytes() + " for " + groups + " groups");
        long[] seen = new long[groups];
        List<DataType> out = new ArrayList<>();
        for (int k : keys) {
          out.add(withC.get(k));
        }
        out.addAll(List.of(BIG, BIG, BIG));
        for (Batch b : h.result(65536)) {
          for (Object[] row : VectorFixtures.rows(b, out)) {
            int g = groupOf(keys, row);
            long count = (Long) row[keys.length];
            long sum = (Long) row[keys.length + 1];
            long min = (Long) row[keys.length + 2];
            seen[g]++;
            assertEquals(2, count, what + " group " + g);
            assertEquals(g % 3 == 0 ? 2L * g : 2L * g + groups, sum, what + " group " + g);
            assertEquals(g, min, what + " group " + g);
          }
        }
        for (int g = 0; g < groups; g++) {
          assertEquals(1, seen[g], what + ": group " + g + " output " + seen[g] + " times");
        }
      }
    }
  }

  /** The group number from the key values of {@link #manyGroups}. */
  private static int groupOf(int[] keys, Object[] row) {
    Object k = row[0];
    if (keys[0] == 2) {
      String s = (String) k;
      return Integer.parseInt(s.substring(s.lastIndexOf('-') + 1));
    }
    if (keys[0] == 0) {
      return GROUP_OF_SCRAMBLED.get((long) (Long) k);
    }
    long b = (Long) row[0];
    long c = (Long) row[1];
    return (int) (Math.abs(b) << 9 | c);
  }

  private static final it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap GROUP_OF_SCRAMBLED = scrambledIndex(300_000);

  private static it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap scrambledIndex(int n) {
    var m = new it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap(n);
    for (int g = 0; g < n; g++) {
      m.put(scramble(g), g);
    }
    return m;
  }

  @Test void bytesGrowWithGroupsForEveryState() {
    Random rnd = new Random(5);
    List<Col> cols = columns(rnd, new int[] {100_000, 0, 0, 100_000}, 0.05);
    for (int[] keys : new int[][] {{K_BIG}, {K_BIG, K_BIG2}, {K_STR}}) {
      HashAggregator h = new HashAggregator(TYPES, keys, CALLS);
      long before = h.bytes();
      assertTrue(before >= 0);
      for (int i = 0; i < 6; i++) {
        h.add(VectorFixtures.batch(rnd, cols, new Shape(2048, 0.0, 0.3)).batch());
      }
      assertTrue(h.groups() > 2000, "groups " + h.groups());
      assertTrue(h.bytes() > before + 8L * h.groups() * CALLS.size() / 2,
          Arrays.toString(keys) + ": " + before + " -> " + h.bytes() + " bytes for " + h.groups() + " groups");
    }
  }

  @Test void memoryAccountFailsTheQueryOncePastTheLimit() {
    // as FragmentRunner charges it: resize to bytes() after every batch
    MemoryTracker tracker = new MemoryTracker(1 << 20);
    MemoryTracker.Account acct = tracker.account();
    HashAggregator h = new HashAggregator(List.of(BIG), new int[] {0}, List.of(call(AggFunction.COUNT, -1, false, -1, BIG)));
    MemoryTracker.MemoryLimitExceededException e = assertThrows(MemoryTracker.MemoryLimitExceededException.class, () -> {
      for (long k = 0; k < 10_000_000; k += 1024) {
        LongColumnVector v = new LongColumnVector(1024);
        for (int i = 0; i < 1024; i++) {
          v.vector[i] = k + i;
        }
        h.add(new Batch(new ColumnVector[] {v}, Columns.identity(1024), 1024));
        acct.resize(h.bytes());
      }
    });
    assertTrue(e.getMessage().contains("max_memory_usage = 1048576"), e.getMessage());
    assertTrue(h.bytes() > 1 << 20);
    acct.release();
    assertEquals(0, tracker.used());
  }

  // ---- spot checks of the semantics the reference encodes

  @Test void semanticsSpotChecks() {
    List<DataType> types = List.of(DBL, STR, BIG);
    ColumnVector d = VectorFixtures.vector(DBL, 0.0, -0.0, Double.NaN, Double.longBitsToDouble(0x7ff8000000000abcL), null, 1.0);
    ColumnVector s = VectorFixtures.vector(STR, "", null, "\uFFFD", "😀", "é", "e");
    ColumnVector b = VectorFixtures.vector(BIG, 1L, 2L, 3L, 4L, 5L, 6L);
    Batch batch = new Batch(new ColumnVector[] {d, s, b}, Columns.identity(6), 6);
    List<AggCall> calls = List.of(call(AggFunction.COUNT, -1, false, -1, BIG), call(AggFunction.MIN, 1, false, -1, STR),
        call(AggFunction.MAX, 1, false, -1, STR), call(AggFunction.COUNT, 0, true, -1, BIG),
        call(AggFunction.MIN, 0, false, -1, DBL), call(AggFunction.MAX, 0, false, -1, DBL));
    HashAggregator noKeys = new HashAggregator(types, NONE, calls);
    noKeys.add(batch);
    Map<List<Object>, List<Object>> r = AggReference.actual(noKeys, types, NONE, calls, 10);
    // "" is the least string; U+1F600 sorts after U+FFFD (UTF-8 / code point order, not UTF-16)
    // COUNT(DISTINCT) sees 0.0, -0.0, NaN, 1.0; MIN is -0.0 and MAX NaN (Double.compare)
    assertEquals(List.of(6L, "", "😀", 4L, -0.0, Double.NaN), r.get(List.of()));
    HashAggregator byDouble = new HashAggregator(types, new int[] {0}, calls);
    byDouble.add(batch);
    Map<List<Object>, List<Object>> g = AggReference.actual(byDouble, types, new int[] {0}, calls, 10);
    assertEquals(5, g.size(), g.toString()); // 0.0, -0.0, NaN (both), NULL, 1.0
    assertEquals(2L, g.get(List.of(Double.NaN)).get(0));
    assertEquals(List.of(1L, "é", "é", 0L), g.get(Arrays.asList((Object) null)).subList(0, 4));
    assertNull(g.get(Arrays.asList((Object) null)).get(4)); // MIN of only NULLs
  }
}
