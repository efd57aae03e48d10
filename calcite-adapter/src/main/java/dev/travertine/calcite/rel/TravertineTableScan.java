package dev.travertine.calcite.rel;

import dev.travertine.calcite.runtime.TravertineRuntime;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
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
 * The physical scan: Enumerable code that calls {@link TravertineRuntime#scan} with what the
 * logical scan absorbed. EXPLAIN shows it with the index analysis, e.g.
 * {@code TravertineTableScan(table=[[main, t]], filter=[k = 5], parts=[1/4], granules=[2/1221])}.
 */
public final class TravertineTableScan extends TableScan implements EnumerableRel {

  static final ConverterRule RULE = ConverterRule.Config.INSTANCE
      .withConversion(LogicalTravertineScan.class, Convention.NONE, EnumerableConvention.INSTANCE,
          "TravertineTableScanRule")
      .withRuleFactory(Rule::new)
      .toRule(Rule.class);

  /** Converts the logical scan. */
  static final class Rule extends ConverterRule {
    Rule(Config config) {
      super(config);
    }

    @Override public @Nullable RelNode convert(RelNode rel) {
      LogicalTravertineScan scan = (LogicalTravertineScan) rel;
      return new TravertineTableScan(scan.getTraitSet().replace(EnumerableConvention.INSTANCE), scan);
    }
  }

  public final LogicalTravertineScan logical;

  TravertineTableScan(RelTraitSet traits, LogicalTravertineScan logical) {
    super(logical.getCluster(), traits, List.of(), logical.getTable());
    this.logical = logical;
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new TravertineTableScan(traitSet, logical);
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

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // One column travels as the bare value (Calcite's SCALAR format), several as Object[].
    JavaRowFormat format = getRowType().getFieldCount() == 1 ? JavaRowFormat.SCALAR : JavaRowFormat.ARRAY;
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), format, false);
    BlockBuilder b = new BlockBuilder();
    Expression enumerable = b.append("enumerable",
        Expressions.call(TravertineRuntime.class, "scan", DataContext.ROOT,
            implementor.stash(logical.spec(), ScanSpec.class)));
    b.add(Expressions.return_(null, enumerable));
    return implementor.result(physType, b.toBlock());
  }
}
