package dev.travertine.exec.expr;

import dev.travertine.exec.Columns;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Decimals;
import dev.travertine.vector.DictionaryVector;
import dev.travertine.vector.Int32Vector;
import dev.travertine.vector.IntegerVector;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.util.Arrays;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * = <> < <= > >= and IS [NOT] DISTINCT FROM on two operands of the same physical representation
 * (long-backed and TIMESTAMP as longs, REAL/DOUBLE as doubles with Java's primitive semantics,
 * DECIMAL by value, strings by unsigned UTF-8 bytes, which is code-point order). {@link #filter}
 * writes the matching positions directly, with tight loops for column-vs-constant and
 * column-vs-column shapes.
 */
final class Comparison extends VecExpr {
  private final Op op;
  private final VecExpr left;
  private final VecExpr right;
  private final Repr repr;

  /** How the operands' values are compared. */
  enum Repr { LONG, DOUBLE, DECIMAL, BYTES }

  static Repr reprOf(TypeKind k) {
    if (k.isLongBacked() || k == TypeKind.TIMESTAMP) {
      return Repr.LONG;
    }
    if (k.isDoubleBacked()) {
      return Repr.DOUBLE;
    }
    return k == TypeKind.DECIMAL ? Repr.DECIMAL : Repr.BYTES;
  }

  Comparison(Op op, VecExpr left, VecExpr right) {
    super(DataType.of(TypeKind.BOOLEAN));
    this.op = op;
    this.left = left;
    this.right = right;
    this.repr = reprOf(left.type.kind());
  }

  private boolean distinctOp() {
    return op == Op.IS_DISTINCT_FROM || op == Op.IS_NOT_DISTINCT_FROM;
  }

  @Override ColumnVector eval(Batch batch) {
    int n = batch.size();
    int[] sel = batch.sel();
    LongColumnVector r = VectorArena.longs(Vecs.capacity(batch));
    if (n == 0) {
      return r;
    }
    ColumnVector a = left.eval(batch);
    ColumnVector b = right.eval(batch);
    long[] z = r.vector;
    if (distinctOp()) {
      boolean want = op == Op.IS_DISTINCT_FROM;
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        z[i] = distinct(a, b, i) == want ? 1 : 0;
      }
      return r;
    }
    if (!(a.noNulls && b.noNulls)) {
      Vecs.propagateNulls(r, a, b, sel, n);
    }
    int[] tmp = new int[n];
    int c = compareFilter(a, b, sel, n, tmp, false);
    for (int k = 0; k < n; k++) {
      z[sel[k]] = 0;
    }
    for (int k = 0; k < c; k++) {
      z[tmp[k]] = 1;
    }
    return r;
  }

  @Override public int filter(Batch batch, int[] out) {
    int n = batch.size();
    if (n == 0) {
      return 0;
    }
    ColumnVector a = left.evalRaw(batch);
    ColumnVector b = right.evalRaw(batch);
    int[] sel = batch.sel();
    if (distinctOp()) {
      a = Vectors.wide(a);
      b = Vectors.wide(b);
      boolean want = op == Op.IS_DISTINCT_FROM;
      int c = 0;
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        if (distinct(a, b, i) == want) {
          out[c++] = i;
        }
      }
      return c;
    }
    return compareFilter(a, b, sel, n, out, true);
  }

  /** Rows where the comparison holds; with {@code dropNulls}, NULL rows are removed. */
  private int compareFilter(ColumnVector a, ColumnVector b, int[] sel, int n, int[] out, boolean dropNulls) {
    if (a.isRepeating && Vecs.isNull(a, 0) || b.isRepeating && Vecs.isNull(b, 0)) {
      return 0;
    }
    if (a instanceof IntegerVector || b instanceof IntegerVector) {
      // a column of integers at their width against a constant: compared at that width
      boolean left = a instanceof IntegerVector && b.isRepeating;
      ColumnVector col = left ? a : b;
      ColumnVector constant = left ? b : a;
      if (!col.isRepeating && constant.isRepeating && !(constant instanceof IntegerVector)) {
        int c = ((IntegerVector) col).selectCompare(scanOp(left ? op : flip(op)), Vecs.longValues(constant)[0], sel,
            n, out, skewed());
        seen(c, n);
        return dropNulls ? dropNulls(a, b, out, c) : c;
      }
      if (a instanceof Int32Vector x && b instanceof Int32Vector y && !x.isRepeating && !y.isRepeating) {
        // two INTEGER or DATE columns (TPC-H's l_commitdate < l_receiptdate): compared as ints
        int c = ints(x.values, y.values, op, sel, n, out);
        seen(c, n);
        return dropNulls ? dropNulls(a, b, out, c) : c;
      }
      a = Vectors.wide(a);
      b = Vectors.wide(b);
    }
    if (a instanceof DictionaryVector || b instanceof DictionaryVector) {
      // a column of dictionary strings against a constant: compared once per dictionary entry
      boolean left = a instanceof DictionaryVector && b.isRepeating && b instanceof BytesColumnVector;
      boolean right = b instanceof DictionaryVector && a.isRepeating && a instanceof BytesColumnVector;
      if ((left || right) && !(left ? a : b).isRepeating && repr == Repr.BYTES) {
        BytesColumnVector k = (BytesColumnVector) (left ? b : a);
        byte[] kb = k.vector[0];
        int ks = k.start[0];
        int kl = k.length[0];
        Op o = left ? op : flip(op);
        DictionaryVector.StringTest t = switch (o) {
          case EQ -> (x, s, l) -> l == kl && Arrays.equals(x, s, s + l, kb, ks, ks + kl);
          case NE -> (x, s, l) -> l != kl || !Arrays.equals(x, s, s + l, kb, ks, ks + kl);
          default -> (x, s, l) -> holds(o, Arrays.compareUnsigned(x, s, s + l, kb, ks, ks + kl));
        };
        int c = ((DictionaryVector) (left ? a : b)).select(t, sel, n, out);
        seen(c, n);
        return c; // NULL rows never pass
      }
      a = Vectors.wide(a);
      b = Vectors.wide(b);
    }
    int c = switch (repr) {
      case LONG -> longs(Vecs.longValues(a), a.isRepeating, Vecs.longValues(b), b.isRepeating, sel, n, out);
      case DOUBLE -> doubles(((DoubleColumnVector) a).vector, a.isRepeating,
          ((DoubleColumnVector) b).vector, b.isRepeating, sel, n, out);
      default -> generic(a, b, sel, n, out);
    };
    return dropNulls ? dropNulls(a, b, out, c) : c;
  }

  /** {@code out[0 .. c)} without the rows where {@code a} or {@code b} is NULL; returns the count left. */
  private static int dropNulls(ColumnVector a, ColumnVector b, int[] out, int c) {
    if (a.noNulls && b.noNulls) {
      return c;
    }
    int m = 0;
    for (int k = 0; k < c; k++) {
      int i = out[k];
      if (!Vecs.isNull(a, i) && !Vecs.isNull(b, i)) {
        out[m++] = i;
      }
    }
    return m;
  }

  /** A comparison operator as the scan predicates (and the narrow vectors' comparisons) name it. */
  private static Predicate.Op scanOp(Op o) {
    return switch (o) {
      case EQ -> Predicate.Op.EQ;
      case NE -> Predicate.Op.NE;
      case LT -> Predicate.Op.LT;
      case LE -> Predicate.Op.LE;
      case GT -> Predicate.Op.GT;
      case GE -> Predicate.Op.GE;
      default -> throw new IllegalStateException(o.name());
    };
  }

  private boolean test(int cmp) {
    return holds(op, cmp);
  }

  private static boolean holds(Op op, int cmp) {
    return switch (op) {
      case EQ -> cmp == 0;
      case NE -> cmp != 0;
      case LT -> cmp < 0;
      case LE -> cmp <= 0;
      case GT -> cmp > 0;
      case GE -> cmp >= 0;
      default -> throw new IllegalStateException(op.name());
    };
  }

  /** IS DISTINCT FROM for one row. */
  private boolean distinct(ColumnVector a, ColumnVector b, int i) {
    boolean an = Vecs.isNull(a, i);
    boolean bn = Vecs.isNull(b, i);
    if (an || bn) {
      return an != bn;
    }
    return switch (repr) {
      case LONG -> Vecs.longValues(a)[a.isRepeating ? 0 : i] != Vecs.longValues(b)[b.isRepeating ? 0 : i];
      case DOUBLE -> ((DoubleColumnVector) a).vector[a.isRepeating ? 0 : i]
          != ((DoubleColumnVector) b).vector[b.isRepeating ? 0 : i];
      default -> compareAt(a, b, i) != 0;
    };
  }

  private int compareAt(ColumnVector a, ColumnVector b, int i) {
    int p = a.isRepeating ? 0 : i;
    int q = b.isRepeating ? 0 : i;
    if (repr == Repr.DECIMAL) {
      return Decimals.compare(a, p, b, q);
    }
    BytesColumnVector x = (BytesColumnVector) a;
    BytesColumnVector y = (BytesColumnVector) b;
    return Arrays.compareUnsigned(x.vector[p], x.start[p], x.start[p] + x.length[p],
        y.vector[q], y.start[q], y.start[q] + y.length[q]);
  }

  /**
   * Rows where the comparison holds, NULL rows left out (a NULL string may have no bytes behind
   * it: a CASE or COALESCE result holds none where it is NULL).
   */
  private int generic(ColumnVector a, ColumnVector b, int[] sel, int n, int[] out) {
    int c = 0;
    boolean nulls = !(a.noNulls && b.noNulls);
    if (repr == Repr.BYTES && b.isRepeating && (op == Op.EQ || op == Op.NE)) {
      BytesColumnVector x = (BytesColumnVector) a;
      BytesColumnVector y = (BytesColumnVector) b;
      byte[] cb = y.vector[0];
      int cs = y.start[0];
      int cl = y.length[0];
      boolean eq = op == Op.EQ;
      if (x.isRepeating) {
        boolean m = cl == x.length[0] && Arrays.equals(x.vector[0], x.start[0], x.start[0] + cl, cb, cs, cs + cl);
        if (m == eq) {
          System.arraycopy(sel, 0, out, 0, n);
          return n;
        }
        return 0;
      }
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        if (nulls && Vecs.isNull(x, i)) {
          continue;
        }
        boolean m = x.length[i] == cl && Arrays.equals(x.vector[i], x.start[i], x.start[i] + cl, cb, cs, cs + cl);
        if (m == eq) {
          out[c++] = i;
        }
      }
      return c;
    }
    for (int k = 0; k < n; k++) {
      int i = sel[k];
      if (nulls && (Vecs.isNull(a, i) || Vecs.isNull(b, i))) {
        continue;
      }
      if (test(compareAt(a, b, i))) {
        out[c++] = i;
      }
    }
    return c;
  }

  /** Rows of {@code sel[0 .. n)} where {@code x[i] op y[i]}, without a branch on the outcome. */
  private static int ints(int[] x, int[] y, Op op, int[] sel, int n, int[] out) {
    int c = 0;
    switch (op) {
      case EQ -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += x[i] == y[i] ? 1 : 0; } }
      case NE -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += x[i] != y[i] ? 1 : 0; } }
      case LT -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += x[i] < y[i] ? 1 : 0; } }
      case LE -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += x[i] <= y[i] ? 1 : 0; } }
      case GT -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += x[i] > y[i] ? 1 : 0; } }
      case GE -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += x[i] >= y[i] ? 1 : 0; } }
      default -> throw new IllegalStateException(op.name());
    }
    return c;
  }

  private int longs(long[] x, boolean xr, long[] y, boolean yr, int[] sel, int n, int[] out) {
    int c = 0;
    if (xr && yr) {
      if (test(Long.compare(x[0], y[0]))) {
        System.arraycopy(sel, 0, out, 0, n);
        return n;
      }
      return 0;
    }
    if (yr || xr) {
      // column op constant; a constant on the left flips the operator
      long v = yr ? y[0] : x[0];
      long[] col = yr ? x : y;
      Op o = yr ? op : flip(op);
      if (Columns.dense(sel, n)) {
        int kept = skewed() ? denseLongsBranching(col, v, o, n, out) : denseLongs(col, v, o, n, out);
        seen(kept, n);
        return kept;
      }
      switch (o) {
        case EQ -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += col[i] == v ? 1 : 0; } }
        case NE -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += col[i] != v ? 1 : 0; } }
        case LT -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += col[i] < v ? 1 : 0; } }
        case LE -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += col[i] <= v ? 1 : 0; } }
        case GT -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += col[i] > v ? 1 : 0; } }
        case GE -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += col[i] >= v ? 1 : 0; } }
        default -> throw new IllegalStateException(o.name());
      }
      return c;
    }
    switch (op) {
      case EQ -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += x[i] == y[i] ? 1 : 0; } }
      case NE -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += x[i] != y[i] ? 1 : 0; } }
      case LT -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += x[i] < y[i] ? 1 : 0; } }
      case LE -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += x[i] <= y[i] ? 1 : 0; } }
      case GT -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += x[i] > y[i] ? 1 : 0; } }
      case GE -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += x[i] >= y[i] ? 1 : 0; } }
      default -> throw new IllegalStateException(op.name());
    }
    return c;
  }

  /**
   * Rows kept and seen by this instance's recent batches (an instance serves one thread): when
   * nearly all or nearly none pass, a branch predicts well and beats the branch-free loop, which
   * stores every position.
   */
  private long recentKept;
  private long recentSeen;

  private boolean skewed() {
    return recentSeen > 0 && (recentKept * 16 < recentSeen || recentKept * 16 > recentSeen * 15);
  }

  private void seen(int kept, int n) {
    recentKept = recentKept / 2 + kept;
    recentSeen = recentSeen / 2 + n;
  }

  /** {@link #denseLongs} with a branch per row (for selections that keep almost all or almost none). */
  private static int denseLongsBranching(long[] col, long v, Op o, int n, int[] out) {
    int c = 0;
    switch (o) {
      case EQ -> { for (int i = 0; i < n; i++) { if (col[i] == v) { out[c++] = i; } } }
      case NE -> { for (int i = 0; i < n; i++) { if (col[i] != v) { out[c++] = i; } } }
      case LT -> { for (int i = 0; i < n; i++) { if (col[i] < v) { out[c++] = i; } } }
      case LE -> { for (int i = 0; i < n; i++) { if (col[i] <= v) { out[c++] = i; } } }
      case GT -> { for (int i = 0; i < n; i++) { if (col[i] > v) { out[c++] = i; } } }
      case GE -> { for (int i = 0; i < n; i++) { if (col[i] >= v) { out[c++] = i; } } }
      default -> throw new IllegalStateException(o.name());
    }
    return c;
  }

  /** {@link #longs} of a column against a constant over every row 0 .. n-1 (no gather through sel). */
  private static int denseLongs(long[] col, long v, Op o, int n, int[] out) {
    int c = 0;
    switch (o) {
      case EQ -> { for (int i = 0; i < n; i++) { out[c] = i; c += col[i] == v ? 1 : 0; } }
      case NE -> { for (int i = 0; i < n; i++) { out[c] = i; c += col[i] != v ? 1 : 0; } }
      case LT -> { for (int i = 0; i < n; i++) { out[c] = i; c += col[i] < v ? 1 : 0; } }
      case LE -> { for (int i = 0; i < n; i++) { out[c] = i; c += col[i] <= v ? 1 : 0; } }
      case GT -> { for (int i = 0; i < n; i++) { out[c] = i; c += col[i] > v ? 1 : 0; } }
      case GE -> { for (int i = 0; i < n; i++) { out[c] = i; c += col[i] >= v ? 1 : 0; } }
      default -> throw new IllegalStateException(o.name());
    }
    return c;
  }

  private int doubles(double[] x, boolean xr, double[] y, boolean yr, int[] sel, int n, int[] out) {
    int c = 0;
    if (xr && yr) {
      if (holds(op, x[0], y[0])) {
        System.arraycopy(sel, 0, out, 0, n);
        return n;
      }
      return 0;
    }
    if (yr || xr) {
      double v = yr ? y[0] : x[0];
      double[] col = yr ? x : y;
      Op o = yr ? op : flip(op);
      switch (o) {
        case EQ -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += col[i] == v ? 1 : 0; } }
        case NE -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += col[i] != v ? 1 : 0; } }
        case LT -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += col[i] < v ? 1 : 0; } }
        case LE -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += col[i] <= v ? 1 : 0; } }
        case GT -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += col[i] > v ? 1 : 0; } }
        case GE -> { for (int k = 0; k < n; k++) { int i = sel[k]; out[c] = i; c += col[i] >= v ? 1 : 0; } }
        default -> throw new IllegalStateException(o.name());
      }
      return c;
    }
    for (int k = 0; k < n; k++) {
      int i = sel[k];
      if (holds(op, x[i], y[i])) {
        out[c++] = i;
      }
    }
    return c;
  }

  private static boolean holds(Op op, double u, double v) {
    return switch (op) {
      case EQ -> u == v;
      case NE -> u != v;
      case LT -> u < v;
      case LE -> u <= v;
      case GT -> u > v;
      case GE -> u >= v;
      default -> throw new IllegalStateException(op.name());
    };
  }

  /** The operator with its operands swapped: {@code c < x} is {@code x > c}. */
  static Op flip(Op op) {
    return switch (op) {
      case LT -> Op.GT;
      case LE -> Op.GE;
      case GT -> Op.LT;
      case GE -> Op.LE;
      default -> op;
    };
  }
}
