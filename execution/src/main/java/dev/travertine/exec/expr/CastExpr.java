package dev.travertine.exec.expr;

import dev.travertine.exec.Columns;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Decimals;
import dev.travertine.vector.Int16Vector;
import dev.travertine.vector.Int32Vector;
import dev.travertine.vector.IntegerVector;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/**
 * CAST between engine types with Calcite 1.41's semantics: narrowing integer casts check the range
 * ({@code ArithmeticException "Value x out of range"}); DOUBLE to an integer truncates (NaN to
 * INTEGER is 0, as in Calcite); casts to DECIMAL truncate to the scale and fail when the precision
 * is exceeded; strings are parsed trimmed (except for TINYINT, which Calcite parses untrimmed) and formatted as {@link TextFormats} says; VARCHAR(n) truncates and CHAR(n) pads to n
 * UTF-16 units, as Calcite's Java strings do.
 */
final class CastExpr extends VecExpr {
  private final VecExpr arg;
  private final TypeKind from;

  CastExpr(VecExpr arg, DataType type) {
    super(type);
    this.arg = arg;
    this.from = arg.type.kind();
  }

  /** Integers at their width to DOUBLE, at the selected positions (nulls are set already). */
  private static void narrowToDouble(IntegerVector a, double[] z, int[] sel, int m) {
    boolean dense = Columns.dense(sel, m);
    if (a instanceof Int16Vector v) {
      short[] x = v.values;
      if (dense) {
        for (int i = 0; i < m; i++) {
          z[i] = x[i];
        }
      } else {
        for (int k = 0; k < m; k++) {
          z[sel[k]] = x[sel[k]];
        }
      }
    } else if (a instanceof Int32Vector v) {
      int[] x = v.values;
      if (dense) {
        for (int i = 0; i < m; i++) {
          z[i] = x[i];
        }
      } else {
        for (int k = 0; k < m; k++) {
          z[sel[k]] = x[sel[k]];
        }
      }
    } else {
      for (int k = 0; k < m; k++) {
        z[sel[k]] = a.get(sel[k]);
      }
    }
  }

  @Override ColumnVector eval(Batch batch) {
    int n = batch.size();
    ColumnVector r = VectorArena.result(type, Vecs.capacity(batch));
    if (n == 0) {
      return r;
    }
    ColumnVector a = arg.evalRaw(batch);
    int[] sel = batch.sel();
    int m = n;
    if (a.isRepeating) {
      r.isRepeating = true;
      sel = new int[] {0};
      m = 1;
    }
    Vecs.propagateNulls(r, a, sel, m);
    boolean nulls = !r.noNulls;
    TypeKind to = type.kind();
    if (a instanceof IntegerVector nv) {
      if (from != TypeKind.BOOLEAN && from != TypeKind.DATE && to == TypeKind.DOUBLE) {
        narrowToDouble(nv, ((DoubleColumnVector) r).vector, sel, m);
        return r;
      }
      a = nv.widen();
    }
    a = Vectors.wide(a); // a dictionary vector
    if (from.isLongBacked() && to.isLongBacked() && to != TypeKind.BOOLEAN && from != TypeKind.BOOLEAN) {
      longToLong(((LongColumnVector) a).vector, ((LongColumnVector) r).vector, sel, m, nulls ? r.isNull : null);
      return r;
    }
    if (from.isLongBacked() && from != TypeKind.BOOLEAN && from != TypeKind.DATE && to.isDoubleBacked()) {
      long[] x = ((LongColumnVector) a).vector;
      double[] z = ((DoubleColumnVector) r).vector;
      if (to == TypeKind.REAL) {
        for (int k = 0; k < m; k++) {
          int i = sel[k];
          z[i] = (float) x[i];
        }
      } else if (Columns.dense(sel, m)) {
        for (int i = 0; i < m; i++) {
          z[i] = x[i];
        }
      } else {
        for (int k = 0; k < m; k++) {
          int i = sel[k];
          z[i] = x[i];
        }
      }
      return r;
    }
    for (int k = 0; k < m; k++) {
      int i = sel[k];
      if (nulls && r.isNull[i]) {
        if (r instanceof BytesColumnVector b) {
          b.setRef(i, Vecs.EMPTY, 0, 0);
        }
        continue;
      }
      castOne(a, i, r);
    }
    return r;
  }

  private void longToLong(long[] x, long[] z, int[] sel, int m, boolean[] nul) {
    long lo = min(type.kind());
    long hi = max(type.kind());
    boolean check = rank(type.kind()) < rank(from);
    for (int k = 0; k < m; k++) {
      int i = sel[k];
      long v = x[i];
      if (check && (v < lo || v > hi) && (nul == null || !nul[i])) {
        throw new ArithmeticException("Value " + v + " out of range");
      }
      z[i] = v;
    }
  }

