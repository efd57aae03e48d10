package dev.travertine.calcite.prepare;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Reduces constant expressions, doing casts of numeric literals to DOUBLE/FLOAT itself and
 * leaving the rest to Calcite's executor. Calcite's simplifier sends every literal cast it
 * cannot drop (e.g. {@code CAST(5.3 AS DOUBLE)} in {@code float_col > 5.3}) to the executor,
 * which generates and compiles Java code for it with Janino: a few milliseconds per condition,
 * the largest part of preparing a DELETE in the sqllogictest corpus.
 */
public final class LiteralCastExecutor implements RexExecutor {
  private final RexExecutor fallback;

  public LiteralCastExecutor(RexExecutor fallback) {
    this.fallback = fallback;
  }

  @Override public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
    List<RexNode> out = new ArrayList<>(constExps.size());
    for (RexNode e : constExps) {
      RexNode r = reduceCast(rexBuilder, e);
      if (r == null) {
        fallback.reduce(rexBuilder, constExps, reducedValues);
        return;
      }
      out.add(r);
    }
    reducedValues.addAll(out);
  }

  /** CAST(numeric literal AS DOUBLE or FLOAT) as a literal, or null. */
  static RexNode reduceCast(RexBuilder rexBuilder, RexNode e) {
    if (e.getKind() != SqlKind.CAST || !(e instanceof RexCall c) || c.getOperands().size() != 1
        || !(c.getOperands().get(0) instanceof RexLiteral lit) || lit.isNull()) {
      return null;
    }
    SqlTypeName to = c.getType().getSqlTypeName();
    if ((to != SqlTypeName.DOUBLE && to != SqlTypeName.FLOAT) || !SqlTypeName.NUMERIC_TYPES.contains(lit.getTypeName())) {
      return null;
    }
    BigDecimal v = lit.getValueAs(BigDecimal.class);
    if (v == null) {
      return null;
    }
    double d = v.doubleValue();
    if (Double.isInfinite(d)) {
      return null;
    }
    return rexBuilder.makeApproxLiteral(new BigDecimal(Double.toString(d)), c.getType());
  }
}
