package dev.travertine.calcite;

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
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterImpl;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Turns a {@link TravertineTableScan} into generated code that calls {@link TravertineRuntime#scan}. */
public final class TravertineToEnumerableConverter extends ConverterImpl implements EnumerableRel {

  static final ConverterRule RULE = ConverterRule.Config.INSTANCE
      .withConversion(TravertineTableScan.class, TravertineRel.CONVENTION, EnumerableConvention.INSTANCE,
          "TravertineToEnumerableConverterRule")
      .withRuleFactory(Rule::new)
      .toRule(Rule.class);

  /** The converter rule. */
  static final class Rule extends ConverterRule {
    Rule(Config config) {
      super(config);
    }

    @Override public @Nullable RelNode convert(RelNode rel) {
      RelTraitSet traits = rel.getTraitSet().replace(EnumerableConvention.INSTANCE);
      return new TravertineToEnumerableConverter(rel.getCluster(), traits, rel);
    }
  }

  TravertineToEnumerableConverter(RelOptCluster cluster, RelTraitSet traits, RelNode input) {
    super(cluster, ConventionTraitDef.INSTANCE, traits, input);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new TravertineToEnumerableConverter(getCluster(), traitSet, sole(inputs));
  }

  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return super.computeSelfCost(planner, mq).multiplyBy(0.1);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    TravertineTableScan scan = (TravertineTableScan) getInput();
    // One column travels as the bare value (Calcite's SCALAR format), several as Object[].
    JavaRowFormat format = getRowType().getFieldCount() == 1 ? JavaRowFormat.SCALAR : JavaRowFormat.ARRAY;
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), format, false);
    BlockBuilder b = new BlockBuilder();
    Expression enumerable = b.append("enumerable",
        Expressions.call(TravertineRuntime.class, "scan", DataContext.ROOT,
            Expressions.constant(scan.spec().toJson())));
    b.add(Expressions.return_(null, enumerable));
    return implementor.result(physType, b.toBlock());
  }
}
