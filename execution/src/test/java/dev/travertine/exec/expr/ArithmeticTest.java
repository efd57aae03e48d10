package dev.travertine.exec.expr;

import static dev.travertine.exec.expr.ExprTestSupport.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.travertine.vector.DataType;
import java.math.BigDecimal;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.junit.jupiter.api.Test;

class ArithmeticTest {
  @Test void integerArithmeticWrapsInTheResultType() {
    ColumnVector a = vector(INT, Integer.MAX_VALUE, Integer.MIN_VALUE, 7, null);
    ColumnVector b = vector(INT, 1, -1, -2, 5);
    ScanBatch2 t = new ScanBatch2(a, b);
    assertEquals(list(Integer.MIN_VALUE, Integer.MAX_VALUE, 5, null), eval(call(Op.PLUS, INT, col(0, INT), col(1, INT)), t.all()));
    assertEquals(list(Integer.MAX_VALUE, Integer.MIN_VALUE, -14, null), eval(call(Op.TIMES, INT, col(0, INT), col(1, INT)), t.all()));
    assertEquals(list(Integer.MAX_VALUE, Integer.MIN_VALUE, -3, null), eval(call(Op.DIVIDE, INT, col(0, INT), col(1, INT)), t.all()));
    assertEquals(list(0, 0, 1, null), eval(call(Op.MOD, INT, col(0, INT), col(1, INT)), t.all()));
    ColumnVector x = vector(TINY, (byte) 100, (byte) -128);
    assertEquals(list((byte) -56, (byte) 0), eval(call(Op.PLUS, TINY, col(0, TINY), col(0, TINY)), all(x)));
    assertEquals(list((byte) -100, (byte) -128), eval(call(Op.NEGATE, TINY, col(0, TINY)), all(x)));
    ColumnVector y = vector(BIG, Long.MAX_VALUE, Long.MIN_VALUE);
    assertEquals(list(-2L, 0L), eval(call(Op.PLUS, BIG, col(0, BIG), col(0, BIG)), all(y)));
    // INTEGER + BIGINT computes in BIGINT
    assertEquals(list((long) Integer.MAX_VALUE + 1, (long) Integer.MIN_VALUE - 1),
        eval(call(Op.PLUS, BIG, col(0, INT), col(1, BIG)), all(vector(INT, Integer.MAX_VALUE, Integer.MIN_VALUE),
            vector(BIG, 1L, -1L))));
  }

  @Test void divisionByZeroThrowsOnlyForSelectedNonNullRows() {
    ColumnVector a = vector(INT, 10, 20, 30, 40);
    ColumnVector b = vector(INT, 2, 0, null, 5);
    Expr div = call(Op.DIVIDE, INT, col(0, INT), col(1, INT));
    ArithmeticException e = assertThrows(ArithmeticException.class, () -> eval(div, all(a, b)));
    assertEquals("/ by zero", e.getMessage());
    // row 1 (the zero) outside the selection; row 2 divides by NULL
    assertEquals(list(5, null, 8), eval(div, batch(new ColumnVector[] {a, b}, 0, 2, 3)));
    assertThrows(ArithmeticException.class, () -> eval(call(Op.MOD, BIG, col(0, INT), lit(0L, BIG)), all(a)));
    // an empty selection evaluates nothing, even for a constant divisor of zero
    assertEquals(list(), eval(call(Op.DIVIDE, INT, col(0, INT), lit(0, INT)), batch(new ColumnVector[] {a})));
    // DOUBLE follows IEEE
    assertEquals(list(Double.POSITIVE_INFINITY), eval(call(Op.DIVIDE, DBL, lit(1.0, DBL), col(0, DBL)),
        all(vector(DBL, 0.0))));
    // DOUBLE MOD goes through BigDecimal in Calcite: a zero divisor fails
    assertThrows(ArithmeticException.class, () -> eval(call(Op.MOD, DBL, col(0, DBL), lit(0.0, DBL)), all(vector(DBL, 1.0))));
    assertEquals(list(0.0), eval(call(Op.MOD, DBL, col(0, DBL), lit(2.0, DBL)), all(vector(DBL, -4.0))));
  }

  @Test void repeatingAndConstantShapes() {
    ColumnVector rep = repeating(INT, 6, 4);
    ColumnVector col = vector(INT, 1, 2, 3, null);
    assertEquals(list(7, 8, 9, null), eval(call(Op.PLUS, INT, col(0, INT), col(1, INT)), all(rep, col)));
    assertEquals(list(5, 4, 3, null), eval(call(Op.MINUS, INT, col(0, INT), col(1, INT)), all(rep, col)));
    assertEquals(list(-5, -4, -3, null), eval(call(Op.MINUS, INT, col(1, INT), col(0, INT)), all(rep, col)));
    ColumnVector r = Evaluators.compile(call(Op.TIMES, INT, col(0, INT), col(0, INT))).evaluate(all(rep));
    assertEquals(true, r.isRepeating);
    assertEquals(list(36, 36, 36, 36), eval(call(Op.TIMES, INT, col(0, INT), col(0, INT)), all(rep)));
    ColumnVector repNull = repeating(INT, null, 3);
    assertEquals(list(null, null, null), eval(call(Op.PLUS, INT, col(0, INT), lit(1, INT)), all(repNull)));
    // gaps in the selection: only selected rows are written and read
    assertEquals(list(3, null), eval(call(Op.PLUS, INT, col(1, INT), lit(1, INT)), batch(new ColumnVector[] {rep, col}, 1, 3)));
  }

