package dev.travertine.calcite.vectorized;

import dev.travertine.exec.expr.Expr;
import dev.travertine.exec.op.Step;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * WHERE on column vectors: the condition narrows each batch's selection vector. Not a subclass of
 * Calcite's {@code Filter}, so Calcite's logical rules (which match {@code Filter}) leave it alone:
 * letting them rewrite physical vectorized rels made Volcano take minutes on some plans.
 */
public final class VectorizedFilter extends VectorizedSingleRel {
  public static final ConverterRule RULE = ConverterRule.Config.INSTANCE
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

  private final RexNode condition;
  private final Expr expr;

  VectorizedFilter(RelOptCluster cluster, RelTraitSet traits, RelNode input, RexNode condition, Expr expr) {
    super(cluster, traits, input);
    this.condition = condition;
    this.expr = expr;
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new VectorizedFilter(getCluster(), traitSet, sole(inputs), condition, expr);
  }

  @Override public Step step() {
    return new Step.Filter(expr);
  }

  @Override public double estimateRowCount(RelMetadataQuery mq) {
    return RelMdUtil.estimateFilteredRows(getInput(), condition, mq);
  }

  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    // Half of Calcite's Filter cost.
    return VectorizedRel.cheaper(planner.getCostFactory().makeCost(mq.getRowCount(this), mq.getRowCount(getInput()), 0));
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("condition", condition);
  }

  @Override public List<RexNode> expressions() {
    return List.of(condition);
  }
}
