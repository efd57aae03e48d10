package dev.travertine.exec.expr;

import static dev.travertine.exec.expr.ExprTestSupport.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import java.math.BigDecimal;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.junit.jupiter.api.Test;

class ComparisonLogicTest {
  @Test void comparisonsWithNullsConstantsAndGaps() {
    ColumnVector a = vector(INT, 1, 5, null, 7, 3);
    Batch b = batch(new ColumnVector[] {a}, 0, 1, 2, 4);
    assertEquals(list(false, true, null, false), eval(call(Op.GT, BOOL, col(0, INT), lit(3, INT)), b));
    assertEquals(List.of(1), filter(call(Op.GT, BOOL, col(0, INT), lit(3, INT)), b));
    // constant on the left flips the operator
    assertEquals(List.of(0), filter(call(Op.GT, BOOL, lit(3, INT), col(0, INT)), b));
    // a comparison with NULL is never TRUE
    assertEquals(List.of(), filter(call(Op.NE, BOOL, col(0, INT), lit(null, INT)), b));
    // INTEGER vs DOUBLE meet in DOUBLE; DECIMAL by value whatever the scale
    assertEquals(list(true, false), eval(call(Op.LT, BOOL, col(0, INT), lit(1.5, DBL)), all(vector(INT, 1, 2))));
    DataType d = DataType.decimal(5, 2);
    assertEquals(list(true, false), eval(call(Op.EQ, BOOL, col(0, d), lit(new BigDecimal("1.500"),
        DataType.decimal(6, 3))), all(vector(d, new BigDecimal("1.50"), new BigDecimal("1.51")))));
  }

  @Test void stringsFromACaseWithNullRowsCompare() {
    // found by the fuzzer: CASE WHEN k > 0 THEN d ELSE 'z' END < 'c' failed with a NullPointerException,
    // the CASE result holding no bytes at its NULL rows
    ColumnVector k = vector(INT, 1, 2, -3, 4);
    ColumnVector d = vector(STR, "b", null, "x", "");
    Batch b = all(k, d);
    Expr value = call(Op.CASE, STR, call(Op.GT, BOOL, col(0, INT), lit(0, INT)), col(1, STR), lit("z", STR));
    assertEquals(List.of(0, 3), filter(call(Op.LT, BOOL, value, lit("c", STR)), b));
    assertEquals(List.of(3), filter(call(Op.EQ, BOOL, value, lit("", STR)), b));
    assertEquals(List.of(0, 2), filter(call(Op.NE, BOOL, value, lit("", STR)), b));
    assertEquals(list(true, null, false, true), eval(call(Op.LT, BOOL, value, lit("c", STR)), b));
    assertEquals(List.of(0, 3), filter(call(Op.LT, BOOL, value, call(Op.CASE, STR, call(Op.GT, BOOL, col(0, INT),
        lit(0, INT)), lit("c", STR), lit((Object) null, STR))), b));
  }

  @Test void filterMayWriteIntoTheBatchSelection() {
    ColumnVector a = vector(BIG, 10L, 20L, 30L, 40L, 50L);
    int[] sel = {0, 1, 3, 4};
    Batch b = new Batch(new ColumnVector[] {a}, sel, 4);
    Expr e = call(Op.AND, BOOL, call(Op.GE, BOOL, col(0, BIG), lit(20L, BIG)),
        call(Op.NE, BOOL, col(0, BIG), lit(40L, BIG)));
    int n = Evaluators.compile(e).filter(b, sel);
    assertEquals(2, n);
    assertArrayEquals(new int[] {1, 4}, java.util.Arrays.copyOf(sel, n));
  }

