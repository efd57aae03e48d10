package dev.travertine.calcite.plan;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * Correlated {@code [NOT] EXISTS} in a WHERE clause as a semi (anti) join, before Calcite's
 * sub-query removal and decorrelation see it: {@code WHERE EXISTS (SELECT … FROM r WHERE c)},
 * where {@code c} refers to the outer row and {@code r} does not, is the outer rows SEMI-joined to
 * {@code r} on {@code c} (NOT EXISTS: ANTI-joined when the outer fields it reads are NOT NULL, see
 * {@link #outerFieldsNotNull}). Calcite's decorrelator instead joins {@code r} to the distinct outer keys, aggregates, and
 * joins the result back: TPC-H Q21 became 13 joins re-reading the outer tables twice and left the
 * vectorized convention. An uncorrelated {@code NOT IN (SELECT …)} on NOT NULL values on both
 * sides is an ANTI join too ({@link #notInCondition}). A conjunct of another shape is left to Calcite.
 */
final class ExistsToJoin {
  private ExistsToJoin() {}

  static RelNode apply(RelNode rel) {
    return rel.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(RelNode other) {
        RelNode r = super.visit(other);
        return r instanceof LogicalFilter f ? rewrite(f) : r;
      }
    });
  }

  private static RelNode rewrite(LogicalFilter f) {
    if (f.getVariablesSet().size() > 1) {
      return f;
    }
    CorrelationId id = f.getVariablesSet().isEmpty() ? null : f.getVariablesSet().iterator().next();
    RexBuilder rb = f.getCluster().getRexBuilder();
    int outerFields = f.getInput().getRowType().getFieldCount();
    List<RexNode> rest = new ArrayList<>();
    List<RelNode> rights = new ArrayList<>();
    List<RexNode> conditions = new ArrayList<>();
    List<JoinRelType> types = new ArrayList<>();
    for (RexNode c : RelOptUtil.conjunctions(f.getCondition())) {
      boolean negated = c.getKind() == SqlKind.NOT;
      RexNode e = negated ? ((RexCall) c).getOperands().get(0) : c;
      RexNode antiCondition = negated ? notInCondition(e, outerFields, rb) : null;
      if (antiCondition != null) {
        rights.add(apply(((RexSubQuery) e).rel));
        conditions.add(antiCondition);
        types.add(JoinRelType.ANTI);
        continue;
      }
      RelNode sub = id != null && e instanceof RexSubQuery q && q.getKind() == SqlKind.EXISTS ? q.rel : null;
      while (sub instanceof LogicalProject p) {
        sub = p.getInput();
      }
      if (sub instanceof LogicalFilter g && onlyCorrelates(g.getCondition(), id)
          && RelOptUtil.getVariablesUsed(g.getInput()).isEmpty()
          && (!negated || outerFieldsNotNull(g.getCondition(), id))) {
        // Conjuncts of the sub-query's own rows filter them before the join.
        List<RexNode> own = new ArrayList<>();
        List<RexNode> correlated = new ArrayList<>();
        for (RexNode k : RelOptUtil.conjunctions(g.getCondition())) {
          (RexUtil.containsCorrelation(k) ? correlated : own).add(k);
        }
        rights.add(own.isEmpty() ? g.getInput() : LogicalFilter.create(g.getInput(), RexUtil.composeConjunction(rb, own)));
        conditions.add(RexUtil.composeConjunction(rb, correlated).accept(new RexShuttle() {
          @Override public RexNode visitInputRef(RexInputRef ref) {
            return new RexInputRef(outerFields + ref.getIndex(), ref.getType());
          }

          @Override public RexNode visitFieldAccess(RexFieldAccess a) {
            if (a.getReferenceExpr() instanceof RexCorrelVariable v && v.id.equals(id)) {
              return new RexInputRef(a.getField().getIndex(), a.getType());
            }
            return super.visitFieldAccess(a);
          }
        }));
        types.add(negated ? JoinRelType.ANTI : JoinRelType.SEMI);
      } else {
        rest.add(c);
      }
    }
    if (rights.isEmpty()) {
      return f;
    }
    RelNode out = f.getInput();
    if (!rest.isEmpty()) {
      out = LogicalFilter.create(out, RexUtil.composeConjunction(rb, rest),
          com.google.common.collect.ImmutableSet.copyOf(f.getVariablesSet()));
    }
    for (int k = 0; k < rights.size(); k++) {
      LogicalJoin join = LogicalJoin.create(out, rights.get(k), List.of(), conditions.get(k), Set.of(), types.get(k));
      // keys that are expressions (id + 1, a CAST to the other side's type) become projected
      // fields below the join, so that the join has field keys to hash
      out = RelOptUtil.pushDownJoinConditions(join, RelFactories.LOGICAL_BUILDER.create(f.getCluster(), null));
    }
    return out;
  }

  /**
   * The ANTI join's condition for {@code e}, an uncorrelated {@code (x, …) IN (SELECT y, … FROM …)}
   * under a NOT, when every operand and every field of the sub-query is NOT NULL; else null. Only
   * then is {@code NOT IN} true exactly when no sub-query row equals the outer row's values: a
   * NULL on either side makes SQL's {@code NOT IN} unknown for rows without a match, which an ANTI
   * join would keep. Calcite's sub-query removal instead cross-joins the sub-query's row count and
   * LEFT-joins its distinct rows to test for NULLs (TPC-H Q16), outside the vectorized convention.
   */
  private static RexNode notInCondition(RexNode e, int outerFields, RexBuilder rb) {
    if (!(e instanceof RexSubQuery q) || q.getKind() != SqlKind.IN
        || !RelOptUtil.getVariablesUsed(q.rel).isEmpty()) {
      return null;
    }
    List<RexNode> keys = q.getOperands();
    List<RelDataTypeField> fields = q.rel.getRowType().getFieldList();
    if (keys.size() != fields.size()) {
      return null;
    }
    List<RexNode> equal = new ArrayList<>();
    for (int k = 0; k < keys.size(); k++) {
      RexNode x = keys.get(k);
      if (x.getType().isNullable() || fields.get(k).getType().isNullable() || RexUtil.containsCorrelation(x)
          || RexUtil.SubQueryFinder.find(x) != null) {
        return null;
      }
      equal.add(rb.makeCall(SqlStdOperatorTable.EQUALS, x,
          new RexInputRef(outerFields + k, fields.get(k).getType())));
    }
    return RexUtil.composeConjunction(rb, equal);
  }

  /**
   * Whether every field of the outer row that {@code c} reads is NOT NULL. Calcite's own hash anti
   * join drops an outer row whose key is NULL, where NOT EXISTS keeps it (no inner row equals
   * NULL); the vectorized join keeps it, but a plan may fall back to Calcite's, so NOT EXISTS on a
   * nullable outer field is left to the decorrelator.
   */
  private static boolean outerFieldsNotNull(RexNode c, CorrelationId id) {
    boolean[] nullable = new boolean[1];
    c.accept(new RexVisitorImpl<Void>(true) {
      @Override public Void visitFieldAccess(RexFieldAccess a) {
        if (a.getReferenceExpr() instanceof RexCorrelVariable v && v.id.equals(id) && a.getType().isNullable()) {
          nullable[0] = true;
        }
        return super.visitFieldAccess(a);
      }
    });
    return !nullable[0];
  }

  /**
   * Whether {@code c} holds no sub-query and refers to the outer row only as fields of correlation
   * {@code id} (which it does refer to).
   */
  private static boolean onlyCorrelates(RexNode c, CorrelationId id) {
    Set<CorrelationId> seen = new HashSet<>();
    boolean[] bad = new boolean[1];
    c.accept(new RexVisitorImpl<Void>(true) {
      @Override public Void visitCorrelVariable(RexCorrelVariable v) {
        seen.add(v.id);
        return null;
      }

      @Override public Void visitFieldAccess(RexFieldAccess a) {
        if (!(a.getReferenceExpr() instanceof RexCorrelVariable)) {
          bad[0] = true;
        }
        return super.visitFieldAccess(a);
      }

      @Override public Void visitSubQuery(RexSubQuery q) {
        bad[0] = true;
        return null;
      }
    });
    return !bad[0] && seen.equals(Set.of(id));
  }
}
