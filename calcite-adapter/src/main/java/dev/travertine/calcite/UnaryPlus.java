package dev.travertine.calcite;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Removes unary plus from a parsed statement, in place, before validation: {@code +x} is x, of
 * whatever type (SQLite keeps {@code +'abc'} a string; Calcite would cast the operand to a number
 * and fail at run time on text). The sqllogictest corpus writes {@code + col2} on text columns.
 */
final class UnaryPlus extends SqlBasicVisitor<Void> {
  private static final UnaryPlus INSTANCE = new UnaryPlus();

  static void strip(SqlNode node) {
    if (node != null) {
      node.accept(INSTANCE);
    }
  }

  private static SqlNode unwrap(SqlNode n) {
    while (n instanceof SqlCall c && c.getKind() == SqlKind.PLUS_PREFIX && c.operandCount() == 1) {
      n = c.operand(0);
    }
    return n;
  }

  @Override public Void visit(SqlCall call) {
    var operands = call.getOperandList();
    for (int i = 0; i < operands.size(); i++) {
      SqlNode o = operands.get(i);
      SqlNode u = unwrap(o);
      if (u != o) {
        try {
          call.setOperand(i, u);
        } catch (UnsupportedOperationException e) {
          continue; // a call that cannot change keeps its unary plus
        }
      }
      if (u != null) {
        u.accept(this);
      }
    }
    return null;
  }

  @Override public Void visit(SqlNodeList list) {
    for (int i = 0; i < list.size(); i++) {
      SqlNode o = list.get(i);
      SqlNode u = unwrap(o);
      if (u != o) {
        list.set(i, u);
      }
      if (u != null) {
        u.accept(this);
      }
    }
    return null;
  }
}
