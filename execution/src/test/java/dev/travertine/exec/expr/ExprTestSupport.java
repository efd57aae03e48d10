package dev.travertine.exec.expr;

import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/** Builders for batches and expressions in the evaluator tests. */
final class ExprTestSupport {
  private ExprTestSupport() {}

  static final DataType BOOL = DataType.of(TypeKind.BOOLEAN);
  static final DataType TINY = DataType.of(TypeKind.TINYINT);
  static final DataType SMALL = DataType.of(TypeKind.SMALLINT);
  static final DataType INT = DataType.of(TypeKind.INTEGER);
  static final DataType BIG = DataType.of(TypeKind.BIGINT);
  static final DataType REAL = DataType.of(TypeKind.REAL);
  static final DataType DBL = DataType.of(TypeKind.DOUBLE);
  static final DataType STR = DataType.varchar(-1);
  static final DataType DATE = DataType.of(TypeKind.DATE);
  static final DataType TS = DataType.of(TypeKind.TIMESTAMP);

  /** A vector holding {@code values} (engine representation, null = NULL). */
  static ColumnVector vector(DataType t, Object... values) {
    ColumnVector v = Vecs.alloc(t, Math.max(1, values.length));
    for (int i = 0; i < values.length; i++) {
      Vectors.set(v, t, i, values[i]);
    }
    return v;
  }

  /** A repeating vector of one value, {@code capacity} long. */
  static ColumnVector repeating(DataType t, Object value, int capacity) {
    ColumnVector v = Vecs.alloc(t, capacity);
    Vectors.set(v, t, 0, value);
    v.isRepeating = true;
    return v;
  }

  static Batch batch(ColumnVector[] cols, int... sel) {
    return new Batch(cols, sel, sel.length);
  }

  static Batch all(ColumnVector... cols) {
    int n = cols[0].isNull.length;
    int[] sel = new int[n];
    for (int i = 0; i < n; i++) {
      sel[i] = i;
    }
    return new Batch(cols, sel, n);
  }

  static Expr col(int i, DataType t) {
    return new Expr.Column(i, t, true);
  }

  static Expr lit(Object v, DataType t) {
    return new Expr.Constant(v, t);
  }

  static Expr call(Op op, DataType t, Expr... args) {
    return new Expr.Call(op, List.of(args), t, true);
  }

  /** The values of the selected rows, in selection order. */
  static List<Object> eval(Expr e, Batch b) {
    ColumnVector v = Evaluators.compile(e).evaluate(b);
    List<Object> out = new ArrayList<>();
    for (int k = 0; k < b.size(); k++) {
      out.add(Vectors.get(v, e.type().kind(), b.sel()[k]));
    }
    return out;
  }

  /** The positions filter() selects. */
  static List<Integer> filter(Expr e, Batch b) {
    int[] out = new int[b.size()];
    int n = Evaluators.compile(e).filter(b, out);
    List<Integer> r = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      r.add(out[k]);
    }
    return r;
  }

  static List<Object> list(Object... xs) {
    return Arrays.asList(xs);
  }
}
