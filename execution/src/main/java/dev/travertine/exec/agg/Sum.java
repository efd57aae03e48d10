package dev.travertine.exec.agg;

import dev.travertine.exec.Columns;
import dev.travertine.vector.DataType;
import dev.travertine.vector.IntegerVector;
import dev.travertine.vector.ScaledDecimals;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Widener;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.serde2.io.HiveDecimalWritable;

/** SUM, SUM0 and AVG: a sum and a count of non-NULL values per group. */
abstract class Sum extends AggState {
  static final DataType DOUBLE = DataType.of(TypeKind.DOUBLE);
  DataType out;
  /** The argument's type. */
  DataType in;
  boolean zeroForEmpty;
  boolean average;
  long[] counts = new long[16];

  @Override void grow(int groups) {
    if (groups > counts.length) {
      int c = cap(counts.length, groups);
      counts = Arrays.copyOf(counts, c);
      growSums(c);
    }
  }

  abstract void growSums(int capacity);

  @Override final void reorder(int[] order, int n) {
    counts = Gather.longs(counts, order, n);
    reorderSums(order, n);
  }

  abstract void reorderSums(int[] order, int n);

  /** The value of group g's sum (or average) as the output type wants it. */
  abstract void write(ColumnVector v, int i, int g);

  @Override ColumnVector result(int from, int count) {
    ColumnVector v = Columns.newVector(out, count);
    for (int i = 0; i < count; i++) {
      int g = from + i;
      if (counts[g] == 0 && !(zeroForEmpty && !average)) {
        v.noNulls = false;
        v.isNull[i] = true;
      } else {
        write(v, i, g);
      }
    }
    return v;
  }

  /** The type of the sum in partial form. */
  abstract DataType sumType();

  /** Writes group g's sum (not the average) at row i of a vector of {@link #sumType}. */
  abstract void writeSum(ColumnVector v, int i, int g);

  /** Adds the sum at row r of a vector of {@link #sumType} to group g's. */
  abstract void addSum(ColumnVector v, int r, int g);

  /** Partial form: the sum, then the count of values summed (which makes an empty group NULL). */
  @Override List<DataType> partialTypes() {
    return List.of(sumType(), COUNT_TYPE);
  }

  @Override void partial(int from, int count, ColumnVector[] out, int at) {
    ColumnVector s = Columns.newVector(sumType(), count);
    LongColumnVector c = new LongColumnVector(Math.max(1, count));
    for (int i = 0; i < count; i++) {
      writeSum(s, i, from + i);
      c.vector[i] = counts[from + i];
    }
    out[at] = s;
    out[at + 1] = c;
  }

  @Override void mergePartial(ColumnVector[] in, int at, int[] sel, int[] gid, int n) {
    ColumnVector s = in[at];
    LongColumnVector c = (LongColumnVector) in[at + 1];
    for (int k = 0; k < n; k++) {
      long cnt = c.vector[row(c, sel[k])];
      if (cnt != 0) {
        counts[gid[k]] += cnt;
        addSum(s, row(s, sel[k]), gid[k]);
      }
    }
  }

  static void writeNumber(ColumnVector v, int i, long x, DataType out) {
    switch (out.kind()) {
      case REAL, DOUBLE -> ((DoubleColumnVector) v).vector[i] = x;
      case DECIMAL -> ((DecimalColumnVector) v).set(i, HiveDecimal.create(x));
      default -> ((LongColumnVector) v).vector[i] = x;
    }
  }

  static final class LongSum extends Sum {
    long[] sums = new long[16];
    private final Widener widener = new Widener();

    @Override void reorderSums(int[] order, int n) {
      sums = Gather.longs(sums, order, n);
    }

    @Override void growSums(int capacity) {
      sums = Arrays.copyOf(sums, capacity);
    }

    @Override boolean takesNarrow() {
      return true;
    }

