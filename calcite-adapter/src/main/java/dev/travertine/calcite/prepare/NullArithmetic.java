package dev.travertine.calcite.prepare;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Folds arithmetic and comparisons with a NULL literal operand ({@code CAST(NULL AS INTEGER) / 6})
 * to a NULL of the call's type, bottom-up, right after conversion, before Calcite's prepare trims
 * fields (also inside sub-queries' plans, which sub-query removal later joins into the tree).
 * Arithmetic is strict, so the result is
 * the same; and Calcite 1.41 fails on such calls when it derives the collation of a projection
 * ("not a literal: /(null, 6)" from SqlMonotonicBinaryOperator), which the sqllogictest corpus's
 * random/ files hit hundreds of times. A CASE whose every reachable branch is NULL is NULL too.
 */
final class NullArithmetic {
  private NullArithmetic() {}

  /** Comparisons, NULL when an operand is ("Comparison with NULL" is an assertion in Calcite's
   * predicate pull-up); IS [NOT] DISTINCT FROM is not among them. */
  private static final Set<SqlKind> STRICT_COMPARISONS = Set.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS,
      SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL);

  /** Arithmetic: NULL when any operand is (also for {@link PreValidation}, on the parse tree). */
  static boolean isArithmetic(SqlKind k) {
    return SqlKind.BINARY_ARITHMETIC.contains(k) || k == SqlKind.MINUS_PREFIX || k == SqlKind.PLUS_PREFIX;
  }

  static RelNode fold(RelNode root) {
    RexShuttle folder = new Folder(root.getCluster().getRexBuilder());
    return root.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(RelNode other) {
        return super.visit(other).accept(folder);
      }
    });
  }

  /** The expressions with NULL arithmetic folded (the projections planner rules build). */
  static List<RexNode> fold(RexBuilder rexBuilder, List<? extends RexNode> exprs) {
    return new Folder(rexBuilder).apply(new ArrayList<RexNode>(exprs));
  }

  /**
   * A searched CASE ({@code [when, then]…, else}) whose every reachable result is NULL: a branch
   * whose condition folded to NULL or FALSE is never taken. Such a CASE (the corpus writes
   * {@code CASE -49 WHEN CAST(NULL AS INTEGER) THEN … ELSE NULL END}, and {@code THEN x + 51 * NULL})
   * would otherwise become NULL only in the cost-based planner, inside arithmetic that Calcite
   * then fails on while building the projection ("not a literal").
   */
  private static boolean alwaysNull(java.util.List<RexNode> operands) {
    int last = operands.size() - 1;
    for (int i = 0; i < last; i += 2) {
      RexNode when = operands.get(i);
      if (!RexUtil.isNullLiteral(when, true) && !when.isAlwaysFalse()
          && !RexUtil.isNullLiteral(operands.get(i + 1), true)) {
        return false;
      }
    }
    return RexUtil.isNullLiteral(operands.get(last), true);
  }

  private static final class Folder extends RexShuttle {
    private final RexBuilder rexBuilder;

    Folder(RexBuilder rexBuilder) {
      this.rexBuilder = rexBuilder;
    }

    @Override public RexNode visitSubQuery(RexSubQuery subQuery) {
      RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
      RelNode rel = fold(visited.rel);
      return rel == visited.rel ? visited : visited.clone(rel);
    }

    @Override public RexNode visitCall(RexCall call) {
      RexNode visited = super.visitCall(call);
      if (visited instanceof RexCall c && c.getKind() == SqlKind.CASE && alwaysNull(c.getOperands())) {
        return rexBuilder.makeNullLiteral(c.getType());
      }
      if (visited instanceof RexCall c && (isArithmetic(c.getKind()) || STRICT_COMPARISONS.contains(c.getKind()))) {
        for (RexNode o : c.getOperands()) {
          if (RexUtil.isNullLiteral(o, true)) {
            return rexBuilder.makeNullLiteral(c.getType());
          }
        }
      }
      return visited;
    }
  }
}
