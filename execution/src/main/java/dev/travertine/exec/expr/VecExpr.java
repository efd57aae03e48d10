package dev.travertine.exec.expr;

import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * Base of the compiled expressions. {@link #eval} is the internal entry: its result may be a vector
 * the caller must not modify (an input column); {@link #evaluate} is the public one and always
 * returns a vector of its own. {@link #filter} defaults to evaluating and picking TRUE rows.
 */
abstract class VecExpr implements VectorExpression {
  final DataType type;

  VecExpr(DataType type) {
    this.type = type;
  }

  /** Evaluates the selected rows; the result may be shared (read it, never write it). */
  abstract ColumnVector eval(Batch b);

  /**
   * As {@link #eval}, for a caller that also reads our narrow integer vectors ({@link
   * dev.travertine.vector.IntegerVector}): a column of the batch comes as it is, not widened.
   */
  ColumnVector evalRaw(Batch b) {
    return eval(b);
  }

  @Override public ColumnVector evaluate(Batch b) {
    return eval(b);
  }

  @Override public int filter(Batch b, int[] out) {
    return selectTrue((LongColumnVector) eval(b), b.sel(), b.size(), out);
  }

  /** Writes the rows of {@code sel} whose BOOLEAN value is TRUE to {@code out}. */
  static int selectTrue(LongColumnVector v, int[] sel, int n, int[] out) {
    long[] x = v.vector;
    int c = 0;
    if (v.isRepeating) {
      if ((v.noNulls || !v.isNull[0]) && x[0] != 0) {
        System.arraycopy(sel, 0, out, 0, n);
        return n;
      }
      return 0;
    }
    if (v.noNulls) {
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        if (x[i] != 0) {
          out[c++] = i;
        }
      }
    } else {
      boolean[] nul = v.isNull;
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        if (x[i] != 0 && !nul[i]) {
          out[c++] = i;
        }
      }
    }
    return c;
  }
}
