package dev.travertine.calcite.rel;

import dev.travertine.calcite.schema.TravertineTable;
import dev.travertine.mergetree.TableSnapshot;
import dev.travertine.mergetree.scan.ScanPlan;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.Predicate;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.util.ImmutableIntList;
import org.apache.calcite.util.mapping.Mappings;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The logical (NONE convention) scan of a MergeTree table with everything the rules pushed into
 * it: a projection, a filter the engine evaluates (with partition and granule pruning), a limit,
 * and read-in-order. Staying in NONE lets the rules match it under any logical parent;
 * {@link TravertineTableScan#RULE} turns it into the physical scan.
 */
public final class LogicalTravertineScan extends TableScan implements ProjectableScan {
  public final TravertineTable travertineTable;
  final int[] projection;
  final @Nullable Predicate filter;
  public final long limit;
  final boolean ordered;
  /** Selected/total parts and granules, computed once. */
  private @Nullable long[] analysis;

  LogicalTravertineScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, TravertineTable travertineTable,
      int[] projection, @Nullable Predicate filter, long limit, boolean ordered) {
    super(cluster, traits, List.of(), table);
    this.travertineTable = travertineTable;
    this.projection = projection;
    this.filter = filter;
    this.limit = limit;
    this.ordered = ordered;
  }

  public static LogicalTravertineScan create(RelOptCluster cluster, RelOptTable table, TravertineTable t) {
    int n = t.definition().schema().size();
    int[] all = new int[n];
    for (int i = 0; i < n; i++) {
      all[i] = i;
    }
    RelTraitSet traits = cluster.traitSetOf(org.apache.calcite.plan.Convention.NONE);
    return new LogicalTravertineScan(cluster, traits, table, t, all, null, -1, false);
  }

  @Override public int[] projection() {
    return projection;
  }

  @Override public boolean ordered() {
    return ordered;
  }

  @Override public LogicalTravertineScan withProjection(int[] p) {
    RelTraitSet traits = getTraitSet().replace(RelCollations.EMPTY);
    return new LogicalTravertineScan(getCluster(), traits, table, travertineTable, p, filter, limit, ordered);
  }

  LogicalTravertineScan withFilter(Predicate f) {
    return new LogicalTravertineScan(getCluster(), getTraitSet(), table, travertineTable, projection, f, limit,
        ordered);
  }

  LogicalTravertineScan withLimit(long l) {
    return new LogicalTravertineScan(getCluster(), getTraitSet(), table, travertineTable, projection, filter, l,
        ordered);
  }

  LogicalTravertineScan withOrder(RelCollation collation, long l) {
    RelTraitSet traits = getTraitSet().replaceIf(RelCollationTraitDef.INSTANCE, () -> collation);
    return new LogicalTravertineScan(getCluster(), traits, table, travertineTable, projection, filter, l, true);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new LogicalTravertineScan(getCluster(), traitSet, table, travertineTable, projection, filter, limit,
        ordered);
  }

  @Override public RelDataType deriveRowType() {
    RelDataType full = table.getRowType();
    RelDataTypeFactory.Builder b = getCluster().getTypeFactory().builder();
    List<RelDataTypeField> fields = full.getFieldList();
    for (int c : projection) {
      b.add(fields.get(c));
    }
    return b.build();
  }

  public ScanSpec spec() {
    return new ScanSpec(travertineTable.name(), projection, filter, limit, ordered);
  }

  /** {selectedParts, totalParts, selectedGranules, totalGranules} for the current data. */
  long[] analysis() {
    if (analysis == null) {
      try (TableSnapshot s = travertineTable.engineTable().snapshot()) {
        ScanPlan p = ScanPlan.plan(s, filter, true);
        analysis = new long[] {p.selectedParts(), p.totalParts(), p.selectedGranules(), p.totalGranules()};
      }
    }
    return analysis;
  }

  @Override public double estimateRowCount(RelMetadataQuery mq) {
    double rows = travertineTable.getStatistic().getRowCount();
    if (filter != null) {
      long[] a = analysis();
      double fraction = a[3] == 0 ? 1 : (double) a[2] / a[3];
      // The granules read bound the rows; the filter's estimated share says how many of them pass
      // (at most 0.9: a pushed filter, even a weak one such as x <> 0, wins a tie with the scan
      // that leaves it to a filter above, as it reads and hands on no more).
      rows = Math.max(1, rows * Math.min(fraction, Math.min(0.9, travertineTable.selectivity(filter))));
    }
    if (limit >= 0) {
      rows = Math.min(rows, limit);
    }
    return rows;
  }

  /** Cost of reading this scan (used by the physical scan). */
  public RelOptCost readCost(RelOptPlanner planner, RelMetadataQuery mq) {
    double rows = estimateRowCount(mq);
    int total = travertineTable.definition().schema().size();
    double width = (projection.length + 1.0) / (total + 1.0);
    // Cheaper than any Enumerable alternative, and cheaper with every operator absorbed. The row
    // count carries the width too: Volcano compares costs by row count alone, and a scan of fewer
    // columns must win over the same scan of all columns.
    return planner.getCostFactory().makeCost(rows * width, rows * width, 0).multiplyBy(0.1);
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    TableSchema schema = travertineTable.definition().schema();
    List<String> names = new ArrayList<>();
    for (int c : projection) {
      names.add(schema.column(c).name());
    }
    pw.item("table", table.getQualifiedName());
    pw.itemIf("filter", filter == null ? "" : filter.describe(schema), filter != null);
    pw.itemIf("project", names, !Mappings.isIdentity(ImmutableIntList.of(projection), schema.size()));
    pw.itemIf("order", travertineTable.definition().orderBy(), ordered);
    pw.itemIf("limit", limit, limit >= 0);
    long[] a = analysis();
    pw.item("parts", a[0] + "/" + a[1]);
    pw.item("granules", a[2] + "/" + a[3]);
    return pw;
  }

  @Override public void register(RelOptPlanner planner) {
    TravertineRules.register(planner);
  }
}
