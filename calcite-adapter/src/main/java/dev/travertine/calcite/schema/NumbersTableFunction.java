package dev.travertine.calcite.schema;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/** {@code numbers(n)}: the BIGINT column {@code number} with values 0..n-1, streamed (ClickHouse's numbers). */
public final class NumbersTableFunction {
  private NumbersTableFunction() {}

  /** The table function's entry point. */
  public static ScannableTable numbers(long n) {
    if (n < 0) {
      throw new IllegalArgumentException("numbers(n) needs n >= 0, got " + n);
    }
    return new Numbers(n);
  }

  /** The streamed table. */
  static final class Numbers extends AbstractTable implements ScannableTable {
    private final long n;

    Numbers(long n) {
      this.n = n;
    }

    @Override public RelDataType getRowType(RelDataTypeFactory tf) {
      return tf.builder().add("number", tf.createSqlType(SqlTypeName.BIGINT)).build();
    }

    @Override public Statistic getStatistic() {
      return Statistics.of(n, null);
    }

    @Override public Enumerable<Object[]> scan(DataContext root) {
      TravertineSession session = TravertineSchema.session(root.getRootSchema());
      dev.travertine.mergetree.query.QueryContext query = session == null ? null : session.currentQuery();
      return new AbstractEnumerable<>() {
        @Override public Enumerator<Object[]> enumerator() {
          return new Enumerator<>() {
            long i = -1;

            @Override public Object[] current() {
              return new Object[] {i};
            }

            @Override public boolean moveNext() {
              if ((i & 0xffff) == 0xffff && query != null) {
                // Calcite's operators above check nothing: KILL QUERY and max_execution_time hold here.
                query.checkCancelled();
              }
              return ++i < n;
            }

            @Override public void reset() {
              i = -1;
            }

            @Override public void close() {}
          };
        }
      };
    }
  }
}
