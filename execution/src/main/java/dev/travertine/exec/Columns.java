package dev.travertine.exec;

import dev.travertine.vector.DataType;
import dev.travertine.vector.Decimals;
import dev.travertine.vector.TypeKind;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DateColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.serde2.io.HiveDecimalWritable;

/** Column vectors for engine types (the vector kinds {@code VectorExpression} documents). */
public final class Columns {
  private Columns() {}

  /** A new, writable vector of {@code size} rows for a value of {@code type}. */
  public static ColumnVector newVector(DataType type, int size) {
    int n = Math.max(1, size);
    // the vectors ORC's TypeUtils.createColumn makes, without building a TypeDescription each time
    return switch (type.kind()) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT -> new LongColumnVector(n);
      case REAL, DOUBLE -> new DoubleColumnVector(n);
      case TIMESTAMP -> new TimestampColumnVector(n);
      case DATE -> new DateColumnVector(n);
      case DECIMAL -> new DecimalColumnVector(n, type.precision(), type.scale());
      case CHAR, VARCHAR -> {
        BytesColumnVector b = new BytesColumnVector(n);
        b.initBuffer();
        yield b;
      }
    };
  }

  /**
   * A vector for {@link dev.travertine.exec.join.VectorGather} to fill: as {@link #newVector},
   * except that a DECIMAL one holds no value objects of its own past slot 0 (they are null) and the
   * gather puts the source's objects in by reference, as it does with strings' bytes. A join's
   * output then allocates one array per decimal column, not one object per value.
   */
  public static ColumnVector gatherTarget(DataType type, int size, ColumnVector source) {
    return type.kind() == TypeKind.DECIMAL && Decimals.scaled(source) ? Decimals.newScaled(Math.max(1, size), type)
        : gatherTarget(type, size);
  }

  /** As {@link #gatherTarget(DataType, int, ColumnVector)} for a source of decimal objects. */
  public static ColumnVector gatherTarget(DataType type, int size) {
    if (type.kind() != TypeKind.DECIMAL) {
      return newVector(type, size);
    }
    DecimalColumnVector v = new DecimalColumnVector(1, type.precision(), type.scale());
    int cap = Math.max(1, size);
    HiveDecimalWritable[] w = new HiveDecimalWritable[cap];
    w[0] = v.vector[0]; // its own at 0, for a repeating NULL; the gather copies into it
    v.vector = w;
    v.isNull = new boolean[cap];
    return v;
  }

  /**
   * A DECIMAL vector of {@code size} rows whose value objects exist only at the positions
   * {@code sel[0 .. n)} and 0 (the others stay null): a batch that keeps 2 % of its rows allocates 2 %
   * of the objects. For results, which are read at the selected positions only.
   */
  public static DecimalColumnVector selectedDecimals(DataType type, int size, int[] sel, int n) {
    DecimalColumnVector v = new DecimalColumnVector(1, type.precision(), type.scale());
    int cap = Math.max(1, size);
    HiveDecimalWritable[] w = new HiveDecimalWritable[cap];
    w[0] = v.vector[0];
    for (int k = 0; k < n; k++) {
      if (w[sel[k]] == null) {
        w[sel[k]] = new HiveDecimalWritable();
      }
    }
    v.vector = w;
    v.isNull = new boolean[cap];
    return v;
  }

  /**
   * Whether the selection {@code sel[0 .. n)} is every position 0 .. n - 1 (selections are
   * ascending and unique, so its last is n - 1): kernels then loop without the indirection.
   */
  public static boolean dense(int[] sel, int n) {
    return n > 0 && sel[n - 1] == n - 1;
  }

  /** 0, 1, … n - 1. */
  public static int[] identity(int n) {
    int[] sel = new int[n];
    for (int i = 0; i < n; i++) {
      sel[i] = i;
    }
    return sel;
  }
}
