package dev.travertine.calcite.file;

import dev.travertine.calcite.rel.ProjectableScan;
import dev.travertine.calcite.rel.TravertineRules;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.util.ImmutableIntList;
import org.apache.calcite.util.mapping.Mappings;

/**
 * The logical (NONE convention) scan of a {@code file()}/{@code s3()}/{@code hdfs()} table with
 * the projection the rules pushed into it (Parquet and ORC then read only those columns). It
 * becomes a {@link dev.travertine.calcite.vectorized.VectorizedScan} (the engine's operators above it) or, where the engine cannot
 * run, a {@link FileScan} (Calcite's).
 */
public final class LogicalFileScan extends TableScan implements ProjectableScan {
  final FileTable files;
  final int[] projection;

  LogicalFileScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, FileTable files, int[] projection) {
    super(cluster, traits, List.of(), table);
    this.files = files;
    this.projection = projection;
  }

  static LogicalFileScan create(RelOptCluster cluster, RelOptTable table, FileTable files) {
    int[] all = java.util.stream.IntStream.range(0, files.schema().size()).toArray();
    return new LogicalFileScan(cluster, cluster.traitSetOf(Convention.NONE), table, files, all);
  }

  @Override public int[] projection() {
    return projection;
  }

  @Override public boolean ordered() {
    return false;
  }

  @Override public LogicalFileScan withProjection(int[] p) {
    return new LogicalFileScan(getCluster(), getTraitSet(), table, files, p);
  }

  public FileScanSpec spec() {
    return files.spec(projection);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new LogicalFileScan(getCluster(), traitSet, table, files, projection);
  }

  @Override public RelDataType deriveRowType() {
    List<RelDataTypeField> fields = table.getRowType().getFieldList();
    RelDataTypeFactory.Builder b = getCluster().getTypeFactory().builder();
    for (int c : projection) {
      b.add(fields.get(c));
    }
    return b.build();
  }

  @Override public double estimateRowCount(RelMetadataQuery mq) {
    return 1_000_000; // unknown until read; only relative costs of the alternatives matter
  }

  /** Cost of reading: fewer columns cost less, so a narrowed scan wins. */
  public RelOptCost readCost(RelOptPlanner planner, RelMetadataQuery mq) {
    double rows = estimateRowCount(mq);
    double width = (projection.length + 1.0) / (files.schema().size() + 1.0);
    return planner.getCostFactory().makeCost(rows * width, rows * width, 0).multiplyBy(0.1);
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    List<String> names = new ArrayList<>();
    for (int c : projection) {
      names.add(files.schema().column(c).name());
    }
    pw.item("files", files.describe());
    // a reordering of every column is a projection too
    pw.itemIf("project", names, !Mappings.isIdentity(ImmutableIntList.of(projection), files.schema().size()));
    return pw;
  }

  @Override public void register(RelOptPlanner planner) {
    TravertineRules.register(planner);
  }
}