  private static int rank(TypeKind k) {
    return switch (k) {
      case TINYINT -> 1;
      case SMALLINT -> 2;
      case INTEGER, DATE -> 3;
      default -> 4;
    };
  }

  static long min(TypeKind k) {
    return switch (k) {
      case TINYINT -> Byte.MIN_VALUE;
      case SMALLINT -> Short.MIN_VALUE;
      case INTEGER, DATE -> Integer.MIN_VALUE;
      default -> Long.MIN_VALUE;
    };
  }

  static long max(TypeKind k) {
    return switch (k) {
      case TINYINT -> Byte.MAX_VALUE;
      case SMALLINT -> Short.MAX_VALUE;
      case INTEGER, DATE -> Integer.MAX_VALUE;
      default -> Long.MAX_VALUE;
    };
  }

  /** Converts row {@code i} (already mapped for repetition) of {@code a} into {@code r}. */
  private void castOne(ColumnVector a, int i, ColumnVector r) {
    TypeKind to = type.kind();
    switch (to) {
      case BOOLEAN -> ((LongColumnVector) r).vector[i] = toBoolean(a, i) ? 1 : 0;
      case TINYINT, SMALLINT, INTEGER, BIGINT -> ((LongColumnVector) r).vector[i] = toIntegral(a, i, to);
      case REAL -> ((DoubleColumnVector) r).vector[i] = (float) toDouble(a, i);
      case DOUBLE -> ((DoubleColumnVector) r).vector[i] = toDouble(a, i);
      case DECIMAL -> DecimalArithmetic.store((DecimalColumnVector) r, i, toDecimal(a, i), type);
      case DATE -> ((LongColumnVector) r).vector[i] = toDate(a, i);
      case TIMESTAMP -> Vecs.setMillis((TimestampColumnVector) r, i, toTimestamp(a, i));
      case CHAR, VARCHAR -> toText(a, i, (BytesColumnVector) r);
    }
  }

  private String text(ColumnVector a, int i) {
    BytesColumnVector b = (BytesColumnVector) a;
    return TextFormats.string(b.vector[i], b.start[i], b.length[i]);
  }

