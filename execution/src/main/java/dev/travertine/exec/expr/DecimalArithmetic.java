package dev.travertine.exec.expr;

import dev.travertine.exec.Columns;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Decimals;
import dev.travertine.vector.ScaledDecimals;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * + - * / MOD NEGATE on DECIMAL results, exact. + - * and NEGATE run on longs at the result's scale
 * ({@link ScaledDecimals}), a tree of them without a DECIMAL vector in between; a batch in which some
 * value has no long form (more than 18 digits) and / and MOD take BigDecimal per row. The exact
 * value is brought to the result type's scale by truncation, as Calcite's CAST to DECIMAL does;
 * a value that does not fit the result precision throws {@code ArithmeticException}. Division by
 * zero throws {@code ArithmeticException("Division by zero")}.
 */
final class DecimalArithmetic extends VecExpr {
  private final Op op;
  private final VecExpr left;
  private final VecExpr right;

  DecimalArithmetic(Op op, VecExpr left, VecExpr right, DataType type) {
    super(type);
    this.op = op;
    this.left = left;
    this.right = right;
  }

  @Override ColumnVector eval(Batch batch) {
    int n = batch.size();
    int[] sel = batch.sel();
    if (n > 0 && scalable()) {
      LongColumnVector x = scaled(batch);
      if (x != null) {
        return x; // scaled longs at the type's scale: a Decimal64ColumnVector (see Decimals)
      }
    }
    DecimalColumnVector r = Columns.selectedDecimals(type, Vecs.capacity(batch), sel, n);
    if (n == 0) {
      return r;
    }
    ColumnVector a = left.eval(batch);
    ColumnVector b = right == null ? null : right.eval(batch);
    boolean rep = a.isRepeating && (b == null || b.isRepeating);
    int m = rep ? 1 : n;
    if (rep) {
      r.isRepeating = true;
    }
    for (int k = 0; k < m; k++) {
      int i = rep ? 0 : sel[k];
      if (Vecs.isNull(a, i) || (b != null && Vecs.isNull(b, i))) {
        Vecs.setNull(r, i);
        continue;
      }
      BigDecimal u = Decimals.big(a, a.isRepeating ? 0 : i);
      BigDecimal v = b == null ? null : Decimals.big(b, b.isRepeating ? 0 : i);
      BigDecimal z = switch (op) {
        case PLUS -> u.add(v);
        case MINUS -> u.subtract(v);
        case TIMES -> u.multiply(v);
        case DIVIDE -> {
          if (v.signum() == 0) {
            throw new ArithmeticException("Division by zero");
          }
          yield u.divide(v, type.scale(), RoundingMode.DOWN);
        }
        case MOD -> {
          if (v.signum() == 0) {
            throw new ArithmeticException("Division by zero");
          }
          yield u.remainder(v);
        }
        case NEGATE -> u.negate();
        default -> throw new IllegalArgumentException("Not an arithmetic operator: " + op);
      };
      store(r, i, z, type);
    }
    return r;
  }

  /** Whether the long form applies: the exact result's scale is the type's (no truncation). */
  private boolean scalable() {
    int s = type.scale();
    return switch (op) {
      case PLUS, MINUS -> left.type.scale() <= s && right.type.scale() <= s;
      case TIMES -> left.type.scale() + right.type.scale() == s;
      case NEGATE -> left.type.scale() == s;
      default -> false;
    };
  }

  /**
   * This expression's values on the batch's selection as longs at the type's scale, or null when
   * some value (an operand's or the result) has no long form.
   */
  LongColumnVector scaled(Batch batch) {
    LongColumnVector a = operand(left, batch);
    if (a == null) {
      return null;
    }
    if (op == Op.NEGATE) {
      return negate(a, batch);
    }
    LongColumnVector b = operand(right, batch);
    if (b == null) {
      return null;
    }
    int s = type.scale();
    int n = batch.size();
    int[] sel = batch.sel();
    boolean rep = a.isRepeating && b.isRepeating;
    long limit = type.precision() < ScaledDecimals.DIGITS ? ScaledDecimals.pow10(type.precision())
        : ScaledDecimals.pow10(ScaledDecimals.DIGITS);
    int ea = op == Op.TIMES ? 0 : s - left.type.scale();
    int eb = op == Op.TIMES ? 0 : s - right.type.scale();
    // no NULLs, and no column to bring to the scale row by row: one loop per shape
    if (a.noNulls && b.noNulls && !rep && (ea == 0 || a.isRepeating) && (eb == 0 || b.isRepeating)) {
      LongColumnVector r = VectorArena.scaled(Vecs.capacity(batch), type);
      return dense(a, b, ea, eb, sel, n, limit, r) ? r : null;
    }
    LongColumnVector r = VectorArena.scaled(Vecs.capacity(batch), type);
    r.isRepeating = rep;
    long[] x = a.vector;
    long[] y = b.vector;
    long[] z = r.vector;
    boolean nulls = !a.noNulls || !b.noNulls;
    int m = rep ? 1 : n;
    for (int k = 0; k < m; k++) {
      int i = rep ? 0 : sel[k];
      int ia = a.isRepeating ? 0 : i;
      int ib = b.isRepeating ? 0 : i;
      if (nulls && (a.isNull[ia] && !a.noNulls || b.isNull[ib] && !b.noNulls)) {
        r.noNulls = false;
        r.isNull[i] = true;
        continue;
      }
      long v = switch (op) {
        case PLUS -> ScaledDecimals.add(ScaledDecimals.rescale(x[ia], ea), ScaledDecimals.rescale(y[ib], eb));
        case MINUS -> ScaledDecimals.subtract(ScaledDecimals.rescale(x[ia], ea), ScaledDecimals.rescale(y[ib], eb));
        default -> ScaledDecimals.multiply(x[ia], y[ib]);
      };
      if (v == ScaledDecimals.NO_FIT || v >= limit || v <= -limit) {
        return null; // the exact path reports what does not fit the type
      }
      z[i] = v;
    }
    return r;
  }

