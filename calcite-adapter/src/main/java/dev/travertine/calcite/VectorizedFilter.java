package dev.travertine.calcite;

import dev.travertine.exec.expr.Expr;
import dev.travertine.exec.op.Step;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/** WHERE on column vectors: the condition narrows each batch's selection vector. */
public final class VectorizedFilter extends Filter implements VectorizedRel {
  static final ConverterRule RULE = ConverterRule.Config.INSTANCE
      .withConversion(LogicalFilter.class, f -> VectorizedRel.enabled(), Convention.NONE, CONVENTION,
          "VectorizedFilterRule")
      .withRuleFactory(Rule::new)
      .toRule(Rule.class);

  /** Converts a filter whose condition the engine evaluates. */
  static final class Rule extends ConverterRule {
    Rule(Config config) {
      super(config);
    }

    @Override public @Nullable RelNode convert(RelNode rel) {
      LogicalFilter f = (LogicalFilter) rel;
      Expr e = VectorizedTranslation.expr(f.getCondition(), f.getInput());
      if (e == null) {
        return null;
      }
      RelNode in = convert(f.getInput(), f.getInput().getTraitSet().replace(CONVENTION));
      return new VectorizedFilter(f.getCluster(), f.getTraitSet().replace(CONVENTION), in, f.getCondition(), e);
    }
  }

  private final Expr expr;

  VectorizedFilter(RelOptCluster cluster, RelTraitSet traits, RelNode input, RexNode condition, Expr expr) {
    super(cluster, traits, input, condition);
    this.expr = expr;
  }

  @Override public Filter copy(RelTraitSet traitSet, RelNode input, RexNode condition) {
    Expr e = condition.equals(this.condition) ? expr : VectorizedTranslation.expr(condition, input);
    if (e == null) {
      throw new IllegalStateException("Cannot vectorize " + condition);
    }
    return new VectorizedFilter(getCluster(), traitSet, input, condition, e);
  }

  @Override public Step step() {
    return new Step.Filter(expr);
  }

  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return VectorizedRel.cheaper(super.computeSelfCost(planner, mq));
  }
}
