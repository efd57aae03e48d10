package dev.travertine.calcite.dml;

import dev.travertine.calcite.schema.TravertineSession;
import java.sql.DatabaseMetaData;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.sql.SqlKind;

/** A prepared fast-path INSERT: executes without Calcite's planner (see {@link FastInsert}). */
public final class FastInsertSignature<T> extends CalcitePrepare.CalciteSignature<T> {
  private final FastInsert insert;
  private final TravertineSession session;
  private final int rowsPerExecution;

  @SuppressWarnings("unchecked")
  public FastInsertSignature(String sql, FastInsert insert, int rowsPerExecution, CalcitePrepare.Context context,
      TravertineSession session) {
    super(sql, insert.parameters(), Map.of(), RelOptUtil.createDmlRowType(SqlKind.INSERT, context.getTypeFactory()),
        List.of(rowCountColumn()), Meta.CursorFactory.OBJECT, context.getRootSchema(), List.of(), -1,
        dataContext -> {
          List<Object> params = new ArrayList<>();
          for (int i = 0; i < insert.paramCount(); i++) {
            params.add(dataContext.get("?" + i));
          }
          long n = logged(session, sql, () -> insert.execute(session, params));
          return (org.apache.calcite.linq4j.Enumerable<T>) (Object) Linq4j.singletonEnumerable((Object) n);
        },
        Meta.StatementType.IS_DML);
    this.insert = insert;
    this.session = session;
    this.rowsPerExecution = rowsPerExecution;
  }

  public static ColumnMetaData rowCountColumn() {
    return new ColumnMetaData(0, false, false, false, false, DatabaseMetaData.columnNoNulls, true, 19, "ROWCOUNT",
        "ROWCOUNT", null, 19, 0, null, null,
        ColumnMetaData.scalar(Types.BIGINT, "BIGINT", ColumnMetaData.Rep.LONG), true, false, false,
        Long.class.getName());
  }

  /** Rows one execution inserts (the VALUES row count). */
  public int rowsPerExecution() {
    return rowsPerExecution;
  }

  /** Runs all parameter sets as one insert (one query log entry). */
  public long executeBatch(List<List<Object>> parameterSets) {
    return logged(session, getSql(), () -> insert.executeBatch(session, parameterSets));
  }

  private String getSql() {
    return sql;
  }

  /** Runs an insert as one query-log entry. */
  static long logged(TravertineSession session, String sql, java.util.function.LongSupplier run) {
    var registry = session.database().queries();
    var q = registry.begin(session.user(), sql);
    session.setCurrentQuery(q);
    try {
      long n = run.getAsLong();
      q.addResultRows(n);
      registry.finish(q, null);
      return n;
    } catch (RuntimeException e) {
      registry.finish(q, e);
      throw e;
    }
  }
}