    @Override void add(ColumnVector arg, int[] sel, int[] gid, int n) {
      LongColumnVector a = (LongColumnVector) widener.wide(arg, sel, n);
      long[] vec = a.vector;
      long[] s = sums;
      long[] c = counts;
      if (a.isRepeating) {
        if (a.noNulls || !a.isNull[0]) {
          for (int k = 0; k < n; k++) {
            s[gid[k]] += vec[0];
            c[gid[k]]++;
          }
        }
      } else if (a.noNulls) {
        for (int k = 0; k < n; k++) {
          int g = gid[k];
          s[g] += vec[sel[k]];
          c[g]++;
        }
      } else {
        for (int k = 0; k < n; k++) {
          int r = sel[k];
          if (!a.isNull[r]) {
            int g = gid[k];
            s[g] += vec[r];
            c[g]++;
          }
        }
      }
    }

    @Override void addAll(ColumnVector arg, int[] sel, int n, int[] zeros) {
      if (!arg.noNulls || arg.isRepeating) {
        add(arg, sel, zeros, n);
        return;
      }
      if (arg instanceof IntegerVector nv) {
        sums[0] += NarrowSums.sum(nv, sel, n);
        counts[0] += n;
        return;
      }
      long[] vec = ((LongColumnVector) arg).vector;
      long s = 0;
      if (Columns.dense(sel, n)) {
        for (int i = 0; i < n; i++) {
          s += vec[i];
        }
      } else {
        for (int k = 0; k < n; k++) {
          s += vec[sel[k]];
        }
      }
      sums[0] += s;
      counts[0] += n;
    }

    @Override void merge(AggState other, int[] src, int[] dst, int n) {
      LongSum o = (LongSum) other;
      for (int k = 0; k < n; k++) {
        int g = src[k];
        sums[dst[k]] += o.sums[g];
        counts[dst[k]] += o.counts[g];
      }
    }

    @Override void write(ColumnVector v, int i, int g) {
      if (!average) {
        writeNumber(v, i, sums[g], out);
      } else if (out.kind().isDoubleBacked()) {
        ((DoubleColumnVector) v).vector[i] = (double) sums[g] / counts[g];
      } else if (out.kind() == TypeKind.DECIMAL) {
        ((DecimalColumnVector) v).set(i, HiveDecimal.create(BigDecimal.valueOf(sums[g])
            .divide(BigDecimal.valueOf(counts[g]), MathContext.DECIMAL128)));
      } else {
        ((LongColumnVector) v).vector[i] = sums[g] / counts[g];
      }
    }

    @Override DataType sumType() {
      return COUNT_TYPE;
    }

    @Override void writeSum(ColumnVector v, int i, int g) {
      ((LongColumnVector) v).vector[i] = sums[g];
    }

    @Override void addSum(ColumnVector v, int r, int g) {
      sums[g] += ((LongColumnVector) v).vector[r];
    }

    @Override long bytes() {
      return 16L * counts.length;
    }
  }

  static final class DoubleSum extends Sum {
    double[] sums = new double[16];

    @Override void reorderSums(int[] order, int n) {
      sums = Gather.doubles(sums, order, n);
    }

    @Override void growSums(int capacity) {
      sums = Arrays.copyOf(sums, capacity);
    }

    @Override void add(ColumnVector arg, int[] sel, int[] gid, int n) {
      DoubleColumnVector a = (DoubleColumnVector) arg;
      double[] vec = a.vector;
      double[] s = sums;
      long[] c = counts;
      if (a.isRepeating) {
        if (a.noNulls || !a.isNull[0]) {
          for (int k = 0; k < n; k++) {
            s[gid[k]] += vec[0];
            c[gid[k]]++;
          }
        }
      } else if (a.noNulls) {
        for (int k = 0; k < n; k++) {
          int g = gid[k];
          s[g] += vec[sel[k]];
          c[g]++;
        }
      } else {
        for (int k = 0; k < n; k++) {
          int r = sel[k];
          if (!a.isNull[r]) {
            int g = gid[k];
            s[g] += vec[r];
            c[g]++;
          }
        }
      }
    }

    @Override void addAll(ColumnVector arg, int[] sel, int n, int[] zeros) {
      DoubleColumnVector a = (DoubleColumnVector) arg;
      if (!a.noNulls || a.isRepeating) {
        add(arg, sel, zeros, n);
        return;
      }
      double[] vec = a.vector;
      double s = 0;
      if (Columns.dense(sel, n)) {
        for (int i = 0; i < n; i++) {
          s += vec[i];
        }
      } else {
        for (int k = 0; k < n; k++) {
          s += vec[sel[k]];
        }
      }
      sums[0] += s;
      counts[0] += n;
    }

