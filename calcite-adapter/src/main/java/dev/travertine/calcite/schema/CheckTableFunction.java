package dev.travertine.calcite.schema;

import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.query.QueryContext;
import dev.travertine.mergetree.settings.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code check_table('t')}, what {@code CHECK TABLE t} runs: one row per active part
 * ({@code part_path, is_passed, message}, ClickHouse's columns), checked when the query executes.
 * Broken parts are moved aside unless the session is readonly.
 */
public final class CheckTableFunction {
  private CheckTableFunction() {}

  /** The table function's entry point. */
  public static ScannableTable check(String table) {
    return new Result(table);
  }

  /** The rows, computed by the scan. */
  static final class Result extends AbstractTable implements ScannableTable {
    private final String table;

    Result(String table) {
      this.table = table;
    }

    @Override public RelDataType getRowType(RelDataTypeFactory tf) {
      return tf.builder()
          .add("part_path", tf.createSqlType(SqlTypeName.VARCHAR))
          .add("is_passed", tf.createSqlType(SqlTypeName.BOOLEAN))
          .add("message", tf.createTypeWithNullability(tf.createSqlType(SqlTypeName.VARCHAR), true))
          .build();
    }

    @Override public Enumerable<Object[]> scan(DataContext root) {
      TravertineSession session = TravertineSchema.session(root.getRootSchema());
      MergeTreeTable t = session.requireTable(table);
      QueryContext query = session.currentQuery();
      boolean write = !session.readOnly() && session.settings().getLong(Settings.READONLY) == 0;
      List<Object[]> rows = new ArrayList<>();
      try {
        for (MergeTreeTable.PartCheck c : t.check(() -> {
          if (query != null) {
            query.checkCancelled();
          }
          return false;
        }, write)) {
          rows.add(new Object[] {c.partPath(), c.passed(), c.message()});
        }
      } catch (IOException e) {
        throw new UncheckedIOException("CHECK TABLE " + table + " failed: " + e.getMessage(), e);
      }
      return Linq4j.asEnumerable(rows);
    }
  }
}
