package dev.travertine.exec.expr;

import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Vectors;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/** A column of the input batch. Internally its vector is read in place; {@link #evaluate} copies. */
final class ColumnExpr extends VecExpr {
  final int index;

  ColumnExpr(int index, DataType type) {
    super(type);
    this.index = index;
  }

  /** Hive's form of the column (a narrow integer vector widened: a copy). */
  @Override ColumnVector eval(Batch b) {
    return Vectors.wide(evalRaw(b));
  }

  /** The column as it is in the batch: possibly an {@link dev.travertine.vector.IntegerVector}. */
  @Override ColumnVector evalRaw(Batch b) {
    ColumnVector v = b.cols()[index];
    if (v == null) {
      throw new IllegalStateException("Column " + index + " of the batch was not read");
    }
    return v;
  }

  @Override public ColumnVector evaluate(Batch b) {
    ColumnVector src = eval(b);
    int n = b.size();
    if (src.isRepeating) {
      ColumnVector r = Vecs.alloc(type, Vecs.capacity(b));
      Vecs.copyRows(src, r, new int[] {0}, 1, type.kind());
      r.isRepeating = true;
      return r;
    }
    ColumnVector r = Vecs.alloc(type, Vecs.capacity(b));
    Vecs.copyRows(src, r, b.sel(), n, type.kind());
    return r;
  }
}
