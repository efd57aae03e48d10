package dev.travertine.calcite.plan;

import dev.travertine.calcite.rel.LogicalTravertineScan;
import dev.travertine.calcite.rel.TravertineTableScan;
import dev.travertine.calcite.vectorized.VectorizedScan;
import java.util.List;
import java.util.Objects;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What the planner estimates from the tables' statistics, ahead of Calcite's defaults: a column's
 * distinct values ({@link dev.travertine.calcite.schema.TravertineTable#distinctEstimate}: rows, and an integer column's min/max
 * span) for our scans, and an equi-join's rows as the product of its sides' rows divided, per key
 * pair, by the larger distinct count of the two keys (Calcite guesses 0.15 of the product for
 * every equality: a key join of orders and customers at TPC-H SF 1 came out at 17 G rows, and the
 * planner built lineitem rather than that). {@link JoinOrder} orders joins on the same estimates.
 */
final class TravertineMetadata {
  private TravertineMetadata() {}

  /** Conditions other than key equalities keep this share of the pairs. */
  static final double OTHER_SELECTIVITY = 0.5;

  static final RelMetadataProvider PROVIDER = ChainedRelMetadataProvider.of(List.of(
      ReflectiveRelMetadataProvider.reflectiveSource(new Distinct(), BuiltInMetadata.DistinctRowCount.Handler.class),
      ReflectiveRelMetadataProvider.reflectiveSource(new Rows(), BuiltInMetadata.RowCount.Handler.class),
      DefaultRelMetadataProvider.INSTANCE));

  /**
   * An upper bound on the distinct values of field {@code f} of {@code rel}, at most its rows;
   * unknown: its rows.
   */
  static double distinct(RelMetadataQuery mq, RelNode rel, int f) {
    double rows = Objects.requireNonNullElse(mq.getRowCount(rel), 1e6);
    Double d = mq.getDistinctRowCount(rel, ImmutableBitSet.of(f), null);
    return Math.max(1, d == null ? rows : Math.min(rows, d));
  }

  /**
   * The rows of an equi-join of sides of {@code left} and {@code right} rows on these key pairs
   * (the distinct values of each key on each side), with {@code others} further conditions: the
   * product of the rows divided by the larger of the sides' distinct key tuples, a side's being the
   * product of its keys' distinct counts but at most its rows (composite keys such as TPC-H's
   * {@code (ps_partkey, ps_suppkey)} are far from independent).
   */
  static double joinRows(double left, double right, double[] leftDistinct, double[] rightDistinct, int others) {
    double rows = left * right;
    if (leftDistinct.length > 0) {
      double l = 1;
      double r = 1;
      for (int k = 0; k < leftDistinct.length; k++) {
        l *= Math.max(1, leftDistinct[k]);
        r *= Math.max(1, rightDistinct[k]);
      }
      rows /= Math.max(Math.min(l, left), Math.min(r, right));
    }
    return Math.max(1, rows * Math.pow(OTHER_SELECTIVITY, others));
  }

  /** Distinct values of our scans' columns. */
  public static final class Distinct implements MetadataHandler<BuiltInMetadata.DistinctRowCount> {
    @Override public MetadataDef<BuiltInMetadata.DistinctRowCount> getDef() {
      return BuiltInMetadata.DistinctRowCount.DEF;
    }

    public @Nullable Double getDistinctRowCount(LogicalTravertineScan s, RelMetadataQuery mq, ImmutableBitSet key,
        @Nullable RexNode predicate) {
      double rows = s.estimateRowCount(mq);
      if (key.isEmpty()) {
        return 1d;
      }
      double d = 1;
      for (int f : key) {
        d *= s.travertineTable.distinctEstimate(s.projection()[f]);
      }
      return Math.max(1, Math.min(rows, d));
    }

    /**
     * A set of equivalent plans during Volcano planning: its best plan so far, else the plan it
     * started from, as Calcite's row count of a subset does (Calcite's own answer is "unknown"
     * until a best plan exists, which made every join above a subset treat its keys as unique and
     * its estimate collapse to the smaller side).
     */
    public @Nullable Double getDistinctRowCount(RelSubset s, RelMetadataQuery mq, ImmutableBitSet key,
        @Nullable RexNode predicate) {
      return mq.getDistinctRowCount(s.stripped(), key, predicate);
    }

    public @Nullable Double getDistinctRowCount(TravertineTableScan s, RelMetadataQuery mq, ImmutableBitSet key,
        @Nullable RexNode predicate) {
      return getDistinctRowCount(s.logical, mq, key, predicate);
    }

    public @Nullable Double getDistinctRowCount(VectorizedScan s, RelMetadataQuery mq, ImmutableBitSet key,
        @Nullable RexNode predicate) {
      return s.logical == null ? Double.valueOf(s.estimateRowCount(mq))
          : getDistinctRowCount(s.logical, mq, key, predicate);
    }
  }

  /** Rows of joins. */
  public static final class Rows implements MetadataHandler<BuiltInMetadata.RowCount> {
    @Override public MetadataDef<BuiltInMetadata.RowCount> getDef() {
      return BuiltInMetadata.RowCount.DEF;
    }

    public @Nullable Double getRowCount(Join j, RelMetadataQuery mq) {
      JoinRelType type = j.getJoinType();
      if (!type.projectsRight()) { // SEMI and ANTI: Calcite's estimate
        return RelMdUtil.getJoinRowCount(mq, j, j.getCondition());
      }
      JoinInfo info = j.analyzeCondition();
      double left = Objects.requireNonNullElse(mq.getRowCount(j.getLeft()), 1e6);
      double right = Objects.requireNonNullElse(mq.getRowCount(j.getRight()), 1e6);
      int n = info.leftKeys.size();
      double[] ld = new double[n];
      double[] rd = new double[n];
      for (int k = 0; k < n; k++) {
        ld[k] = distinct(mq, j.getLeft(), info.leftKeys.get(k));
        rd[k] = distinct(mq, j.getRight(), info.rightKeys.get(k));
      }
      int others = info.isEqui() ? 0 : 1;
      double rows = joinRows(left, right, ld, rd, others);
      return switch (type) {
        case LEFT -> Math.max(rows, left);
        case RIGHT -> Math.max(rows, right);
        case FULL -> Math.max(rows, left + right);
        default -> rows;
      };
    }
  }
}