  /**
   * + - * of two operands without NULLs, not both repeating, into {@code r}: one loop per shape
   * without a per-row switch, overflow and the type's range checked together once per batch;
   * false when some result (or a repeating operand brought to the scale) does not fit. Only a
   * repeating operand may need bringing to the scale ({@code ea}, {@code eb}: its power of ten).
   */
  private boolean dense(LongColumnVector a, LongColumnVector b, int ea, int eb, int[] sel, int n, long limit,
      LongColumnVector r) {
    long[] x = a.vector;
    long[] y = b.vector;
    long[] z = r.vector;
    boolean bad = false;
    if (op == Op.TIMES) {
      if (a.isRepeating || b.isRepeating) {
        long c = a.isRepeating ? x[0] : y[0];
        long[] v = a.isRepeating ? y : x;
        for (int k = 0; k < n; k++) {
          int i = sel[k];
          long p = c * v[i];
          bad |= Math.multiplyHigh(c, v[i]) != (p >> 63) | p >= limit | p <= -limit;
          z[i] = p;
        }
      } else {
        for (int k = 0; k < n; k++) {
          int i = sel[k];
          long p = x[i] * y[i];
          bad |= Math.multiplyHigh(x[i], y[i]) != (p >> 63) | p >= limit | p <= -limit;
          z[i] = p;
        }
      }
      return !bad;
    }
    boolean minus = op == Op.MINUS;
    if (a.isRepeating || b.isRepeating) {
      long c = a.isRepeating ? ScaledDecimals.rescale(x[0], ea) : ScaledDecimals.rescale(y[0], eb);
      if (c == ScaledDecimals.NO_FIT) {
        return false;
      }
      long[] v = a.isRepeating ? y : x;
      // c + v, c - v (constant on the left) or v - c: as c' + sign * v
      long sign = minus && a.isRepeating ? -1 : 1;
      long cc = minus && b.isRepeating ? -c : c;
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        long w = cc + sign * v[i]; // operands under 10^18 in magnitude: no long overflow
        bad |= w >= limit | w <= -limit;
        z[i] = w;
      }
      return !bad;
    }
    for (int k = 0; k < n; k++) {
      int i = sel[k];
      long w = minus ? x[i] - y[i] : x[i] + y[i];
      bad |= w >= limit | w <= -limit;
      z[i] = w;
    }
    return !bad;
  }

  private LongColumnVector negate(LongColumnVector a, Batch batch) {
    LongColumnVector r = VectorArena.scaled(Vecs.capacity(batch), type);
    r.isRepeating = a.isRepeating;
    r.noNulls = a.noNulls;
    int n = a.isRepeating ? 1 : batch.size();
    int[] sel = batch.sel();
    for (int k = 0; k < n; k++) {
      int i = a.isRepeating ? 0 : sel[k];
      r.isNull[i] = a.isNull[i];
      r.vector[i] = -a.vector[i];
    }
    return r;
  }

  /** An operand as longs at its own scale, or null where a value has no long form. */
  private static LongColumnVector operand(VecExpr e, Batch batch) {
    if (e instanceof DecimalArithmetic d && d.scalable()) {
      return d.scaled(batch);
    }
    ColumnVector ev = e.eval(batch);
    int scale = e.type.scale();
    if (ev instanceof Decimal64ColumnVector d && d.scale == scale) {
      return d; // already scaled longs at its scale (read only: never written here)
    }
    DecimalColumnVector v = (DecimalColumnVector) ev;
    boolean checked = !ScaledDecimals.alwaysFits(e.type, scale);
    LongColumnVector r = VectorArena.longs(Vecs.capacity(batch));
    r.isRepeating = v.isRepeating;
    r.noNulls = v.noNulls;
    int n = v.isRepeating ? 1 : batch.size();
    int[] sel = batch.sel();
    for (int k = 0; k < n; k++) {
      int i = v.isRepeating ? 0 : sel[k];
      if (!v.noNulls && v.isNull[i]) {
        r.isNull[i] = true;
        continue;
      }
      long x = ScaledDecimals.read(v.vector[i], scale, checked);
      if (x == ScaledDecimals.NO_FIT) {
        return null;
      }
      r.vector[i] = x;
    }
    return r;
  }

  /** Stores a value at the type's scale (truncating), or throws if it does not fit. */
  static void store(DecimalColumnVector r, int i, BigDecimal z, DataType type) {
    BigDecimal s = z.setScale(type.scale(), RoundingMode.DOWN);
    if (s.precision() - s.scale() > type.precision() - type.scale()) {
      throw new ArithmeticException("Value " + z.toPlainString() + " cannot be represented as a " + type);
    }
    r.isNull[i] = false;
    r.vector[i].set(HiveDecimal.create(s));
  }
}