  @Test void oneFilterOverBatchesWhoseSelectivitySwings() {
    // a compiled comparison keeps statistics of its recent batches to pick a loop (a branch per row
    // when nearly none or nearly all pass): whatever it picks, every batch gets the right rows
    java.util.Random rnd = new java.util.Random(42);
    for (Op op : List.of(Op.EQ, Op.NE, Op.LT, Op.LE, Op.GT, Op.GE)) {
      VectorExpression f = Evaluators.compile(call(op, BOOL, col(0, BIG), lit(0L, BIG)));
      for (int batch = 0; batch < 60; batch++) {
        int phase = batch / 10 % 3; // 10 batches of mostly 0, 10 of mostly -1/1, 10 of a mix
        int n = 1 + rnd.nextInt(1024);
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
          values[i] = switch (phase) {
            case 0 -> rnd.nextInt(50) == 0 ? 1L : 0L;
            case 1 -> rnd.nextInt(50) == 0 ? 0L : rnd.nextBoolean() ? -1L : 1L;
            default -> (long) rnd.nextInt(3) - 1;
          };
        }
        Batch b = all(vector(BIG, values));
        int[] out = new int[n];
        int m = f.filter(b, out);
        List<Integer> expected = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
          int cmp = Long.compare((Long) values[i], 0L);
          boolean holds = switch (op) {
            case EQ -> cmp == 0;
            case NE -> cmp != 0;
            case LT -> cmp < 0;
            case LE -> cmp <= 0;
            case GT -> cmp > 0;
            default -> cmp >= 0;
          };
          if (holds) {
            expected.add(i);
          }
        }
        List<Integer> actual = new java.util.ArrayList<>();
        for (int k = 0; k < m; k++) {
          actual.add(out[k]);
        }
        assertEquals(expected, actual, op + ", batch " + batch);
      }
    }
  }

  @Test void stringsCompareByCodePoint() {
    ColumnVector s = vector(STR, "a", "é", "中", "😀", "ab", "", null);
    Batch b = all(s);
    assertEquals(list(true, false, false, false, true, true, null), eval(call(Op.LT, BOOL, col(0, STR), lit("b", STR)), b));
    assertEquals(List.of(2, 3), filter(call(Op.GE, BOOL, col(0, STR), lit("中", STR)), b));
    assertEquals(List.of(4), filter(call(Op.EQ, BOOL, col(0, STR), lit("ab", STR)), b));
    assertEquals(List.of(6), filter(call(Op.IS_NOT_DISTINCT_FROM, BOOL, col(0, STR), lit(null, STR)), b));
    assertEquals(list(false, true, true, true, true, true, true),
        eval(call(Op.IS_DISTINCT_FROM, BOOL, col(0, STR), lit("a", STR)), b));
  }

  @Test void threeValuedLogic() {
    ColumnVector p = vector(BOOL, true, true, true, false, false, false, null, null, null);
    ColumnVector q = vector(BOOL, true, false, null, true, false, null, true, false, null);
    Batch b = all(p, q);
    Expr and = call(Op.AND, BOOL, col(0, BOOL), col(1, BOOL));
    Expr or = call(Op.OR, BOOL, col(0, BOOL), col(1, BOOL));
    assertEquals(list(true, false, null, false, false, false, null, false, null), eval(and, b));
    assertEquals(list(true, true, true, true, false, null, true, null, null), eval(or, b));
    assertEquals(List.of(0), filter(and, b));
    assertEquals(List.of(0, 1, 2, 3, 6), filter(or, b));
    assertEquals(list(false, false, false, true, true, true, null, null, null), eval(call(Op.NOT, BOOL, col(0, BOOL)), b));
    assertEquals(List.of(3, 4, 5), filter(call(Op.NOT, BOOL, col(0, BOOL)), b));
    assertEquals(list(false, false, false, false, false, false, true, true, true), eval(call(Op.IS_NULL, BOOL, col(0, BOOL)), b));
    assertEquals(list(true, true, true, false, false, false, false, false, false), eval(call(Op.IS_TRUE, BOOL, col(0, BOOL)), b));
    assertEquals(list(false, false, false, true, true, true, true, true, true), eval(call(Op.IS_NOT_TRUE, BOOL, col(0, BOOL)), b));
    assertEquals(list(false, false, false, true, true, true, false, false, false), eval(call(Op.IS_FALSE, BOOL, col(0, BOOL)), b));
    assertEquals(list(true, true, true, false, false, false, true, true, true), eval(call(Op.IS_NOT_FALSE, BOOL, col(0, BOOL)), b));
  }

  @Test void andOrSkipRowsAlreadyDecided() {
    ColumnVector x = vector(INT, 0, 4, 0, -2);
    Expr nonZero = call(Op.NE, BOOL, col(0, INT), lit(0, INT));
    Expr big = call(Op.GT, BOOL, call(Op.DIVIDE, INT, lit(8, INT), col(0, INT)), lit(1, INT));
    Expr and = call(Op.AND, BOOL, nonZero, big);
    assertEquals(list(false, true, false, false), eval(and, all(x)));
    assertEquals(List.of(1), filter(and, all(x)));
    Expr or = call(Op.OR, BOOL, call(Op.EQ, BOOL, col(0, INT), lit(0, INT)), big);
    assertEquals(list(true, true, true, false), eval(or, all(x)));
    assertEquals(List.of(0, 1, 2), filter(or, all(x)));
  }

  @Test void repeatingBooleans() {
    ColumnVector t = repeating(BOOL, true, 3);
    ColumnVector n = repeating(BOOL, null, 3);
    assertEquals(list(null, null, null), eval(call(Op.AND, BOOL, col(0, BOOL), col(1, BOOL)), all(t, n)));
    assertEquals(list(true, true, true), eval(call(Op.OR, BOOL, col(0, BOOL), col(1, BOOL)), all(t, n)));
    assertEquals(List.of(0, 2), filter(call(Op.IS_TRUE, BOOL, col(0, BOOL)), batch(new ColumnVector[] {t}, 0, 2)));
  }
}
