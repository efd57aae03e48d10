package dev.travertine.exec.expr;

import dev.travertine.vector.DataType;
import java.util.List;

/**
 * A scalar expression over the columns of a batch, typed with the engine's {@link DataType}s. The
 * adapter builds it from Calcite's RexNode (constant parts already folded); {@link Evaluators}
 * compiles it into a {@link VectorExpression} that runs on column vectors.
 *
 * <p>Constant values use the engine's value representation (see {@code TypeKind}): BOOLEAN
 * Boolean, TINYINT..BIGINT Byte/Short/Integer/Long, REAL Float, DOUBLE Double, DECIMAL BigDecimal,
 * CHAR/VARCHAR String, DATE Integer (days), TIMESTAMP Long (milliseconds); null is SQL NULL.
 */
public sealed interface Expr permits Expr.Column, Expr.Constant, Expr.Call {

  DataType type();

  /** Whether the value can be NULL. */
  boolean nullable();

  /** Adds the input columns {@code e} reads to {@code out}. */
  static void collectColumns(Expr e, java.util.BitSet out) {
    if (e instanceof Column c) {
      out.set(c.index());
    } else if (e instanceof Call call) {
      call.args().forEach(a -> collectColumns(a, out));
    }
  }

  /** Column {@code index} of the input batch. */
  record Column(int index, DataType type, boolean nullable) implements Expr {
    @Override public String toString() {
      return "$" + index;
    }
  }

  /** A literal (or a constant sub-expression folded by the adapter). */
  record Constant(Object value, DataType type) implements Expr {
    @Override public boolean nullable() {
      return value == null;
    }

    @Override public String toString() {
      return value instanceof String s ? "'" + s + "'" : String.valueOf(value);
    }
  }

  /** An operator applied to arguments; {@link Op} documents each operator's arguments. */
  record Call(Op op, List<Expr> args, DataType type, boolean nullable) implements Expr {
    public Call {
      args = List.copyOf(args);
    }

    @Override public String toString() {
      return op.name() + args;
    }
  }
}
