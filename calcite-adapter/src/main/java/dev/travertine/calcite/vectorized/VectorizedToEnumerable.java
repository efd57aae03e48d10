package dev.travertine.calcite.vectorized;

import dev.travertine.calcite.cluster.ParallelReplicas;
import dev.travertine.calcite.runtime.VectorizedRuntime;
import dev.travertine.calcite.schema.TravertineSession;
import dev.travertine.exec.op.Fragment;
import java.util.ArrayList;
import java.util.Collections;
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
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.convert.ConverterImpl;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The top of a vectorized subtree: runs it as one engine {@link Fragment} and turns its output
 * batches into Calcite's rows — the only place in the plan where vectors become rows.
 */
public final class VectorizedToEnumerable extends ConverterImpl implements EnumerableRel {
  public static final ConverterRule RULE = ConverterRule.Config.INSTANCE
      .withConversion(RelNode.class, VectorizedRel.CONVENTION, EnumerableConvention.INSTANCE,
          "VectorizedToEnumerableRule")
      .withRuleFactory(Rule::new)
      .toRule(Rule.class);

  /** Converts any vectorized rel. */
  static final class Rule extends ConverterRule {
    Rule(Config config) {
      super(config);
    }

    @Override public @Nullable RelNode convert(RelNode rel) {
      return new VectorizedToEnumerable(rel.getCluster(), rel.getTraitSet().replace(EnumerableConvention.INSTANCE),
          rel);
    }
  }

  VectorizedToEnumerable(RelOptCluster cluster, RelTraitSet traits, RelNode input) {
    super(cluster, org.apache.calcite.plan.ConventionTraitDef.INSTANCE, traits, input);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new VectorizedToEnumerable(getCluster(), traitSet, sole(inputs));
  }

  /**
   * A hundredth of a row per row it hands over: enough that a bare scan stays Calcite's, small
   * enough not to outweigh what the operators under it save (Calcite costs a semi-join at a
   * hundredth of a hash join).
   */
  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    double rows = mq.getRowCount(getInput());
    return planner.getCostFactory().makeCost(rows, rows * getRowType().getFieldCount(), 0).multiplyBy(0.01);
  }

  /**
   * EXPLAIN says which subplans run once for several uses ({@link FragmentTranslation}) and, with
   * parallel replicas, where each part of the fragment runs and what crosses the wire.
   */
  @Override public RelWriter explainTerms(RelWriter pw) {
    RelWriter w = super.explainTerms(pw);
    if (!(pw instanceof org.apache.calcite.rel.externalize.RelWriterImpl)) {
      return w; // a digest, not EXPLAIN: it must not depend on settings
    }
    try {
      VectorizedSpec spec = spec();
      long shared = spec.joinSources().stream().filter(s -> s.shared() != null).count();
      w = w.itemIf("shared", shared + (shared == 1 ? " subplan" : " subplans")
          + " run once, its result read by each use", shared > 0);
      VectorizedScan scan = (VectorizedScan) chain(getInput()).get(0);
      if (scan.logical == null) {
        return w; // files are read on this node
      }
      TravertineSession session = scan.logical.travertineTable.session();
      String exchange = session == null ? null : ParallelReplicas.describe(session, spec);
      return w.itemIf("exchange", exchange, exchange != null);
    } catch (RuntimeException e) {
      return w.item("exchange", "none (" + e.getMessage() + ")");
    }
  }

  /** {@code r}, or the rel a planner's subset stands for (its best, else its original). */
  static RelNode resolved(RelNode r) {
    return r instanceof RelSubset s ? (s.getBest() != null ? s.getBest() : s.getOriginal()) : r;
  }

  /**
   * The vectorized chain below this converter, scan first: through a join, the chain goes on down
   * its probe side (its build side is a chain of its own).
   */
  static List<RelNode> chain(RelNode top) {
    List<RelNode> out = new ArrayList<>();
    RelNode r = top;
    while (true) {
      r = resolved(r);
      out.add(r);
      if (r instanceof VectorizedScan) {
        break;
      }
      if (r instanceof VectorizedJoin j) {
        r = j.probe();
        continue;
      }
      if (!(r instanceof VectorizedRel) || r.getInputs().size() != 1) {
        throw new IllegalStateException("Not a vectorized chain: " + r);
      }
      r = r.getInput(0);
    }
    Collections.reverse(out);
    return out;
  }

  /** The fragment and scans of the tree below. */
  VectorizedSpec spec() {
    FragmentTranslation.Result t = FragmentTranslation.translate(getInput());
    List<SqlTypeName> out = getRowType().getFieldList().stream().map(x -> x.getType().getSqlTypeName()).toList();
    VectorizedSpec.Source main = t.sources().get(0);
    return new VectorizedSpec(main.scan(), main.files(), t.fragment(), out, t.sources().subList(1, t.sources().size()),
        t.main());
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    JavaRowFormat format = getRowType().getFieldCount() == 1 ? JavaRowFormat.SCALAR : JavaRowFormat.ARRAY;
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), format, false);
    BlockBuilder b = new BlockBuilder();
    Expression enumerable = b.append("enumerable",
        Expressions.call(VectorizedRuntime.class, "run", DataContext.ROOT,
            implementor.stash(spec(), VectorizedSpec.class)));
    b.add(Expressions.return_(null, enumerable));
    return implementor.result(physType, b.toBlock());
  }
}
