package dev.travertine.exec.agg;

import dev.travertine.exec.Columns;
import dev.travertine.vector.DataType;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/** MIN and MAX: the extreme non-NULL value per group (NULL for a group of none). */
abstract class Extreme extends AggState {
  final DataType type;
  final boolean max;
  boolean[] has = new boolean[16];

  Extreme(DataType type, boolean max) {
    this.type = type;
    this.max = max;
  }

  static Extreme create(DataType type, boolean max) {
    return switch (type.kind()) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE -> new Longs(type, max);
      case REAL, DOUBLE -> new Doubles(type, max);
      case TIMESTAMP -> new Timestamps(type, max);
      case CHAR, VARCHAR -> new Strings(type, max);
      case DECIMAL -> new Decimals(type, max);
    };
  }

  @Override final void grow(int groups) {
    if (groups > has.length) {
      int c = cap(has.length, groups);
      has = Arrays.copyOf(has, c);
      growValues(c);
    }
  }

  abstract void growValues(int capacity);

  @Override final void reorder(int[] order, int n) {
    has = Gather.booleans(has, order, n);
    reorderValues(order, n);
  }

  abstract void reorderValues(int[] order, int n);

  /** Whether value a should replace the current value b of the group (a is better). */
  final boolean better(int cmp) {
    return max ? cmp > 0 : cmp < 0;
  }

  @Override final ColumnVector result(int from, int count) {
    ColumnVector v = Columns.newVector(type, count);
    for (int i = 0; i < count; i++) {
      if (!has[from + i]) {
        v.noNulls = false;
        v.isNull[i] = true;
      } else {
        write(v, i, from + i);
      }
    }
    return v;
  }

  abstract void write(ColumnVector v, int i, int g);

  /** Partial form: the extreme itself (NULL while the group has none). */
  @Override final List<DataType> partialTypes() {
    return List.of(type);
  }

  @Override final void partial(int from, int count, ColumnVector[] out, int at) {
    out[at] = result(from, count);
  }

  @Override final void mergePartial(ColumnVector[] in, int at, int[] sel, int[] gid, int n) {
    add(in[at], sel, gid, n);
  }

  static final class Longs extends Extreme {
    long[] values = new long[16];

    Longs(DataType type, boolean max) {
      super(type, max);
    }

    @Override void reorderValues(int[] order, int n) {
      values = Gather.longs(values, order, n);
    }

    @Override void growValues(int capacity) {
      values = Arrays.copyOf(values, capacity);
    }

    private void offer(int g, long x) {
      if (!has[g] || (max ? x > values[g] : x < values[g])) {
        values[g] = x;
        has[g] = true;
      }
    }

    @Override void add(ColumnVector arg, int[] sel, int[] gid, int n) {
      LongColumnVector a = (LongColumnVector) arg;
      for (int k = 0; k < n; k++) {
        int r = a.isRepeating ? 0 : sel[k];
        if (a.noNulls || !a.isNull[r]) {
          offer(gid[k], a.vector[r]);
        }
      }
    }

    @Override void merge(AggState other, int[] src, int[] dst, int n) {
      Longs o = (Longs) other;
      for (int k = 0; k < n; k++) {
        int g = src[k];
        if (o.has[g]) {
          offer(dst[k], o.values[g]);
        }
      }
    }

    @Override void write(ColumnVector v, int i, int g) {
      ((LongColumnVector) v).vector[i] = values[g];
    }

    @Override long bytes() {
      return 9L * has.length;
    }
  }

  static final class Doubles extends Extreme {
    double[] values = new double[16];

    Doubles(DataType type, boolean max) {
      super(type, max);
    }

    @Override void reorderValues(int[] order, int n) {
      values = Gather.doubles(values, order, n);
    }

    @Override void growValues(int capacity) {
      values = Arrays.copyOf(values, capacity);
    }

    private void offer(int g, double x) {
      if (!has[g] || better(Double.compare(x, values[g]))) {
        values[g] = x;
        has[g] = true;
      }
    }

    @Override void add(ColumnVector arg, int[] sel, int[] gid, int n) {
      DoubleColumnVector a = (DoubleColumnVector) arg;
      for (int k = 0; k < n; k++) {
        int r = a.isRepeating ? 0 : sel[k];
        if (a.noNulls || !a.isNull[r]) {
          offer(gid[k], a.vector[r]);
        }
      }
    }

    @Override void merge(AggState other, int[] src, int[] dst, int n) {
      Doubles o = (Doubles) other;
      for (int k = 0; k < n; k++) {
        int g = src[k];
        if (o.has[g]) {
          offer(dst[k], o.values[g]);
        }
      }
    }

    @Override void write(ColumnVector v, int i, int g) {
      ((DoubleColumnVector) v).vector[i] = values[g];
    }

    @Override long bytes() {
      return 9L * has.length;
    }
  }

  static final class Timestamps extends Extreme {
    long[] millis = new long[16];
    int[] nanos = new int[16];

    Timestamps(DataType type, boolean max) {
      super(type, max);
    }

    @Override void reorderValues(int[] order, int n) {
      millis = Gather.longs(millis, order, n);
      nanos = Gather.ints(nanos, order, n);
    }

    @Override void growValues(int capacity) {
      millis = Arrays.copyOf(millis, capacity);
      nanos = Arrays.copyOf(nanos, capacity);
    }

    private void offer(int g, long ms, int ns) {
      int c = has[g] ? (ms != millis[g] ? Long.compare(ms, millis[g]) : Integer.compare(ns, nanos[g])) : 0;
      if (!has[g] || better(c)) {
        millis[g] = ms;
        nanos[g] = ns;
        has[g] = true;
      }
    }

    @Override void add(ColumnVector arg, int[] sel, int[] gid, int n) {
      TimestampColumnVector a = (TimestampColumnVector) arg;
      for (int k = 0; k < n; k++) {
        int r = a.isRepeating ? 0 : sel[k];
        if (a.noNulls || !a.isNull[r]) {
          offer(gid[k], a.time[r], a.nanos[r]);
        }
      }
    }

    @Override void merge(AggState other, int[] src, int[] dst, int n) {
      Timestamps o = (Timestamps) other;
      for (int k = 0; k < n; k++) {
        int g = src[k];
        if (o.has[g]) {
          offer(dst[k], o.millis[g], o.nanos[g]);
        }
      }
    }

    @Override void write(ColumnVector v, int i, int g) {
      ((TimestampColumnVector) v).time[i] = millis[g];
      ((TimestampColumnVector) v).nanos[i] = nanos[g];
    }

    @Override long bytes() {
      return 13L * has.length;
    }
  }

  /** Strings compare as UTF-8 bytes (code point order); each group keeps a copy of its extreme. */
  static final class Strings extends Extreme {
    byte[][] values = new byte[16][];
    long held;

    Strings(DataType type, boolean max) {
      super(type, max);
    }

    @Override void reorderValues(int[] order, int n) {
      values = Gather.objects(values, order, n);
    }

    @Override void growValues(int capacity) {
      values = Arrays.copyOf(values, capacity);
    }

    private void offer(int g, byte[] b, int st, int len) {
      if (!has[g] || better(Arrays.compareUnsigned(b, st, st + len, values[g], 0, values[g].length))) {
        held += len - (values[g] == null ? 0 : values[g].length);
        values[g] = Arrays.copyOfRange(b, st, st + len);
        has[g] = true;
      }
    }

    @Override void add(ColumnVector arg, int[] sel, int[] gid, int n) {
      BytesColumnVector a = (BytesColumnVector) arg;
      for (int k = 0; k < n; k++) {
        int r = a.isRepeating ? 0 : sel[k];
        if (a.noNulls || !a.isNull[r]) {
          offer(gid[k], a.vector[r], a.start[r], a.length[r]);
        }
      }
    }

    @Override void merge(AggState other, int[] src, int[] dst, int n) {
      Strings o = (Strings) other;
      for (int k = 0; k < n; k++) {
        int g = src[k];
        if (o.has[g]) {
          offer(dst[k], o.values[g], 0, o.values[g].length);
        }
      }
    }

    @Override void write(ColumnVector v, int i, int g) {
      ((BytesColumnVector) v).setVal(i, values[g]);
    }

    @Override long bytes() {
      return 9L * has.length + held;
    }
  }

  static final class Decimals extends Extreme {
    HiveDecimal[] values = new HiveDecimal[16];

    Decimals(DataType type, boolean max) {
      super(type, max);
    }

    @Override void reorderValues(int[] order, int n) {
      values = Gather.objects(values, order, n);
    }

    @Override void growValues(int capacity) {
      values = Arrays.copyOf(values, capacity);
    }

    private void offer(int g, HiveDecimal x) {
      if (!has[g] || better(x.compareTo(values[g]))) {
        values[g] = x;
        has[g] = true;
      }
    }

    @Override void add(ColumnVector arg, int[] sel, int[] gid, int n) {
      if (arg instanceof Decimal64ColumnVector a) {
        for (int k = 0; k < n; k++) {
          int r = a.isRepeating ? 0 : sel[k];
          if (a.noNulls || !a.isNull[r]) {
            offer(gid[k], HiveDecimal.create(a.vector[r], a.scale));
          }
        }
        return;
      }
      DecimalColumnVector a = (DecimalColumnVector) arg;
      for (int k = 0; k < n; k++) {
        int r = a.isRepeating ? 0 : sel[k];
        if (a.noNulls || !a.isNull[r]) {
          int g = gid[k];
          HiveDecimal x = a.vector[r].getHiveDecimal();
          offer(g, x);
        }
      }
    }

    @Override void merge(AggState other, int[] src, int[] dst, int n) {
      Decimals o = (Decimals) other;
      for (int k = 0; k < n; k++) {
        int g = src[k];
        if (o.has[g]) {
          offer(dst[k], o.values[g]);
        }
      }
    }

    @Override void write(ColumnVector v, int i, int g) {
      ((DecimalColumnVector) v).set(i, values[g]);
    }

    @Override long bytes() {
      return 41L * has.length;
    }
  }
}