  @Test void realArithmeticRoundsToFloat() {
    ColumnVector a = vector(REAL, 0.1f, 16777216f);
    float x = 0.1f;
    float y = 16777216f;
    assertEquals(list(x + 0.2f, y + 0.2f), eval(call(Op.PLUS, REAL, col(0, REAL), lit(0.2f, REAL)), all(a)));
    assertEquals(list(x * 3f, y * 3f), eval(call(Op.TIMES, REAL, col(0, REAL), lit(3f, REAL)), all(a)));
    // an INTEGER operand of a DOUBLE operation is widened
    assertEquals(list(3.5), eval(call(Op.PLUS, DBL, col(0, INT), lit(0.5, DBL)), all(vector(INT, 3))));
  }

  @Test void decimalIsExact() {
    DataType d102 = DataType.decimal(10, 2);
    DataType d53 = DataType.decimal(5, 3);
    ColumnVector a = vector(d102, new BigDecimal("12.34"), new BigDecimal("-0.01"), null);
    ColumnVector b = vector(d53, new BigDecimal("3.000"), new BigDecimal("0.005"), new BigDecimal("1.000"));
    assertEquals(list(new BigDecimal("15.34"), new BigDecimal("-0.005"), null),
        strip(eval(call(Op.PLUS, DataType.decimal(12, 3), col(0, d102), col(1, d53)), all(a, b))));
    assertEquals(list(new BigDecimal("37.02"), new BigDecimal("-0.00005"), null),
        strip(eval(call(Op.TIMES, DataType.decimal(15, 5), col(0, d102), col(1, d53)), all(a, b))));
    assertEquals(list(new BigDecimal("0.34"), new BigDecimal("0"), null),
        strip(eval(call(Op.MOD, d53, col(0, d102), col(1, d53)), all(a, b))));
    assertEquals(list(new BigDecimal("-12.34"), new BigDecimal("0.01"), null),
        strip(eval(call(Op.NEGATE, d102, col(0, d102)), all(a))));
    assertThrows(ArithmeticException.class, () -> eval(call(Op.PLUS, DataType.decimal(3, 2), col(0, d102),
        col(0, d102)), all(a)));
    assertEquals(list(new BigDecimal("13.34")), strip(eval(call(Op.PLUS, DataType.decimal(13, 2), col(0, d102),
        col(1, INT)), batch(new ColumnVector[] {a, vector(INT, 1)}, 0))));
  }

  /**
   * + - * on DECIMAL columns without NULLs (the loops per shape: column and column, constant on
   * either side) against BigDecimal, on random values at and near each type's extremes; a result
   * past the type still throws.
   */
  @Test void decimalWithoutNullsMatchesBigDecimal() {
    java.util.Random rnd = new java.util.Random(3);
    DataType d152 = DataType.decimal(15, 2);
    DataType d32 = DataType.decimal(3, 2);
    int n = 300;
    Object[] xs = new Object[n];
    Object[] ys = new Object[n];
    for (int i = 0; i < n; i++) {
      long x = i % 50 == 0 ? 999_999_999_999_99L * (i % 100 == 0 ? 1 : -1) : rnd.nextLong() % 10_000_000_00L;
      xs[i] = BigDecimal.valueOf(x, 2);
      ys[i] = BigDecimal.valueOf(rnd.nextInt(1999) - 999, 2);
    }
    ColumnVector a = vector(d152, xs);
    ColumnVector b = vector(d32, ys);
    BigDecimal one = BigDecimal.ONE;
    DataType sum = DataType.decimal(17, 2);
    DataType prod = DataType.decimal(18, 4);
    Expr[] exprs = {call(Op.PLUS, sum, col(0, d152), col(1, d32)), call(Op.MINUS, sum, col(0, d152), col(1, d32)),
        call(Op.TIMES, prod, col(0, d152), col(1, d32)), call(Op.MINUS, DataType.decimal(4, 2), lit(one, DataType.decimal(1, 0)), col(1, d32)),
        call(Op.MINUS, sum, col(0, d152), lit(one, DataType.decimal(1, 0))),
        call(Op.TIMES, prod, lit(new BigDecimal("-2.50"), d32), col(0, d152)),
        // both columns brought to a larger scale row by row (the general loop)
        call(Op.PLUS, DataType.decimal(18, 3), col(0, d152), col(1, d32))};
    for (int e = 0; e < exprs.length; e++) {
      java.util.List<Object> got = strip(eval(exprs[e], all(a, b)));
      for (int i = 0; i < n; i++) {
        BigDecimal x = (BigDecimal) xs[i];
        BigDecimal y = (BigDecimal) ys[i];
        BigDecimal want = switch (e) {
          case 0 -> x.add(y);
          case 1 -> x.subtract(y);
          case 2 -> x.multiply(y);
          case 3 -> one.subtract(y);
          case 4 -> x.subtract(one);
          case 5 -> new BigDecimal("-2.50").multiply(x);
          default -> x.add(y);
        };
        assertEquals(strip(list(want)).get(0), got.get(i), "expression " + e + ", row " + i);
      }
    }
    // 15 digits times 3 in a type of 16: the extremes do not fit
    assertThrows(ArithmeticException.class, () -> eval(call(Op.TIMES, DataType.decimal(16, 4), col(0, d152), col(1, d32)), all(a, b)));
  }

  private static java.util.List<Object> strip(java.util.List<Object> xs) {
    java.util.List<Object> out = new java.util.ArrayList<>();
    for (Object x : xs) {
      out.add(x instanceof BigDecimal d ? (d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros()) : x);
    }
    return out;
  }

  /** Two columns and their full selection. */
  private record ScanBatch2(ColumnVector a, ColumnVector b) {
    dev.travertine.vector.Batch all() {
      return ExprTestSupport.all(a, b);
    }
  }
}
