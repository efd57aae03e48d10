package dev.travertine.calcite;

import java.util.List;
import java.util.function.BiConsumer;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Rewrites a parsed statement in place before validation, bottom-up:
 * <ul>
 *   <li>unary plus goes: {@code +x} is x, of whatever type (SQLite keeps {@code +'abc'} a
 *       string; Calcite would cast the operand to a number and fail at run time on text);</li>
 *   <li>arithmetic of a typed NULL and constants ({@code CAST(NULL AS INTEGER) / 6}) becomes that
 *       typed NULL: arithmetic is strict, so the value is the same, and Calcite 1.41 fails on
 *       such constant expressions when it derives a projection's collation ("not a literal:
 *       /(null, 6)", SqlMonotonicBinaryOperator).</li>
 * </ul>
 * The sqllogictest corpus's random/ files write both hundreds of times.
 */
final class PreValidation extends SqlBasicVisitor<Void> {
  private static final PreValidation INSTANCE = new PreValidation();


  static void rewrite(SqlNode node) {
    if (node != null) {
      node.accept(INSTANCE);
    }
  }

  private static SqlNode simplified(SqlNode n) {
    while (true) {
      if (n instanceof SqlCall c && c.getKind() == SqlKind.PLUS_PREFIX && c.operandCount() == 1) {
        n = c.operand(0);
        continue;
      }
      if (n instanceof SqlCall c && NullArithmetic.isArithmetic(c.getKind())) {
        SqlNode typedNull = null;
        boolean othersConstant = true;
        for (SqlNode o : c.getOperandList()) {
          if (typedNull == null && isTypedNull(o)) {
            typedNull = o;
          } else if (!isConstant(o)) {
            othersConstant = false;
          }
        }
        // Only constant company is dropped: an aggregate, a column or a subquery beside the
        // NULL still decides the query's shape and validity (COUNT(*) + NULL is one row).
        if (typedNull != null && othersConstant) {
          n = typedNull.clone(typedNull.getParserPosition());
          continue;
        }
      }
      return n;
    }
  }

  /** Literals and arithmetic, CAST and CASE of literals (no columns, functions or subqueries). */
  private static boolean isConstant(SqlNode n) {
    if (n == null || n instanceof SqlLiteral || n instanceof org.apache.calcite.sql.SqlDataTypeSpec
        || n instanceof org.apache.calcite.sql.SqlIntervalQualifier) {
      return true;
    }
    if (n instanceof SqlNodeList l) {
      return l.stream().allMatch(PreValidation::isConstant);
    }
    if (n instanceof SqlCall c) {
      // Functions are not resolved yet (MIN(…) may be an aggregate): only operators count.
      SqlKind k = c.getKind();
      return (NullArithmetic.isArithmetic(k) || k == SqlKind.CAST || k == SqlKind.CASE)
          && c.getOperandList().stream().allMatch(PreValidation::isConstant);
    }
    return false; // identifiers, dynamic parameters
  }

  /** CAST(NULL AS type). */
  private static boolean isTypedNull(SqlNode n) {
    return n instanceof SqlCall c && c.getKind() == SqlKind.CAST && c.operandCount() == 2
        && c.operand(0) instanceof SqlLiteral l && l.getValue() == null && l.getTypeName().getName().equals("NULL");
  }

  @Override public Void visit(SqlCall call) {
    rewriteChildren(call.getOperandList(), (i, u) -> {
      try {
        call.setOperand(i, u);
      } catch (UnsupportedOperationException e) {
        // a call that cannot change keeps the operand as written
      }
    });
    return null;
  }

  @Override public Void visit(SqlNodeList list) {
    rewriteChildren(list, list::set);
    return null;
  }

  /** Rewrites each child's own children, then replaces the child when it simplifies. */
  private void rewriteChildren(List<SqlNode> children, BiConsumer<Integer, SqlNode> replace) {
    for (int i = 0; i < children.size(); i++) {
      SqlNode o = children.get(i);
      if (o == null) {
        continue;
      }
      o.accept(this);
      SqlNode u = simplified(o);
      if (u != o) {
        replace.accept(i, u);
      }
    }
  }
}
