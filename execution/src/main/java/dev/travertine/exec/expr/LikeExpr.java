package dev.travertine.exec.expr;

import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/** [NOT] LIKE with a constant pattern, on the string's bytes ({@link LikePattern}). */
final class LikeExpr extends VecExpr {
  private final VecExpr arg;
  private final LikePattern pattern;
  private final boolean negated;

  LikeExpr(VecExpr arg, LikePattern pattern, boolean negated) {
    super(DataType.of(TypeKind.BOOLEAN));
    this.arg = arg;
    this.pattern = pattern;
    this.negated = negated;
  }

  @Override ColumnVector eval(Batch batch) {
    int n = batch.size();
    int[] sel = batch.sel();
    LongColumnVector r = Vecs.longs(Vecs.capacity(batch));
    if (n == 0) {
      return r;
    }
    BytesColumnVector s = (BytesColumnVector) arg.eval(batch);
    if (s.isRepeating) {
      r.isRepeating = true;
      sel = new int[] {0};
      n = 1;
    }
    Vecs.propagateNulls(r, s, sel, n);
    long[] z = r.vector;
    for (int k = 0; k < n; k++) {
      int i = sel[k];
      z[i] = pattern.matches(s.vector[i], s.start[i], s.length[i]) != negated ? 1 : 0;
    }
    return r;
  }

  @Override public int filter(Batch batch, int[] out) {
    int n = batch.size();
    if (n == 0) {
      return 0;
    }
    BytesColumnVector s = (BytesColumnVector) arg.eval(batch);
    int[] sel = batch.sel();
    if (s.isRepeating) {
      boolean t = (s.noNulls || !s.isNull[0]) && pattern.matches(s.vector[0], s.start[0], s.length[0]) != negated;
      if (t) {
        System.arraycopy(sel, 0, out, 0, n);
        return n;
      }
      return 0;
    }
    byte[][] v = s.vector;
    int[] st = s.start;
    int[] len = s.length;
    int c = 0;
    if (s.noNulls) {
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        if (pattern.matches(v[i], st[i], len[i]) != negated) {
          out[c++] = i;
        }
      }
    } else {
      boolean[] nul = s.isNull;
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        if (!nul[i] && pattern.matches(v[i], st[i], len[i]) != negated) {
          out[c++] = i;
        }
      }
    }
    return c;
  }
}
