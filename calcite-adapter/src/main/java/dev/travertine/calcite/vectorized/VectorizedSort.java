package dev.travertine.calcite.vectorized;

import dev.travertine.exec.op.Step;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * ORDER BY / LIMIT / OFFSET on column vectors. With a LIMIT it is a top-N: each scan worker keeps
 * its best rows only, and the workers' rows are merged at the end. Without ORDER BY it is a limit
 * that stops the scan. Not a subclass of Calcite's {@code Sort} (see {@link VectorizedFilter}).
 */
public final class VectorizedSort extends VectorizedSingleRel {
  public static final ConverterRule RULE = ConverterRule.Config.INSTANCE
      .withConversion(LogicalSort.class, s -> VectorizedRel.enabled() && literal(s.offset) >= -1
          && literal(s.fetch) >= -1, Convention.NONE, CONVENTION, "VectorizedSortRule")
      .withRuleFactory(Rule::new)
      .toRule(Rule.class);

  /** Converts a sort with literal (or no) offset and fetch. */
  static final class Rule extends ConverterRule {
    Rule(Config config) {
      super(config);
    }

    @Override public @Nullable RelNode convert(RelNode rel) {
      LogicalSort s = (LogicalSort) rel;
      if (VectorizedRel.engineTypes(s.getRowType()) == null) {
        return null;
      }
      RelNode in = convert(s.getInput(), s.getInput().getTraitSet().replace(CONVENTION));
      return new VectorizedSort(s.getCluster(), s.getTraitSet().replace(CONVENTION), in, s.getCollation(), s.offset,
          s.fetch);
    }
  }

  /** A literal's value, -1 for none, -2 for anything else (a dynamic parameter). */
  static long literal(@Nullable RexNode n) {
    if (n == null) {
      return -1;
    }
    if (n instanceof RexLiteral lit) {
      Long v = lit.getValueAs(Long.class);
      return v == null || v < 0 ? -2 : v;
    }
    return -2;
  }

  private final RelCollation collation;
  private final @Nullable RexNode offset;
  private final @Nullable RexNode fetch;

  VectorizedSort(RelOptCluster cluster, RelTraitSet traits, RelNode input, RelCollation collation,
      @Nullable RexNode offset, @Nullable RexNode fetch) {
    super(cluster, traits, input);
    this.collation = collation;
    this.offset = offset;
    this.fetch = fetch;
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new VectorizedSort(getCluster(), traitSet, sole(inputs), collation, offset, fetch);
  }

  @Override public double estimateRowCount(RelMetadataQuery mq) {
    double rows = mq.getRowCount(getInput());
    long off = Math.max(0, literal(offset));
    long f = literal(fetch);
    rows = Math.max(0, rows - off);
    return f < 0 ? rows : Math.min(rows, f);
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    super.explainTerms(pw);
    List<RelFieldCollation> fcs = collation.getFieldCollations();
    for (int i = 0; i < fcs.size(); i++) {
      pw.item("sort" + i, "$" + fcs.get(i).getFieldIndex());
    }
    for (int i = 0; i < fcs.size(); i++) {
      pw.item("dir" + i, fcs.get(i).shortString());
    }
    pw.itemIf("offset", offset, offset != null);
    pw.itemIf("fetch", fetch, fetch != null);
    return pw;
  }

  @Override public Step step() {
    List<Step.SortKey> keys = new ArrayList<>();
    for (RelFieldCollation fc : collation.getFieldCollations()) {
      boolean desc = fc.getDirection().isDescending();
      boolean nullsFirst = switch (fc.nullDirection) {
        case FIRST -> true;
        case LAST -> false;
        // Calcite's default: NULLs are larger than any value.
        case UNSPECIFIED -> desc;
      };
      keys.add(new Step.SortKey(fc.getFieldIndex(), desc, nullsFirst));
    }
    long off = literal(offset);
    return new Step.Sort(keys, Math.max(0, off), literal(fetch));
  }

  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    // Half of Calcite's Sort cost.
    double in = mq.getRowCount(getInput());
    // the rows kept: the output and the offset skipped, never more than the input (a bounded sort
    // must not look dearer than a full one with Calcite's limit above it when the input's estimate
    // is below the offset: ClickBench's Q39, LIMIT 10 OFFSET 1000, sorted 467 k groups in full)
    double read = Math.min(in, estimateRowCount(mq) + Math.max(0, literal(offset)));
    double bytesPerRow = (3 + getRowType().getFieldCount()) * 4;
    double cpu = collation.getFieldCollations().isEmpty() ? read * bytesPerRow
        : org.apache.calcite.util.Util.nLogM(in, Math.max(1, read)) * bytesPerRow;
    return VectorizedRel.cheaper(planner.getCostFactory().makeCost(read, cpu, 0));
  }
}