    @Override void merge(AggState other, int[] src, int[] dst, int n) {
      DoubleSum o = (DoubleSum) other;
      for (int k = 0; k < n; k++) {
        int g = src[k];
        sums[dst[k]] += o.sums[g];
        counts[dst[k]] += o.counts[g];
      }
    }

    @Override void write(ColumnVector v, int i, int g) {
      double x = average ? sums[g] / counts[g] : sums[g];
      switch (out.kind()) {
        case DECIMAL -> ((DecimalColumnVector) v).set(i, HiveDecimal.create(BigDecimal.valueOf(x)));
        case REAL, DOUBLE -> ((DoubleColumnVector) v).vector[i] = x;
        default -> ((LongColumnVector) v).vector[i] = (long) x;
      }
    }

    @Override DataType sumType() {
      return DOUBLE;
    }

    @Override void writeSum(ColumnVector v, int i, int g) {
      ((DoubleColumnVector) v).vector[i] = sums[g];
    }

    @Override void addSum(ColumnVector v, int r, int g) {
      sums[g] += ((DoubleColumnVector) v).vector[r];
    }

    @Override long bytes() {
      return 16L * counts.length;
    }
  }

  /**
   * DECIMAL sums on longs at the argument's scale ({@link ScaledDecimals}); a group whose sum
   * overflows 18 digits, or that meets a value with more, carries the excess in an exact
   * BigDecimal beside its long, so the sum is exact either way.
   */
  static final class DecimalSum extends Sum {
    long[] sums = new long[16];
    /** The part of a group's sum that did not fit its long, or null. */
    BigDecimal[] big;

    private int scale() {
      return Math.max(0, in.scale());
    }

    @Override void reorderSums(int[] order, int n) {
      sums = Gather.longs(sums, order, n);
      if (big != null) {
        big = Gather.objects(big, order, n);
      }
    }

    @Override void growSums(int capacity) {
      sums = Arrays.copyOf(sums, capacity);
      if (big != null) {
        big = Arrays.copyOf(big, capacity);
      }
    }

    @Override void add(ColumnVector arg, int[] sel, int[] gid, int n) {
      if (arg instanceof Decimal64ColumnVector d && d.scale == scale()) {
        addScaled(d, sel, gid, n);
        return;
      }
      if (arg instanceof Decimal64ColumnVector) {
        throw new IllegalStateException("DECIMAL vector at scale " + ((Decimal64ColumnVector) arg).scale
            + " summed at scale " + scale());
      }
      DecimalColumnVector a = (DecimalColumnVector) arg;
      int s = scale();
      boolean checked = !ScaledDecimals.alwaysFits(in, s);
      long[] sums = this.sums;
      long[] counts = this.counts;
      for (int k = 0; k < n; k++) {
        int r = a.isRepeating ? 0 : sel[k];
        if (a.noNulls || !a.isNull[r]) {
          int g = gid[k];
          long x = ScaledDecimals.read(a.vector[r], s, checked);
          long t = ScaledDecimals.add(sums[g], x);
          if (t == ScaledDecimals.NO_FIT) {
            spill(g, x == ScaledDecimals.NO_FIT ? a.vector[r].getHiveDecimal().bigDecimalValue() : BigDecimal.valueOf(x, s));
          } else {
            sums[g] = t;
          }
          counts[g]++;
        }
      }
    }

    /** Scaled longs at the sum's scale: added as they are. */
    private void addScaled(Decimal64ColumnVector a, int[] sel, int[] gid, int n) {
      int s = scale();
      long[] v = a.vector;
      long[] sums = this.sums;
      long[] counts = this.counts;
      boolean noNulls = a.noNulls;
      boolean rep = a.isRepeating;
      if (noNulls && !rep) {
        // |sum| and |x| are under 10^18 (a sum past it spills), so their long sum cannot overflow
        long lim = ScaledDecimals.pow10(ScaledDecimals.DIGITS);
        for (int k = 0; k < n; k++) {
          int g = gid[k];
          long x = v[sel[k]];
          long t = sums[g] + x;
          if (t < lim && t > -lim) {
            sums[g] = t;
          } else {
            spill(g, BigDecimal.valueOf(x, s));
          }
          counts[g]++;
        }
        return;
      }
      for (int k = 0; k < n; k++) {
        int r = rep ? 0 : sel[k];
        if (noNulls || !a.isNull[r]) {
          int g = gid[k];
          long x = v[r];
          long t = ScaledDecimals.add(sums[g], x);
          if (t == ScaledDecimals.NO_FIT) { // past 18 digits: the excess goes to the exact part
            spill(g, BigDecimal.valueOf(x, s));
          } else {
            sums[g] = t;
          }
          counts[g]++;
        }
      }
    }

