package dev.travertine.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.junit.jupiter.api.Test;

/**
 * A pushed comparison over a whole batch ({@link Predicate#filterAll}, its dense loops over a
 * {@code long[]}) keeps the rows {@link Predicate#filter} keeps over the same batch's every row:
 * each operator, constants inside, at the edge of and outside the values, with NULLs and a
 * repeating vector (which take the general path).
 */
class PredicateFilterAllTest {
  @Test
  void filterAllKeepsWhatFilterKeeps() {
    Random rnd = new Random(35);
    for (int shape = 0; shape < 3; shape++) {
      int n = 1000 + rnd.nextInt(3000);
      LongColumnVector v = new LongColumnVector(n);
      for (int i = 0; i < n; i++) {
        v.vector[i] = rnd.nextInt(20) == 0 ? rnd.nextInt(7) : 3;
        if (shape == 1 && rnd.nextInt(9) == 0) {
          v.noNulls = false;
          v.isNull[i] = true;
        }
      }
      v.isRepeating = shape == 2;
      for (Predicate.Op op : Predicate.Op.values()) {
        for (long c : new long[] {3, 0, 6, -1, 100, Long.MIN_VALUE, Long.MAX_VALUE}) {
          Predicate p = new Predicate.Compare(0, op, c);
          int[] all = new int[n];
          for (int i = 0; i < n; i++) {
            all[i] = i;
          }
          int m = p.filter(new ColumnVector[] {v}, all, n);
          int[] out = new int[n];
          int k = p.filterAll(new ColumnVector[] {v}, n, out);
          assertArrayEquals(Arrays.copyOf(all, m), Arrays.copyOf(out, k), "shape " + shape + " " + op + " " + c);
        }
      }
    }
  }

  /** Conjunctions (the first conjunct over every row) and scaled DECIMALs, exact constants and not. */
  @Test
  void conjunctionsAndScaledDecimals() {
    Random rnd = new Random(36);
    int n = 3000;
    LongColumnVector a = new LongColumnVector(n);
    org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector d =
        new org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector(n, 12, 2);
    for (int i = 0; i < n; i++) {
      a.vector[i] = rnd.nextInt(50);
      d.vector[i] = rnd.nextInt(20); // 0.00 .. 0.19
    }
    ColumnVector[] cols = {a, d};
    java.util.List<Predicate> preds = new java.util.ArrayList<>();
    for (String c : new String[] {"0.05", "0.07", "0.055", "0", "-1", "1000000000000000000000"}) {
      for (Predicate.Op op : Predicate.Op.values()) {
        preds.add(new Predicate.Compare(1, op, new java.math.BigDecimal(c)));
      }
    }
    preds.add(new Predicate.And(java.util.List.of(new Predicate.Compare(0, Predicate.Op.GE, 10L),
        new Predicate.Compare(0, Predicate.Op.LT, 30L), new Predicate.Compare(1, Predicate.Op.LE,
            new java.math.BigDecimal("0.07")))));
    preds.add(new Predicate.And(java.util.List.of(new Predicate.Compare(0, Predicate.Op.EQ, 1000L),
        new Predicate.Compare(1, Predicate.Op.GE, new java.math.BigDecimal("0.01")))));
    preds.add(new Predicate.And(java.util.List.of(new Predicate.In(0, java.util.List.of(3L, 4L)),
        new Predicate.Compare(0, Predicate.Op.NE, 4L))));
    for (Predicate p : preds) {
      int[] all = new int[n];
      for (int i = 0; i < n; i++) {
        all[i] = i;
      }
      int m = p.filter(cols, all, n);
      int[] out = new int[n];
      int k = p.filterAll(cols, n, out);
      assertArrayEquals(Arrays.copyOf(all, m), Arrays.copyOf(out, k), p.toString());
    }
  }
}
