package dev.travertine.calcite.vectorized;

import dev.travertine.calcite.schema.TypeMapping;
import dev.travertine.exec.agg.AggCall;
import dev.travertine.exec.op.Step;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * GROUP BY on column vectors: each scan worker aggregates its batches into a partial hash table
 * of its own (type-specialised keys, states in flat arrays), merged when the scan ends. COUNT
 * (also DISTINCT), SUM, $SUM0, AVG, MIN, MAX, with FILTER. Not a subclass of Calcite's
 * {@code Aggregate} (see {@link VectorizedFilter}).
 */
public final class VectorizedAggregate extends VectorizedSingleRel {
  public static final ConverterRule RULE = ConverterRule.Config.INSTANCE
      .withConversion(LogicalAggregate.class, a -> VectorizedRel.enabled() && a.getGroupType() == Aggregate.Group.SIMPLE,
          Convention.NONE, CONVENTION, "VectorizedAggregateRule")
      .withRuleFactory(Rule::new)
      .toRule(Rule.class);

  /** Converts an aggregate whose every call the engine computes. */
  static final class Rule extends ConverterRule {
    Rule(Config config) {
      super(config);
    }

    @Override public @Nullable RelNode convert(RelNode rel) {
      LogicalAggregate a = (LogicalAggregate) rel;
      List<AggCall> calls = translate(a);
      if (calls == null) {
        return null;
      }
      RelNode in = convert(a.getInput(), a.getInput().getTraitSet().replace(CONVENTION));
      return new VectorizedAggregate(a.getCluster(), a.getTraitSet().replace(CONVENTION), in, a.getGroupSet(),
          a.getAggCallList(), a.getRowType(), calls);
    }
  }

  /** The engine's calls, or null when one is not supported. */
  static @Nullable List<AggCall> translate(Aggregate a) {
    List<DataType> in = VectorizedRel.engineTypes(a.getInput().getRowType());
    if (in == null || VectorizedRel.engineTypes(a.getRowType()) == null || a.getGroupType() != Aggregate.Group.SIMPLE) {
      return null;
    }
    List<AggCall> out = new ArrayList<>();
    for (AggregateCall c : a.getAggCallList()) {
      if (c.isApproximate() || !c.collation.getFieldCollations().isEmpty() || c.getArgList().size() > 1
          || c.distinctKeys != null || c.ignoreNulls()) {
        return null;
      }
      int arg = c.getArgList().isEmpty() ? -1 : c.getArgList().get(0);
      DataType argType = arg < 0 ? null : in.get(arg);
      DataType type = TypeMapping.fromRelType(c.getType());
      AggCall.AggFunction f;
      switch (c.getAggregation().getKind()) {
        case COUNT -> f = AggCall.AggFunction.COUNT;
        case SUM -> f = AggCall.AggFunction.SUM;
        case SUM0 -> f = AggCall.AggFunction.SUM0;
        case AVG -> f = AggCall.AggFunction.AVG;
        case MIN -> f = AggCall.AggFunction.MIN;
        case MAX -> f = AggCall.AggFunction.MAX;
        default -> {
          return null;
        }
      }
      if (f != AggCall.AggFunction.COUNT && (arg < 0 || c.isDistinct())) {
        return null;
      }
      if (f == AggCall.AggFunction.SUM || f == AggCall.AggFunction.SUM0 || f == AggCall.AggFunction.AVG) {
        TypeKind k = argType.kind();
        boolean numeric = k == TypeKind.TINYINT || k == TypeKind.SMALLINT || k == TypeKind.INTEGER
            || k == TypeKind.BIGINT || k.isDoubleBacked() || k == TypeKind.DECIMAL;
        if (!numeric || (f == AggCall.AggFunction.AVG && (k == TypeKind.DECIMAL || type.kind() == TypeKind.DECIMAL))) {
          return null;
        }
      }
      out.add(new AggCall(f, arg, c.isDistinct(), c.filterArg, type));
    }
    return out;
  }

  private final ImmutableBitSet groupSet;
  private final List<AggregateCall> aggCalls;
  private final List<AggCall> calls;

  VectorizedAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input, ImmutableBitSet groupSet,
      List<AggregateCall> aggCalls, RelDataType rowType, List<AggCall> calls) {
    super(cluster, traits, input);
    this.groupSet = groupSet;
    this.aggCalls = List.copyOf(aggCalls);
    this.calls = calls;
    this.rowType = rowType;
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new VectorizedAggregate(getCluster(), traitSet, sole(inputs), groupSet, aggCalls, rowType, calls);
  }

  @Override public Step step() {
    return new Step.Aggregate(groupSet.toArray(), calls);
  }

  @Override public double estimateRowCount(RelMetadataQuery mq) {
    if (groupSet.isEmpty()) {
      return 1;
    }
    double in = mq.getRowCount(getInput());
    Double distinct = mq.getDistinctRowCount(getInput(), groupSet, null);
    return Math.max(1, distinct == null ? in * 0.1 : Math.min(in, distinct));
  }

  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    // Half of Calcite's Aggregate cost.
    double multiplier = 1 + aggCalls.size() * 0.125;
    return VectorizedRel.cheaper(planner.getCostFactory().makeCost(mq.getRowCount(this) * multiplier, 0, 0));
  }

  /** The aggregate's own keys, calls and output type, not its input's: equal for equal aggregates (and a few others). */
  String signature() {
    return groupSet + " " + aggCalls + " " + getRowType().getFullTypeString();
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    super.explainTerms(pw).item("group", groupSet);
    List<String> names = rowType.getFieldNames();
    for (int i = 0; i < aggCalls.size(); i++) {
      pw.item(names.get(groupSet.cardinality() + i), aggCalls.get(i));
    }
    return pw;
  }
}
