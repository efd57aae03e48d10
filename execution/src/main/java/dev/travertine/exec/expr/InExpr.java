package dev.travertine.exec.expr;

import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Decimals;
import dev.travertine.vector.TypeKind;
import it.unimi.dsi.fastutil.doubles.DoubleOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * value [NOT] IN (constants). Long-backed and TIMESTAMP values probe a fastutil
 * {@code LongOpenHashSet} (a linear scan for up to 8 values), doubles a {@code DoubleOpenHashSet},
 * strings a set of byte buffers, DECIMAL a set of BigDecimals. SQL semantics: NULL when the value
 * is NULL, or when it is not found and the list holds a NULL.
 */
final class InExpr extends VecExpr {
  private final VecExpr arg;
  private final boolean negated;
  private final boolean listHasNull;
  private final Comparison.Repr repr;
  private final long[] smallLongs;
  private final LongOpenHashSet longs;
  private final DoubleOpenHashSet doubles;
  private final Set<ByteBuffer> strings;
  private final Set<BigDecimal> decimals;

  InExpr(VecExpr arg, List<ConstantExpr> values, boolean negated) {
    super(DataType.of(TypeKind.BOOLEAN));
    this.arg = arg;
    this.negated = negated;
    this.repr = Comparison.reprOf(arg.type.kind());
    boolean hasNull = false;
    LongOpenHashSet ls = new LongOpenHashSet();
    DoubleOpenHashSet ds = new DoubleOpenHashSet();
    Set<ByteBuffer> ss = new HashSet<>();
    Set<BigDecimal> bs = new HashSet<>();
    for (ConstantExpr c : values) {
      if (c.isNull()) {
        hasNull = true;
        continue;
      }
      switch (repr) {
        case LONG -> ls.add(c.longValue);
        case DOUBLE -> ds.add(c.doubleValue == 0 ? 0.0 : c.doubleValue); // -0.0 = 0.0
        case BYTES -> ss.add(ByteBuffer.wrap(c.bytes));
        case DECIMAL -> bs.add(c.decimal.stripTrailingZeros());
      }
    }
    this.listHasNull = hasNull;
    this.smallLongs = repr == Comparison.Repr.LONG && ls.size() <= 8 ? ls.toLongArray() : null;
    this.longs = ls;
    this.doubles = ds;
    this.strings = ss;
    this.decimals = bs;
  }

  private boolean contains(ColumnVector v, int p) {
    switch (repr) {
      case LONG -> {
        long x = Vecs.longValues(v)[p];
        if (smallLongs != null) {
          for (long c : smallLongs) {
            if (c == x) {
              return true;
            }
          }
          return false;
        }
        return longs.contains(x);
      }
      case DOUBLE -> {
        double x = ((DoubleColumnVector) v).vector[p];
        return x == 0 ? doubles.contains(0.0) : doubles.contains(x) && !Double.isNaN(x);
      }
      case BYTES -> {
        BytesColumnVector b = (BytesColumnVector) v;
        return strings.contains(ByteBuffer.wrap(b.vector[p], b.start[p], b.length[p]));
      }
      default -> {
        return decimals.contains(Decimals.big(v, p).stripTrailingZeros());
      }
    }
  }

  @Override ColumnVector eval(Batch batch) {
    int n = batch.size();
    int[] sel = batch.sel();
    LongColumnVector r = Vecs.longs(Vecs.capacity(batch));
    if (n == 0) {
      return r;
    }
    ColumnVector v = arg.eval(batch);
    if (v.isRepeating) {
      r.isRepeating = true;
      sel = new int[] {0};
      n = 1;
    }
    long[] z = r.vector;
    for (int k = 0; k < n; k++) {
      int i = sel[k];
      if (!v.noNulls && v.isNull[i]) {
        Vecs.setNull(r, i);
      } else if (contains(v, i)) {
        z[i] = negated ? 0 : 1;
      } else if (listHasNull) {
        Vecs.setNull(r, i);
      } else {
        z[i] = negated ? 1 : 0;
      }
    }
    return r;
  }

  @Override public int filter(Batch batch, int[] out) {
    int n = batch.size();
    if (n == 0 || negated && listHasNull) {
      return 0; // NOT IN with a NULL in the list is never TRUE
    }
    ColumnVector v = arg.eval(batch);
    int[] sel = batch.sel();
    if (v.isRepeating) {
      boolean t = (v.noNulls || !v.isNull[0]) && contains(v, 0) != negated;
      if (t) {
        System.arraycopy(sel, 0, out, 0, n);
        return n;
      }
      return 0;
    }
    int c = 0;
    if (repr == Comparison.Repr.LONG && v.noNulls && smallLongs == null) {
      long[] x = Vecs.longValues(v);
      LongOpenHashSet set = longs;
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        if (set.contains(x[i]) != negated) {
          out[c++] = i;
        }
      }
      return c;
    }
    for (int k = 0; k < n; k++) {
      int i = sel[k];
      if ((v.noNulls || !v.isNull[i]) && contains(v, i) != negated) {
        out[c++] = i;
      }
    }
    return c;
  }
}
