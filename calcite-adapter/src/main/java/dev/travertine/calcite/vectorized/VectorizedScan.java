package dev.travertine.calcite.vectorized;

import dev.travertine.calcite.file.LogicalFileScan;
import dev.travertine.calcite.rel.LogicalTravertineScan;
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
 * The scan that starts a vectorized fragment: of a MergeTree table, what the logical scan absorbed
 * (projection, pushed filter with pruning, read-in-order, a LIMIT that becomes the fragment's
 * first step), read by the engine's parallel scanner; or of files ({@code file()}, {@code s3()},
 * {@code hdfs()}), their projected columns read by {@link dev.travertine.calcite.file.FileScanSource}.
 */
public final class VectorizedScan extends TableScan implements VectorizedRel {
  public static final ConverterRule RULE = ConverterRule.Config.INSTANCE
      .withConversion(LogicalTravertineScan.class,
          s -> VectorizedRel.enabled()
              && VectorizedRel.engineTypes(s.getRowType()) != null,
          Convention.NONE, CONVENTION, "VectorizedScanRule")
      .withRuleFactory(Rule::new)
      .toRule(Rule.class);

  public static final ConverterRule FILE_RULE = ConverterRule.Config.INSTANCE
      .withConversion(LogicalFileScan.class,
          s -> VectorizedRel.enabled() && VectorizedRel.engineTypes(s.getRowType()) != null,
          Convention.NONE, CONVENTION, "VectorizedFileScanRule")
      .withRuleFactory(Rule::new)
      .toRule(Rule.class);

  /** Converts the logical scan. */
  static final class Rule extends ConverterRule {
    Rule(Config config) {
      super(config);
    }

    @Override public @Nullable RelNode convert(RelNode rel) {
      if (rel instanceof LogicalFileScan f) {
        return new VectorizedScan(f.getTraitSet().replace(CONVENTION), null, f);
      }
      LogicalTravertineScan scan = (LogicalTravertineScan) rel;
      return new VectorizedScan(scan.getTraitSet().replace(CONVENTION), scan, null);
    }
  }

  /** The table scan, or null for files. */
  public final @Nullable LogicalTravertineScan logical;
  /** The file scan, or null for a table. */
  final @Nullable LogicalFileScan files;

  VectorizedScan(RelTraitSet traits, @Nullable LogicalTravertineScan logical, @Nullable LogicalFileScan files) {
    super((logical != null ? logical : files).getCluster(), traits, List.of(),
        (logical != null ? logical : files).getTable());
    this.logical = logical;
    this.files = files;
  }

  /** The table columns the scan reads, in field order. */
  int[] projection() {
    return logical != null ? logical.projection() : files.projection();
  }

  /** The absorbed LIMIT (-1: none). */
  long limit() {
    return logical != null ? logical.limit : -1;
  }

  @Override public Step step() {
    throw new UnsupportedOperationException("A scan starts a fragment");
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new VectorizedScan(traitSet, logical, files);
  }

  @Override public RelDataType deriveRowType() {
    return logical != null ? logical.getRowType() : files.getRowType();
  }

  @Override public double estimateRowCount(RelMetadataQuery mq) {
    return logical != null ? logical.estimateRowCount(mq) : files.estimateRowCount(mq);
  }

  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return logical != null ? logical.readCost(planner, mq) : files.readCost(planner, mq);
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return logical != null ? logical.explainTerms(pw) : files.explainTerms(pw);
  }
}
