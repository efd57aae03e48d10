package dev.travertine.calcite.schema;

import dev.travertine.calcite.rel.LogicalTravertineScan;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.vector.Predicate;
import java.util.HashMap;
import java.util.Map;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql2rel.InitializerContext;
import org.apache.calcite.sql2rel.InitializerExpressionFactory;
import org.apache.calcite.sql2rel.NullInitializerExpressionFactory;

/**
 * A MergeTree table as Calcite sees it: its row type, statistics, column defaults, and
 * {@link #toRel} producing a {@link LogicalTravertineScan} that planner rules enrich with pushed
 * filters, projections, limits and read-in-order.
 */
public final class TravertineTable extends AbstractTable implements TranslatableTable {
  private final MergeTreeTable table;
  private final TravertineSession session;

  TravertineTable(MergeTreeTable table, TravertineSession session) {
    this.table = table;
    this.session = session;
  }

  /** The session of the connection whose schema holds this table. */
  public TravertineSession session() {
    return session;
  }

  public MergeTreeTable engineTable() {
    return table;
  }

  public TableDefinition definition() {
    return table.definition();
  }

  public String name() {
    return table.definition().name();
  }

  @Override public RelDataType getRowType(RelDataTypeFactory tf) {
    return TypeMapping.rowType(tf, table.definition().schema());
  }

  @Override public Statistic getStatistic() {
    long rows = table.bufferedRows();
    for (var p : table.activeParts()) {
      rows += p.rows();
    }
    return Statistics.of(Math.max(1, rows), null);
  }

  /**
   * The distinct values of {@code column}, estimated: the parts' sketches of it ({@link
   * dev.travertine.mergetree.TableSnapshot#distinct}) plus the rows of the insert buffer, at most
   * the rows, and for an integer or date column at most the width of the range its parts'
   * statistics span (TPC-H's {@code c_nationkey} 25). Without sketches (parts written before them),
   * the rows and the span alone. The join order's estimates divide by it.
   */
  public double distinctEstimate(int column) {
    double d = knownDistinct(column);
    return Double.isNaN(d) ? getStatistic().getRowCount() : d;
  }

  /** {@link #distinctEstimate}, or NaN when neither a sketch nor a span bounds it. */
  private double knownDistinct(int column) {
    double rows = getStatistic().getRowCount();
    long[] r = range(column);
    double sketched = sketched(column);
    if (r == null && Double.isNaN(sketched)) {
      return Double.NaN;
    }
    double d = distinct(rows, r);
    return Double.isNaN(sketched) ? d : Math.max(1, Math.min(d, sketched));
  }

  /**
   * Per column, the parts' sketched distinct count, for one set of parts under one schema (an
   * ALTER keeps the parts but moves, adds and drops columns).
   */
  private record Sketched(long[] files, dev.travertine.mergetree.schema.TableSchema schema, double[] distinct) {}

  private volatile Sketched sketched;

  /** The sketches' estimate plus the insert buffer's rows, or NaN where a part has no sketch. */
  private double sketched(int column) {
    try (dev.travertine.mergetree.TableSnapshot s = table.snapshot()) {
      long[] files = new long[s.parts().size()];
      for (int i = 0; i < files.length; i++) {
        files[i] = s.parts().get(i).fileId();
      }
      dev.travertine.mergetree.schema.TableSchema schema = s.definition().schema();
      Sketched c = sketched;
      if (c == null || c.schema() != schema || !java.util.Arrays.equals(c.files(), files)) {
        double[] d = new double[schema.size()];
        java.util.Arrays.fill(d, -1);
        c = new Sketched(files, schema, d);
        sketched = c;
      }
      double d = c.distinct()[column];
      if (d == -1) {
        // On remote storage only footers read already (by scans) are asked: no request per part
        // while planning; the estimate improves once the table has been read.
        boolean remote = s.parts().stream().anyMatch(dev.travertine.mergetree.part.PartRef::remote);
        dev.travertine.vector.HyperLogLog h;
        try {
          h = s.distinct(column, !remote);
        } catch (RuntimeException e) { // an unreadable footer fails the scan, not the estimate
          h = null;
        }
        if (h == null) {
          if (remote) {
            return Double.NaN; // asked again next time: footers may have been read meanwhile
          }
          d = Double.NaN;
        } else {
          d = h.estimate();
        }
        c.distinct()[column] = d;
      }
      return Double.isNaN(d) ? d : d + s.bufferedRows();
    }
  }

  /** The distinct values of a column of {@code rows} rows whose {@link #range} is {@code r}. */
  private static double distinct(double rows, long[] r) {
    return r == null ? rows : Math.max(1, Math.min(rows, (double) r[1] - (double) r[0] + 1));
  }

