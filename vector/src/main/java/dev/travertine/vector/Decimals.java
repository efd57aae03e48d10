package dev.travertine.vector;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.serde2.io.HiveDecimalWritable;

/**
 * The two forms a DECIMAL column's vector takes, batch by batch, and reading either.
 *
 * <ul>
 *   <li>Scaled longs ({@link Decimal64ColumnVector}): the unscaled value at the vector's scale
 *       (always the column type's scale) in a {@code long}. A table scan reads DECIMAL columns of
 *       up to 18 digits this way, and arithmetic writes its results this way whenever every
 *       value of the batch fits a long, whatever the declared precision.
 *   <li>Hive's decimal objects ({@link DecimalColumnVector}): everything else (wider values,
 *       files, inserts, the exchange).
 * </ul>
 *
 * Every consumer of a DECIMAL vector takes both; positions are physical (callers resolve
 * repeating vectors first).
 */
public final class Decimals {
  private Decimals() {}

  /** Whether the vector holds scaled longs. */
  public static boolean scaled(ColumnVector v) {
    return v instanceof Decimal64ColumnVector;
  }

  /** The scale of a DECIMAL vector of either form. */
  public static int scale(ColumnVector v) {
    return v instanceof Decimal64ColumnVector d ? d.scale : ((DecimalColumnVector) v).scale;
  }

  /** A vector of scaled longs for {@code n} values at the type's scale. */
  public static Decimal64ColumnVector newScaled(int n, DataType type) {
    return new Decimal64ColumnVector(n, Math.min(18, type.precision()), type.scale());
  }

  /** The value at physical position {@code i} as a BigDecimal at the vector's scale. */
  public static BigDecimal big(ColumnVector v, int i) {
    if (v instanceof Decimal64ColumnVector d) {
      return BigDecimal.valueOf(d.vector[i], d.scale);
    }
    DecimalColumnVector d = (DecimalColumnVector) v;
    BigDecimal x = d.vector[i].getHiveDecimal().bigDecimalValue();
    // HiveDecimal drops trailing zeros; the value keeps its column's scale (DECIMAL(10, 2) 1.50, not 1.5).
    return x.scale() < d.scale ? x.setScale(d.scale) : x;
  }

  /** The value at physical position {@code i} as a HiveDecimal. */
  public static HiveDecimal hive(ColumnVector v, int i) {
    if (v instanceof Decimal64ColumnVector d) {
      return HiveDecimal.create(d.vector[i], d.scale);
    }
    return ((DecimalColumnVector) v).vector[i].getHiveDecimal();
  }

  /** The value's sign. */
  public static int signum(ColumnVector v, int i) {
    return v instanceof Decimal64ColumnVector d ? Long.signum(d.vector[i]) : ((DecimalColumnVector) v).vector[i].signum();
  }

  /** The value as a double. */
  public static double toDouble(ColumnVector v, int i) {
    if (v instanceof Decimal64ColumnVector d) {
      return BigDecimal.valueOf(d.vector[i], d.scale).doubleValue();
    }
    return ((DecimalColumnVector) v).vector[i].doubleValue();
  }

  /** Compares two values of DECIMAL vectors of either form. */
  public static int compare(ColumnVector a, int i, ColumnVector b, int j) {
    if (a instanceof Decimal64ColumnVector x && b instanceof Decimal64ColumnVector y && x.scale == y.scale) {
      return Long.compare(x.vector[i], y.vector[j]);
    }
    if (a instanceof DecimalColumnVector x && b instanceof DecimalColumnVector y) {
      return x.vector[i].compareTo(y.vector[j]);
    }
    // one of each (a column against a constant): as longs when the object has a long form at the
    // scaled side's scale, with no BigDecimal per row
    if (a instanceof Decimal64ColumnVector x && b instanceof DecimalColumnVector y) {
      long q = scaledAt(y.vector[j], x.scale);
      if (q != ScaledDecimals.NO_FIT) {
        return Long.compare(x.vector[i], q);
      }
    } else if (a instanceof DecimalColumnVector x && b instanceof Decimal64ColumnVector y) {
      long p = scaledAt(x.vector[i], y.scale);
      if (p != ScaledDecimals.NO_FIT) {
        return Long.compare(p, y.vector[j]);
      }
    }
    return big(a, i).compareTo(big(b, j));
  }

  /** w at {@code scale} as a long, exactly, or NO_FIT (more fraction digits, or past 18 digits). */
  private static long scaledAt(HiveDecimalWritable w, int scale) {
    return !w.isSet() || w.scale() > scale ? ScaledDecimals.NO_FIT : ScaledDecimals.read(w, scale, true);
  }

  /**
   * Writes a value into a DECIMAL vector of either form; false when it does not fit the vector
   * (more digits than a scaled long holds, or than the Hive vector's precision).
   */
  public static boolean set(ColumnVector v, int i, BigDecimal x) {
    if (v instanceof Decimal64ColumnVector d) {
      try {
        d.vector[i] = x.setScale(d.scale, RoundingMode.UNNECESSARY).unscaledValue().longValueExact();
        d.isNull[i] = false;
        return true;
      } catch (ArithmeticException e) {
        return false;
      }
    }
    DecimalColumnVector d = (DecimalColumnVector) v;
    d.set(i, HiveDecimal.create(x));
    return !d.isNull[i];
  }

  /** Copies a value between DECIMAL vectors of either form (same scale). */
  public static void copy(ColumnVector src, int i, ColumnVector dst, int j) {
    dst.isNull[j] = false;
    if (src instanceof Decimal64ColumnVector s && dst instanceof Decimal64ColumnVector d) {
      d.vector[j] = s.vector[i];
    } else if (src instanceof DecimalColumnVector s && dst instanceof DecimalColumnVector d) {
      d.set(j, s.vector[i]);
    } else if (dst instanceof DecimalColumnVector d) {
      Decimal64ColumnVector s = (Decimal64ColumnVector) src;
      d.vector[j].deserialize64(s.vector[i], s.scale);
    } else if (!set(dst, j, big(src, i))) {
      throw new IllegalStateException("DECIMAL value " + big(src, i) + " does not fit a scaled long");
    }
  }
}
