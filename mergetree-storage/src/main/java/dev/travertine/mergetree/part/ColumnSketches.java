package dev.travertine.mergetree.part;

import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.Decimals;
import dev.travertine.vector.Hashing;
import dev.travertine.vector.HyperLogLog;
import dev.travertine.vector.TypeKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;

/**
 * A {@link HyperLogLog} sketch of each column's non-NULL values in a part, written by the part's
 * writer into the ORC footer ({@link OrcSupport#DISTINCT_KEY}) and unioned over a table's parts for
 * the planner's distinct counts (DuckDB keeps one per column the same way). The span of an integer
 * column's min/max says nothing of how many of its values occur: TPC-H's order keys use 1 in 4 of
 * theirs, and a join on them was estimated 4 times too large.
 *
 * <p>Values hash by what they are in the file: a DECIMAL of up to 18 digits by its scaled long at
 * the column's scale, others by their {@code HiveDecimal}; a double by its bits (-0.0 as 0.0); a
 * timestamp by its milliseconds and nanoseconds; a string by its bytes.
 */
public final class ColumnSketches {
  private static final int VERSION = 1;

  private final HyperLogLog[] columns;
  private final TypeKind[] kinds;
  private final int[] scales;

  private ColumnSketches(HyperLogLog[] columns, TypeKind[] kinds, int[] scales) {
    this.columns = columns;
    this.kinds = kinds;
    this.scales = scales;
  }

  /** Empty sketches for a part of {@code schema}'s columns. */
  public static ColumnSketches forSchema(TableSchema schema) {
    int n = schema.size();
    HyperLogLog[] h = new HyperLogLog[n];
    TypeKind[] k = new TypeKind[n];
    int[] s = new int[n];
    for (int c = 0; c < n; c++) {
      h[c] = new HyperLogLog();
      k[c] = schema.column(c).type().kind();
      s[c] = k[c] == TypeKind.DECIMAL && schema.column(c).type().precision() <= 18 ? schema.column(c).type().scale() : -1;
    }
    return new ColumnSketches(h, k, s);
  }

  /** Adds the values of {@code batch}'s rows, laid out like the schema. */
  public void add(VectorizedRowBatch batch) {
    for (int c = 0; c < columns.length; c++) {
      add(columns[c], kinds[c], scales[c], batch.cols[c], batch.size);
    }
  }

  private static void add(HyperLogLog h, TypeKind kind, int scale, ColumnVector v, int size) {
    int n = v.isRepeating ? Math.min(1, size) : size;
    boolean nulls = !v.noNulls;
    if (kind.isLongBacked()) {
      long[] a = ((LongColumnVector) v).vector;
      for (int i = 0; i < n; i++) {
        if (!nulls || !v.isNull[i]) {
          h.addValue(a[i]);
        }
      }
    } else if (kind.isDoubleBacked()) {
      double[] a = ((DoubleColumnVector) v).vector;
      for (int i = 0; i < n; i++) {
        if (!nulls || !v.isNull[i]) {
          h.addValue(Double.doubleToLongBits(a[i] == 0 ? 0.0 : a[i]));
        }
      }
    } else if (kind.isString()) {
      BytesColumnVector b = (BytesColumnVector) v;
      for (int i = 0; i < n; i++) {
        if (!nulls || !v.isNull[i]) {
          h.add(Hashing.bytes(b.vector[i], b.start[i], b.length[i]));
        }
      }
    } else if (kind == TypeKind.TIMESTAMP) {
      TimestampColumnVector t = (TimestampColumnVector) v;
      for (int i = 0; i < n; i++) {
        if (!nulls || !v.isNull[i]) {
          h.addValue(Hashing.mix64(t.time[i]) ^ t.nanos[i]);
        }
      }
    } else if (kind == TypeKind.DECIMAL) {
      boolean scaled = scale >= 0 && v instanceof Decimal64ColumnVector d && d.scale == scale;
      for (int i = 0; i < n; i++) {
        if (nulls && v.isNull[i]) {
          continue;
        }
        if (scaled) {
          h.addValue(((Decimal64ColumnVector) v).vector[i]);
        } else if (scale >= 0) {
          h.addValue(new org.apache.hadoop.hive.serde2.io.HiveDecimalWritable(Decimals.hive(v, i)).serialize64(scale));
        } else {
          h.addValue(Decimals.hive(v, i).hashCode());
        }
      }
    } else {
      throw new IllegalStateException("No sketch for " + kind);
    }
  }

  /** The footer's bytes: a version, the column count, each column's sketch. */
  public byte[] serialize() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeByte(VERSION);
      out.writeShort(columns.length);
      for (HyperLogLog h : columns) {
        h.writeTo(out);
      }
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * File column {@code f}'s sketch from {@link #serialize}'s bytes of a file of {@code fileColumns}
   * columns, or null when they are not sketches of that many columns (a file of another writer:
   * the planner then estimates without them).
   */
  public static HyperLogLog column(byte[] data, int fileColumns, int f) {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
      if (in.readByte() != VERSION || in.readShort() != fileColumns || f < 0 || f >= fileColumns) {
        return null;
      }
      for (int c = 0; c < f; c++) {
        HyperLogLog.skip(in);
      }
      return HyperLogLog.readFrom(in);
    } catch (IOException | IllegalArgumentException e) {
      return null;
    }
  }
}
