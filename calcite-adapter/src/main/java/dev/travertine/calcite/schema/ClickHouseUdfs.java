package dev.travertine.calcite.schema;

import it.unimi.dsi.fastutil.doubles.DoubleArrayList;
import java.util.Locale;

/**
 * ClickHouse functions that have no standard SQL spelling ({@link dev.travertine.calcite.prepare.ClickHouseFunctions} writes the
 * others): {@code formatReadableSize}, {@code formatReadableQuantity}, and the aggregates behind
 * {@code quantile}/{@code median} ({@code tv_quantile}, linear interpolation between the two
 * nearest ranks, as PERCENTILE_CONT) and {@code quantileExact}/{@code medianExact}
 * ({@code tv_quantile_exact}, the value at rank ⌊level·n⌋ of the sorted values, as ClickHouse).
 * They run in Calcite's row engine.
 */
public final class ClickHouseUdfs {
  private ClickHouseUdfs() {}

  private static final String[] SIZE_UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  private static final String[] QUANTITY_UNITS = {"", "thousand", "million", "billion", "trillion",
      "quadrillion"};

  /** {@code formatReadableSize(1536)} = "1.50 KiB". */
  public static String formatReadableSize(Double bytes) {
    return bytes == null ? null : readable(bytes, 1024, SIZE_UNITS);
  }

  /** {@code formatReadableQuantity(1234567)} = "1.23 million". */
  public static String formatReadableQuantity(Double n) {
    return n == null ? null : readable(n, 1000, QUANTITY_UNITS);
  }

  private static String readable(double v, double base, String[] units) {
    int u = 0;
    double x = v;
    while (Math.abs(x) >= base && u + 1 < units.length) {
      x /= base;
      u++;
    }
    return String.format(Locale.ROOT, "%.2f", x) + (units[u].isEmpty() ? "" : " " + units[u]);
  }

  /** The values of one group and the level asked for. */
  public static final class Acc {
    final DoubleArrayList values = new DoubleArrayList();
    double level = 0.5;
  }

  /**
   * The accumulation both quantile aggregates share: a group's non-NULL, non-NaN values and the
   * level asked for; a subclass picks the value.
   */
  public abstract static class QuantileBase {
    public Acc init() {
      return new Acc();
    }

    public Acc add(Acc a, Double x, Double level) {
      if (level != null) {
        if (!(level >= 0 && level <= 1)) {
          throw new IllegalArgumentException("Quantile level must be between 0 and 1, was " + level);
        }
        a.level = level;
      }
      if (x != null && !x.isNaN()) {
        a.values.add(x.doubleValue());
      }
      return a;
    }

    public Acc merge(Acc a, Acc b) {
      a.values.addAll(b.values);
      return a;
    }

    /** The quantile of the group's values, NULL for none. */
    public Double result(Acc a) {
      int n = a.values.size();
      if (n == 0) {
        return null;
      }
      double[] v = a.values.toDoubleArray();
      java.util.Arrays.sort(v);
      return pick(v, a.level);
    }

    /** The quantile of sorted, non-empty values. */
    abstract double pick(double[] sorted, double level);
  }

  /** {@code tv_quantile(x, level)}: interpolated between the two nearest ranks. */
  public static final class Quantile extends QuantileBase {
    @Override double pick(double[] v, double level) {
      double pos = level * (v.length - 1);
      int lo = (int) Math.floor(pos);
      int hi = Math.min(v.length - 1, lo + 1);
      return v[lo] + (v[hi] - v[lo]) * (pos - lo);
    }
  }

  /** {@code tv_quantile_exact(x, level)}: the value at rank ⌊level·n⌋. */
  public static final class QuantileExact extends QuantileBase {
    @Override double pick(double[] v, double level) {
      return v[Math.min(v.length - 1, (int) (level * v.length))];
    }
  }
}
