package dev.travertine.exec.expr;

import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * Three-valued AND / OR over BOOLEAN operands. Each operand is evaluated only for the rows the
 * previous ones left undecided (not FALSE for AND, not TRUE for OR), so {@code x <> 0 AND 1 / x > 0}
 * never divides by zero. {@link #filter} narrows the selection operand by operand (AND) or unites
 * the operands' selections (OR).
 */
final class Logic extends VecExpr {
  private final boolean and;
  private final VecExpr[] args;

  Logic(boolean and, List<VecExpr> args) {
    super(DataType.of(TypeKind.BOOLEAN));
    this.and = and;
    this.args = args.toArray(new VecExpr[0]);
  }

  @Override ColumnVector eval(Batch batch) {
    int n = batch.size();
    LongColumnVector r = Vecs.longs(Vecs.capacity(batch));
    long[] z = r.vector;
    boolean[] zn = r.isNull;
    int[] sel = batch.sel();
    long identity = and ? 1 : 0;
    for (int k = 0; k < n; k++) {
      int i = sel[k];
      z[i] = identity;
    }
    int[] active = java.util.Arrays.copyOf(sel, n);
    int m = n;
    for (VecExpr arg : args) {
      if (m == 0) {
        break;
      }
      LongColumnVector v = (LongColumnVector) arg.eval(Vecs.withSel(batch, active, m));
      long[] x = v.vector;
      boolean rep = v.isRepeating;
      int keep = 0;
      for (int k = 0; k < m; k++) {
        int i = active[k];
        int p = rep ? 0 : i;
        if (!v.noNulls && v.isNull[p]) {
          zn[i] = true;
          r.noNulls = false;
          active[keep++] = i;
        } else if ((x[p] != 0) == and) {
          active[keep++] = i; // TRUE for AND, FALSE for OR: still undecided
        } else {
          z[i] = 1 - identity;
          zn[i] = false;
        }
      }
      m = keep;
    }
    return r;
  }

  @Override public int filter(Batch batch, int[] out) {
    int n = batch.size();
    if (and) {
      int c = args[0].filter(batch, out);
      for (int a = 1; a < args.length && c > 0; a++) {
        c = args[a].filter(Vecs.withSel(batch, out, c), out);
      }
      return c;
    }
    int[] sel = batch.sel();
    int[] remaining = java.util.Arrays.copyOf(sel, n);
    int[] hit = new int[n];
    boolean[] mark = new boolean[Vecs.capacity(batch)];
    int m = n;
    for (VecExpr arg : args) {
      if (m == 0) {
        break;
      }
      int c = arg.filter(Vecs.withSel(batch, remaining, m), hit);
      for (int k = 0; k < c; k++) {
        mark[hit[k]] = true;
      }
      m = Vecs.difference(remaining, m, hit, c, remaining);
    }
    int c = 0;
    for (int k = 0; k < n; k++) {
      int i = sel[k];
      if (mark[i]) {
        out[c++] = i;
      }
    }
    return c;
  }

  /** NOT: TRUE for FALSE, NULL for NULL. */
  static final class Not extends VecExpr {
    private final VecExpr arg;

    Not(VecExpr arg) {
      super(DataType.of(TypeKind.BOOLEAN));
      this.arg = arg;
    }

    @Override ColumnVector eval(Batch batch) {
      int n = batch.size();
      int[] sel = batch.sel();
      LongColumnVector r = Vecs.longs(Vecs.capacity(batch));
      if (n == 0) {
        return r;
      }
      LongColumnVector v = (LongColumnVector) arg.eval(batch);
      if (v.isRepeating) {
        r.isRepeating = true;
        r.vector[0] = 1 - v.vector[0];
        if (!v.noNulls && v.isNull[0]) {
          Vecs.setNull(r, 0);
        }
        return r;
      }
      Vecs.propagateNulls(r, v, sel, n);
      long[] x = v.vector;
      long[] z = r.vector;
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        z[i] = 1 - x[i];
      }
      return r;
    }

    @Override public int filter(Batch batch, int[] out) {
      int n = batch.size();
      if (n == 0) {
        return 0;
      }
      LongColumnVector v = (LongColumnVector) arg.eval(batch);
      int[] sel = batch.sel();
      int c = 0;
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        int p = v.isRepeating ? 0 : i;
        if (v.vector[p] == 0 && (v.noNulls || !v.isNull[p])) {
          out[c++] = i;
        }
      }
      return c;
    }
  }

  /** IS [NOT] NULL / TRUE / FALSE: never NULL. */
  static final class Test extends VecExpr {
    private final Op op;
    private final VecExpr arg;

    Test(Op op, VecExpr arg) {
      super(DataType.of(TypeKind.BOOLEAN));
      this.op = op;
      this.arg = arg;
    }

    @Override ColumnVector eval(Batch batch) {
      int n = batch.size();
      int[] sel = batch.sel();
      LongColumnVector r = Vecs.longs(Vecs.capacity(batch));
      if (n == 0) {
        return r;
      }
      ColumnVector v = arg.eval(batch);
      long[] z = r.vector;
      long[] x = v instanceof LongColumnVector l ? l.vector : null;
      boolean rep = v.isRepeating;
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        int p = rep ? 0 : i;
        boolean nul = !v.noNulls && v.isNull[p];
        boolean res = switch (op) {
          case IS_NULL -> nul;
          case IS_NOT_NULL -> !nul;
          case IS_TRUE -> !nul && x[p] != 0;
          case IS_NOT_TRUE -> nul || x[p] == 0;
          case IS_FALSE -> !nul && x[p] == 0;
          case IS_NOT_FALSE -> nul || x[p] != 0;
          default -> throw new IllegalStateException(op.name());
        };
        z[i] = res ? 1 : 0;
      }
      return r;
    }

    @Override public int filter(Batch batch, int[] out) {
      int n = batch.size();
      if (n == 0) {
        return 0;
      }
      ColumnVector v = arg.eval(batch);
      int[] sel = batch.sel();
      if ((op == Op.IS_NULL || op == Op.IS_NOT_NULL) && !v.isRepeating) {
        if (v.noNulls) {
          if (op == Op.IS_NULL) {
            return 0;
          }
          System.arraycopy(sel, 0, out, 0, n);
          return n;
        }
        boolean want = op == Op.IS_NULL;
        boolean[] nul = v.isNull;
        int c = 0;
        for (int k = 0; k < n; k++) {
          int i = sel[k];
          if (nul[i] == want) {
            out[c++] = i;
          }
        }
        return c;
      }
      return selectTrue((LongColumnVector) eval(batch), sel, n, out);
    }
  }
}