    /** Adds x to group g's BigDecimal part. */
    private void spill(int g, BigDecimal x) {
      if (big == null) {
        big = new BigDecimal[sums.length];
      }
      big[g] = big[g] == null ? x : big[g].add(x);
    }

    private BigDecimal total(int g) {
      BigDecimal x = BigDecimal.valueOf(sums[g], scale());
      return big == null || big[g] == null ? x : x.add(big[g]);
    }

    @Override void merge(AggState other, int[] src, int[] dst, int n) {
      DecimalSum o = (DecimalSum) other;
      for (int k = 0; k < n; k++) {
        int g = src[k];
        int t = dst[k];
        long x = ScaledDecimals.add(sums[t], o.sums[g]);
        if (x == ScaledDecimals.NO_FIT) {
          spill(t, BigDecimal.valueOf(o.sums[g], scale()));
        } else {
          sums[t] = x;
        }
        if (o.big != null && o.big[g] != null) {
          spill(t, o.big[g]);
        }
        counts[t] += o.counts[g];
      }
    }

    @Override void write(ColumnVector v, int i, int g) {
      if (!average && out.kind() == TypeKind.DECIMAL && out.scale() == scale() && (big == null || big[g] == null)) {
        ((DecimalColumnVector) v).vector[i].deserialize64(sums[g], scale());
        ((DecimalColumnVector) v).isNull[i] = false;
        return;
      }
      BigDecimal x = total(g);
      if (average) {
        x = x.divide(BigDecimal.valueOf(counts[g]), MathContext.DECIMAL128);
      }
      switch (out.kind()) {
        case DECIMAL -> ((DecimalColumnVector) v).set(i, HiveDecimal.create(x));
        case REAL, DOUBLE -> ((DoubleColumnVector) v).vector[i] = x.doubleValue();
        default -> ((LongColumnVector) v).vector[i] = x.longValue();
      }
    }

    /** DECIMAL(38) at the argument's scale: a partial sum of more digits fails the query. */
    @Override DataType sumType() {
      return DataType.decimal(38, scale());
    }

    @Override void writeSum(ColumnVector v, int i, int g) {
      DecimalColumnVector d = (DecimalColumnVector) v;
      if (big == null || big[g] == null) {
        d.vector[i].deserialize64(sums[g], scale());
        d.isNull[i] = false;
        return;
      }
      HiveDecimal x = HiveDecimal.create(total(g));
      if (x != null) {
        d.set(i, x);
      }
      if (x == null || (!d.noNulls && d.isNull[i])) {
        throw new ArithmeticException("A partial SUM of DECIMAL values exceeds 38 digits: " + total(g));
      }
    }

    @Override void addSum(ColumnVector v, int r, int g) {
      if (v instanceof Decimal64ColumnVector d) {
        long x = d.vector[r];
        long t = d.scale == scale() ? ScaledDecimals.add(sums[g], x) : ScaledDecimals.NO_FIT;
        if (t == ScaledDecimals.NO_FIT) {
          spill(g, BigDecimal.valueOf(x, d.scale));
        } else {
          sums[g] = t;
        }
        return;
      }
      HiveDecimalWritable w = ((DecimalColumnVector) v).vector[r];
      long x = ScaledDecimals.read(w, scale(), true);
      long t = ScaledDecimals.add(sums[g], x);
      if (t == ScaledDecimals.NO_FIT) {
        spill(g, w.getHiveDecimal().bigDecimalValue());
      } else {
        sums[g] = t;
      }
    }

    @Override long bytes() {
      return 24L * counts.length;
    }
  }
}