  private boolean toBoolean(ColumnVector a, int i) {
    return switch (from) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT -> ((LongColumnVector) a).vector[i] != 0;
      case REAL, DOUBLE -> ((DoubleColumnVector) a).vector[i] != 0;
      case DECIMAL -> Decimals.signum(a, i) != 0;
      case CHAR, VARCHAR -> TextFormats.parseBoolean(text(a, i));
      default -> throw unsupported();
    };
  }

  private long toIntegral(ColumnVector a, int i, TypeKind to) {
    long v;
    switch (from) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE -> v = ((LongColumnVector) a).vector[i];
      case TIMESTAMP -> v = ((TimestampColumnVector) a).time[i];
      case REAL, DOUBLE -> {
        double d = ((DoubleColumnVector) a).vector[i];
        if (to == TypeKind.BIGINT) {
          if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new NumberFormatException("Cannot cast " + d + " to BIGINT");
          }
          if (d >= 0x1p63 || d < -0x1p63) {
            throw new ArithmeticException("Overflow");
          }
          return (long) d;
        }
        long t = (long) d; // truncates; NaN is 0 (as in Calcite); the range applies to the result
        if (t > max(to) || t < min(to)) {
          throw new ArithmeticException("Value " + d + " out of range");
        }
        return t;
      }
      case DECIMAL -> {
        BigDecimal d = Decimals.big(a, i).setScale(0, RoundingMode.DOWN);
        if (d.compareTo(BigDecimal.valueOf(max(to))) > 0 || d.compareTo(BigDecimal.valueOf(min(to))) < 0) {
          throw new ArithmeticException("Value " + d + " out of range");
        }
        return d.longValue();
      }
      case CHAR, VARCHAR -> {
        BytesColumnVector b = (BytesColumnVector) a;
        boolean trim = to != TypeKind.TINYINT; // Calcite 1.41 parses TINYINT untrimmed
        v = TextFormats.parseLong(b.vector[i], b.start[i], b.length[i], trim);
        if (v < min(to) || v > max(to)) {
          throw new NumberFormatException("Value out of range. Value:\"" + text(a, i) + "\"");
        }
        return v;
      }
      default -> throw unsupported();
    }
    if (v < min(to) || v > max(to)) {
      throw new ArithmeticException("Value " + v + " out of range");
    }
    return v;
  }

  private double toDouble(ColumnVector a, int i) {
    return switch (from) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT -> ((LongColumnVector) a).vector[i];
      case REAL, DOUBLE -> ((DoubleColumnVector) a).vector[i];
      case DECIMAL -> Decimals.toDouble(a, i);
      case CHAR, VARCHAR -> Double.parseDouble(text(a, i).trim());
      default -> throw unsupported();
    };
  }

  private BigDecimal toDecimal(ColumnVector a, int i) {
    return switch (from) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT -> BigDecimal.valueOf(((LongColumnVector) a).vector[i]);
      case REAL, DOUBLE -> {
        double d = ((DoubleColumnVector) a).vector[i];
        if (Double.isNaN(d) || Double.isInfinite(d)) {
          throw new NumberFormatException("Cannot cast " + d + " to " + type);
        }
        yield from == TypeKind.REAL ? new BigDecimal(Float.toString((float) d)) : BigDecimal.valueOf(d);
      }
      case DECIMAL -> Decimals.big(a, i);
      case CHAR, VARCHAR -> new BigDecimal(text(a, i).trim());
      default -> throw unsupported();
    };
  }

  private long toDate(ColumnVector a, int i) {
    return switch (from) {
      case DATE -> ((LongColumnVector) a).vector[i];
      case TIMESTAMP -> Math.floorDiv(((TimestampColumnVector) a).time[i], TextFormats.MILLIS_PER_DAY);
      case CHAR, VARCHAR -> TextFormats.parseDate(text(a, i));
      default -> throw unsupported();
    };
  }

  private long toTimestamp(ColumnVector a, int i) {
    return switch (from) {
      case DATE -> ((LongColumnVector) a).vector[i] * TextFormats.MILLIS_PER_DAY;
      case TIMESTAMP -> ((TimestampColumnVector) a).time[i];
      case CHAR, VARCHAR -> TextFormats.parseTimestamp(text(a, i));
      default -> throw unsupported();
    };
  }

  private void toText(ColumnVector a, int i, BytesColumnVector r) {
    if (from.isString()) {
      BytesColumnVector b = (BytesColumnVector) a;
      int len = type.precision();
      if (len < 0 || type.kind() == TypeKind.VARCHAR && StringFunctions.utf16Length(b.vector[i], b.start[i], b.length[i]) <= len) {
        r.setRef(i, b.vector[i], b.start[i], b.length[i]);
        return;
      }
    }
    String s = switch (from) {
      case BOOLEAN -> ((LongColumnVector) a).vector[i] != 0 ? "TRUE" : "FALSE";
      case TINYINT, SMALLINT, INTEGER, BIGINT -> Long.toString(((LongColumnVector) a).vector[i]);
      case DOUBLE -> TextFormats.formatDouble(((DoubleColumnVector) a).vector[i]);
      case REAL -> TextFormats.formatReal(((DoubleColumnVector) a).vector[i]);
      case DECIMAL -> TextFormats.formatDecimal(Decimals.big(a, i));
      case DATE -> TextFormats.formatDate(((LongColumnVector) a).vector[i]);
      case TIMESTAMP -> TextFormats.formatTimestamp(((TimestampColumnVector) a).time[i]);
      case CHAR, VARCHAR -> text(a, i);
    };
    int len = type.precision();
    if (len >= 0) {
      if (s.length() > len) {
        s = s.substring(0, len);
      } else if (type.kind() == TypeKind.CHAR && s.length() < len) {
        s = s + " ".repeat(len - s.length());
      }
    }
    r.setVal(i, s.getBytes(StandardCharsets.UTF_8));
  }

  private UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException("CAST from " + arg.type + " to " + type + " is not supported");
  }

  /** Whether {@link CastExpr} converts {@code from} to {@code to}. */
  static boolean supports(TypeKind from, TypeKind to) {
    boolean fromNum = from.isLongBacked() && from != TypeKind.DATE || from.isDoubleBacked() || from == TypeKind.DECIMAL;
    boolean toNum = to.isLongBacked() && to != TypeKind.DATE || to.isDoubleBacked() || to == TypeKind.DECIMAL;
    if (to.isString() || from.isString()) {
      return true;
    }
    if (fromNum && toNum) {
      return true;
    }
    return switch (to) {
      case DATE, TIMESTAMP -> from == TypeKind.DATE || from == TypeKind.TIMESTAMP;
      case BIGINT -> from == TypeKind.DATE || from == TypeKind.TIMESTAMP;
      case INTEGER -> from == TypeKind.DATE;
      default -> false;
    };
  }
}
