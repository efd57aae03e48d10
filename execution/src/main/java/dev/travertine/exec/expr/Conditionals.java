package dev.travertine.exec.expr;

import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * CASE, COALESCE and NULLIF. Each branch is evaluated only over the rows that take it (narrowed
 * selection vectors), so a branch that would fail for rows it does not own raises nothing.
 */
final class Conditionals {
  private Conditionals() {}

  /** CASE WHEN c1 THEN v1 ... ELSE e END; branches already of the result type. */
  static final class Case extends VecExpr {
    private final VecExpr[] whens;
    private final VecExpr[] thens;
    private final VecExpr otherwise;

    Case(List<VecExpr> whens, List<VecExpr> thens, VecExpr otherwise, DataType type) {
      super(type);
      this.whens = whens.toArray(new VecExpr[0]);
      this.thens = thens.toArray(new VecExpr[0]);
      this.otherwise = otherwise;
    }

    @Override ColumnVector eval(Batch batch) {
      int n = batch.size();
      ColumnVector r = Vecs.alloc(type, Vecs.capacity(batch));
      if (n == 0) {
        return r;
      }
      int[] remaining = Arrays.copyOf(batch.sel(), n);
      int[] taken = new int[n];
      int m = n;
      for (int w = 0; w < whens.length && m > 0; w++) {
        int c = whens[w].filter(Vecs.withSel(batch, remaining, m), taken);
        if (c > 0) {
          ColumnVector v = thens[w].eval(Vecs.withSel(batch, taken, c));
          Vecs.copyRows(v, r, taken, c, type.kind());
          m = Vecs.difference(remaining, m, taken, c, remaining);
        }
      }
      if (m > 0) {
        ColumnVector v = otherwise.eval(Vecs.withSel(batch, remaining, m));
        Vecs.copyRows(v, r, remaining, m, type.kind());
      }
      return r;
    }
  }

  /** COALESCE(a, b, ...): each argument only for the rows still NULL. */
  static final class Coalesce extends VecExpr {
    private final VecExpr[] args;

    Coalesce(List<VecExpr> args, DataType type) {
      super(type);
      this.args = args.toArray(new VecExpr[0]);
    }

    @Override ColumnVector eval(Batch batch) {
      int n = batch.size();
      ColumnVector r = Vecs.alloc(type, Vecs.capacity(batch));
      if (n == 0) {
        return r;
      }
      int[] remaining = Arrays.copyOf(batch.sel(), n);
      int[] hit = new int[n];
      int m = n;
      for (int a = 0; a < args.length && m > 0; a++) {
        ColumnVector v = args[a].eval(Vecs.withSel(batch, remaining, m));
        int c = 0;
        int keep = 0;
        for (int k = 0; k < m; k++) {
          int i = remaining[k];
          if (Vecs.isNull(v, i)) {
            remaining[keep++] = i;
          } else {
            hit[c++] = i;
          }
        }
        Vecs.copyRows(v, r, hit, c, type.kind());
        m = keep;
      }
      Vecs.setNulls(r, remaining, m);
      return r;
    }
  }

  /** NULLIF(a, b): NULL where {@code equal} (a = b) is TRUE, else a. */
  static final class NullIf extends VecExpr {
    private final VecExpr value;
    private final VecExpr equal;

    NullIf(VecExpr value, VecExpr equal, DataType type) {
      super(type);
      this.value = value;
      this.equal = equal;
    }

    @Override ColumnVector eval(Batch batch) {
      int n = batch.size();
      ColumnVector r = Vecs.alloc(type, Vecs.capacity(batch));
      if (n == 0) {
        return r;
      }
      int[] eq = new int[n];
      int c = equal.filter(batch, eq);
      int[] rest = new int[n];
      int m = Vecs.difference(batch.sel(), n, eq, c, rest);
      Vecs.setNulls(r, eq, c);
      if (m > 0) {
        ColumnVector v = value.eval(Vecs.withSel(batch, rest, m));
        Vecs.copyRows(v, r, rest, m, type.kind());
      }
      return r;
    }
  }
}
