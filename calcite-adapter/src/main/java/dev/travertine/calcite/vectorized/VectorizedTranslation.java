package dev.travertine.calcite.vectorized;

import dev.travertine.exec.expr.Expr;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/** RexNode to engine expression for the vectorized rels: null when any part is not supported. */
final class VectorizedTranslation {
  private VectorizedTranslation() {}

  static @Nullable Expr expr(RexNode rex, RelNode input) {
    if (VectorizedRel.engineTypes(input.getRowType()) == null) {
      return null;
    }
    return RexToExpr.translate(rex, input.getRowType());
  }
}
