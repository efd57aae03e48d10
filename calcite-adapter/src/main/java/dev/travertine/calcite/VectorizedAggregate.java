package dev.travertine.calcite;

import dev.travertine.exec.agg.AggCall;
import dev.travertine.exec.op.Step;
import dev.travertine.mergetree.schema.DataType;
import dev.travertine.mergetree.schema.TypeKind;
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
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * GROUP BY on column vectors: each scan worker aggregates its batches into a partial hash table
 * of its own (type-specialised keys, states in flat arrays), merged when the scan ends. COUNT
 * (also DISTINCT), SUM, $SUM0, AVG, MIN, MAX, with FILTER.
 */
public final class VectorizedAggregate extends Aggregate implements VectorizedRel {
  static final ConverterRule RULE = ConverterRule.Config.INSTANCE
      .withConversion(LogicalAggregate.class, a -> VectorizedRel.enabled() && a.getGroupType() == Group.SIMPLE,
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
          a.getAggCallList(), calls);
    }
  }

  /** The engine's calls, or null when one is not supported. */
  static @Nullable List<AggCall> translate(Aggregate a) {
    List<DataType> in = VectorizedRel.engineTypes(a.getInput().getRowType());
    if (in == null || VectorizedRel.engineTypes(a.getRowType()) == null) {
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

  private final List<AggCall> calls;

  VectorizedAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input, ImmutableBitSet groupSet,
      List<AggregateCall> aggCalls, List<AggCall> calls) {
    super(cluster, traits, List.of(), input, groupSet, null, aggCalls);
    this.calls = calls;
  }

  @Override public Aggregate copy(RelTraitSet traitSet, RelNode input, ImmutableBitSet groupSet,
      @Nullable List<ImmutableBitSet> groupSets, List<AggregateCall> aggCalls) {
    VectorizedAggregate a = new VectorizedAggregate(getCluster(), traitSet, input, groupSet, aggCalls, calls);
    List<AggCall> c = aggCalls.equals(getAggCallList()) && input.getRowType().equals(getInput().getRowType())
        ? calls : translate(a);
    if (c == null) {
      throw new IllegalStateException("Cannot vectorize " + aggCalls);
    }
    return new VectorizedAggregate(getCluster(), traitSet, input, groupSet, aggCalls, c);
  }

  @Override public Step step() {
    return new Step.Aggregate(getGroupSet().toArray(), calls);
  }

  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return VectorizedRel.cheaper(super.computeSelfCost(planner, mq));
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw);
  }
}
