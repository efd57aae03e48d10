package dev.travertine.exec;

import dev.travertine.mergetree.schema.DataType;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.orc.TypeDescription;
import org.apache.orc.impl.TypeUtils;

/** Column vectors for engine types (the vector kinds {@code VectorExpression} documents). */
public final class Columns {
  private Columns() {}

  /** A new, writable vector of {@code size} rows for a value of {@code type}. */
  public static ColumnVector newVector(DataType type, int size) {
    ColumnVector v = TypeUtils.createColumn(type.orcType(), TypeDescription.RowBatchVersion.ORIGINAL, Math.max(1, size));
    if (v instanceof BytesColumnVector b) {
      b.initBuffer();
    }
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
