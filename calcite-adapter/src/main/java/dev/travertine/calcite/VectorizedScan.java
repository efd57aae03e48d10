package dev.travertine.calcite;

import dev.travertine.exec.op.Step;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The scan that starts a vectorized fragment: what the logical scan absorbed (projection, pushed
 * filter with pruning, read-in-order, a LIMIT that becomes the fragment's first step), read by
 * the engine's parallel scanner.
 */
public final class VectorizedScan extends TableScan implements VectorizedRel {
  static final ConverterRule RULE = ConverterRule.Config.INSTANCE
      .withConversion(LogicalTravertineScan.class,
          s -> VectorizedRel.enabled()
              && VectorizedRel.engineTypes(s.getRowType()) != null,
          Convention.NONE, CONVENTION, "VectorizedScanRule")
      .withRuleFactory(Rule::new)
      .toRule(Rule.class);

  /** Converts the logical scan. */
  static final class Rule extends ConverterRule {
    Rule(Config config) {
      super(config);
    }

    @Override public @Nullable RelNode convert(RelNode rel) {
      LogicalTravertineScan scan = (LogicalTravertineScan) rel;
      return new VectorizedScan(scan.getTraitSet().replace(CONVENTION), scan);
    }
  }

  final LogicalTravertineScan logical;

  VectorizedScan(RelTraitSet traits, LogicalTravertineScan logical) {
    super(logical.getCluster(), traits, List.of(), logical.getTable());
    this.logical = logical;
  }

  @Override public Step step() {
    throw new UnsupportedOperationException("A scan starts a fragment");
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new VectorizedScan(traitSet, logical);
  }

  @Override public RelDataType deriveRowType() {
    return logical.getRowType();
  }

  @Override public double estimateRowCount(RelMetadataQuery mq) {
    return logical.estimateRowCount(mq);
  }

  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return logical.readCost(planner, mq);
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return logical.explainTerms(pw);
  }
}
