package dev.travertine.calcite;

import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableDefinition;
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
  TravertineSession session() {
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
   * An upper bound on the distinct values of {@code column}: the row count, and for an integer or
   * date column also the width of the range its parts' statistics span (TPC-H's
   * {@code c_nationkey} 25, {@code o_custkey} the customers). The join order's estimates divide by it.
   */
  double distinctEstimate(int column) {
    double rows = getStatistic().getRowCount();
    dev.travertine.mergetree.schema.TableSchema schema = table.definition().schema();
    if (!schema.column(column).type().kind().isLongBacked() || table.bufferedRows() > 0) {
      return rows;
    }
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    try (dev.travertine.mergetree.TableSnapshot s = table.snapshot()) {
      for (dev.travertine.mergetree.part.PartRef p : s.parts()) {
        if (p.info().rows() == 0) {
          continue;
        }
        dev.travertine.mergetree.scan.StatsView st = dev.travertine.mergetree.scan.ScanPlan.partStats(schema, p);
        if (st.allNull(column)) {
          continue;
        }
        if (!(st.min(column) instanceof Number min) || !(st.max(column) instanceof Number max)) {
          return rows;
        }
        lo = Math.min(lo, min.longValue());
        hi = Math.max(hi, max.longValue());
      }
    }
    return lo > hi ? 1 : Math.max(1, Math.min(rows, (double) hi - (double) lo + 1));
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
