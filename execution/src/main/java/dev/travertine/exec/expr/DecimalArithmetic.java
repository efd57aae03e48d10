package dev.travertine.exec.expr;

import dev.travertine.mergetree.scan.ScanBatch;
import dev.travertine.mergetree.schema.DataType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;

/**
 * + - * / MOD NEGATE on DECIMAL results, exact (BigDecimal per row: DECIMAL is rare). The exact
 * value is brought to the result type's scale by truncation, as Calcite's CAST to DECIMAL does;
 * a value that does not fit the result precision throws {@code ArithmeticException}. Division by
 * zero throws {@code ArithmeticException("Division by zero")}.
 */
final class DecimalArithmetic extends VecExpr {
  private final Op op;
  private final VecExpr left;
  private final VecExpr right;

  DecimalArithmetic(Op op, VecExpr left, VecExpr right, DataType type) {
    super(type);
    this.op = op;
    this.left = left;
    this.right = right;
  }

  @Override ColumnVector eval(ScanBatch batch) {
    int n = batch.size();
    int[] sel = batch.sel();
    DecimalColumnVector r = (DecimalColumnVector) Vecs.alloc(type, Vecs.capacity(batch));
    if (n == 0) {
      return r;
    }
    DecimalColumnVector a = (DecimalColumnVector) left.eval(batch);
    DecimalColumnVector b = right == null ? null : (DecimalColumnVector) right.eval(batch);
    boolean rep = a.isRepeating && (b == null || b.isRepeating);
    int m = rep ? 1 : n;
    if (rep) {
      r.isRepeating = true;
    }
    for (int k = 0; k < m; k++) {
      int i = rep ? 0 : sel[k];
      if (Vecs.isNull(a, i) || (b != null && Vecs.isNull(b, i))) {
        Vecs.setNull(r, i);
        continue;
      }
      BigDecimal u = a.vector[a.isRepeating ? 0 : i].getHiveDecimal().bigDecimalValue();
      BigDecimal v = b == null ? null : b.vector[b.isRepeating ? 0 : i].getHiveDecimal().bigDecimalValue();
      BigDecimal z = switch (op) {
        case PLUS -> u.add(v);
        case MINUS -> u.subtract(v);
        case TIMES -> u.multiply(v);
        case DIVIDE -> {
          if (v.signum() == 0) {
            throw new ArithmeticException("Division by zero");
          }
          yield u.divide(v, type.scale(), RoundingMode.DOWN);
        }
        case MOD -> {
          if (v.signum() == 0) {
            throw new ArithmeticException("Division by zero");
          }
          yield u.remainder(v);
        }
        case NEGATE -> u.negate();
        default -> throw new IllegalArgumentException("Not an arithmetic operator: " + op);
      };
      store(r, i, z, type);
    }
    return r;
  }

  /** Stores a value at the type's scale (truncating), or throws if it does not fit. */
  static void store(DecimalColumnVector r, int i, BigDecimal z, DataType type) {
    BigDecimal s = z.setScale(type.scale(), RoundingMode.DOWN);
    if (s.precision() - s.scale() > type.precision() - type.scale()) {
      throw new ArithmeticException("Value " + z.toPlainString() + " cannot be represented as a " + type);
    }
    r.isNull[i] = false;
    r.vector[i].set(HiveDecimal.create(s));
  }
}