  /**
   * The smallest and largest value of an integer or date column by its parts' statistics, or null
   * (another type, rows in the insert buffer, no statistics, no non-NULL value).
   */
  long[] range(int column) {
    dev.travertine.mergetree.schema.TableSchema schema = table.definition().schema();
    if (!schema.column(column).type().kind().isLongBacked() || table.bufferedRows() > 0) {
      return null;
    }
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    try (dev.travertine.mergetree.TableSnapshot s = table.snapshot()) {
      for (dev.travertine.mergetree.part.PartRef p : s.parts()) {
        if (p.info().rows() == 0) {
          continue;
        }
        dev.travertine.vector.StatsView st = dev.travertine.mergetree.scan.ScanPlan.partStats(schema, p);
        if (st.allNull(column)) {
          continue;
        }
        if (!(st.min(column) instanceof Number min) || !(st.max(column) instanceof Number max)) {
          return null;
        }
        lo = Math.min(lo, min.longValue());
        hi = Math.max(hi, max.longValue());
      }
    }
    return lo > hi ? null : new long[] {lo, hi};
  }

  /**
   * The share of rows a pushed filter keeps, estimated: an equality 1 / the column's distinct
   * values (0.15 where they are unknown, Calcite's guess), a range on an integer or date column its
   * share of the column's min/max span, other comparisons 0.5; AND multiplies, OR adds.
   */
  public double selectivity(Predicate p) {
    double rows = getStatistic().getRowCount();
    if (p instanceof Predicate.Compare c) {
      return share(c, range(c.column()), knownDistinct(c.column()), rows);
    }
    if (p instanceof Predicate.In in) {
      double d = knownDistinct(in.column());
      return Math.min(1, in.values().size() * (Double.isNaN(d) ? 0.15 : 1 / d));
    }
    if (p instanceof Predicate.IsNull n) {
      return n.negated() ? 0.9 : 0.1;
    }
    if (p instanceof Predicate.And a) {
      // Two bounds of one column: their shares overlap (x >= a AND x < b keeps b - a, not the product).
      double s = 1;
      Map<Integer, double[]> bounds = new HashMap<>();
      for (Predicate q : a.children()) {
        long[] r = q instanceof Predicate.Compare c && c.op() != Predicate.Op.EQ && c.op() != Predicate.Op.NE
            ? range(c.column()) : null;
        if (r != null) {
          Predicate.Compare c = (Predicate.Compare) q;
          double[] b = bounds.computeIfAbsent(c.column(), k -> new double[] {0, 0});
          boolean upper = c.op() == Predicate.Op.LT || c.op() == Predicate.Op.LE;
          b[upper ? 1 : 0] += 1 - share(c, r, Double.NaN, rows); // the share each bound cuts away
          continue;
        }
        s *= selectivity(q);
      }
      for (double[] b : bounds.values()) {
        s *= Math.max(1 / Math.max(rows, 1), 1 - b[0] - b[1]);
      }
      return s;
    }
    if (p instanceof Predicate.Or o) {
      double keep = 0;
      for (Predicate q : o.children()) {
        keep += selectivity(q);
      }
      return Math.min(1, keep);
    }
    return 0.5;
  }

  /**
   * The share of {@code rows} rows a comparison keeps, its column's {@link #range} being {@code r}
   * and its {@link #knownDistinct} {@code distinct} (NaN: unknown).
   */
  private static double share(Predicate.Compare c, long[] r, double distinct, double rows) {
    double eq = Double.isNaN(distinct) ? 0.15 : 1 / distinct;
    if (c.op() == Predicate.Op.EQ) {
      return eq;
    }
    if (c.op() == Predicate.Op.NE) {
      return 1 - eq;
    }
    if (r == null || !(c.value() instanceof Number v) || v instanceof java.math.BigDecimal
        || v instanceof Double || v instanceof Float) {
      return 0.5;
    }
    double span = (double) r[1] - (double) r[0] + 1;
    double x = v.doubleValue();
    double below = switch (c.op()) {
      case LT -> x - r[0];
      case LE -> x - r[0] + 1;
      case GT -> r[1] - x;
      case GE -> r[1] - x + 1;
      default -> span;
    };
    return Math.max(1 / Math.max(rows, 1), Math.min(1, Math.max(0, below) / span));
  }

  @Override public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
    return LogicalTravertineScan.create(context.getCluster(), relOptTable, this);
  }

  @Override public <C> C unwrap(Class<C> c) {
    if (c.isInstance(this)) {
      return c.cast(this);
    }
    if (c == InitializerExpressionFactory.class) {
      return c.cast(new Defaults());
    }
    return super.unwrap(c);
  }

  /** Column DEFAULT expressions, parsed from their stored SQL text. */
  private final class Defaults extends NullInitializerExpressionFactory {
    @Override public ColumnStrategy generationStrategy(RelOptTable t, int iColumn) {
      Column c = table.definition().schema().column(iColumn);
      if (c.defaultSql() != null) {
        return ColumnStrategy.DEFAULT;
      }
      return c.nullable() ? ColumnStrategy.NULLABLE : ColumnStrategy.NOT_NULLABLE;
    }

    @Override public RexNode newColumnDefaultValue(RelOptTable t, int iColumn, InitializerContext context) {
      Column c = table.definition().schema().column(iColumn);
      if (c.defaultSql() == null) {
        return super.newColumnDefaultValue(t, iColumn, context);
      }
      SqlNode expr = context.parseExpression(
          org.apache.calcite.sql.parser.SqlParser.config(), c.defaultSql());
      RexNode rex = context.convertExpression(expr);
      RelDataType target = t.getRowType().getFieldList().get(iColumn).getType();
      return context.getRexBuilder().makeCast(target, rex, true, false);
    }
  }
}
