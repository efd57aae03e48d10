package org.apache.calcite.jdbc;

import dev.travertine.calcite.FastInsertSignature;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.server.CalciteServerStatement;

/**
 * Calcite's JDBC metadata with one change: a batch of a fast-path INSERT runs as one insert
 * instead of one statement per parameter set. It lives in Calcite's package because Calcite's
 * connection class, which its constructor takes, is package-private.
 */
public final class TravertineMetaImpl extends CalciteMetaImpl {
  private TravertineMetaImpl(CalciteConnectionImpl connection) {
    super(connection, CalciteMetaTableFactoryImpl.INSTANCE, CalciteMetaColumnFactoryImpl.INSTANCE);
  }

  /** The metadata object of a Travertine connection. */
  public static Meta create(AvaticaConnection connection) {
    return new TravertineMetaImpl((CalciteConnectionImpl) connection);
  }

  @Override public ExecuteBatchResult executeBatch(StatementHandle h, List<List<TypedValue>> parameterValueLists)
      throws NoSuchStatementException {
    CalciteServerStatement stmt = getConnection().server.getStatement(h);
    Meta.Signature sig = stmt.getSignature();
    if (sig instanceof FastInsertSignature<?> f) {
      List<List<Object>> sets = new ArrayList<>(parameterValueLists.size());
      for (List<TypedValue> tvs : parameterValueLists) {
        List<Object> vals = new ArrayList<>(tvs.size());
        for (TypedValue tv : tvs) {
          vals.add(tv == null ? null : tv.toLocal());
        }
        sets.add(vals);
      }
      f.executeBatch(sets);
      long[] counts = new long[sets.size()];
      Arrays.fill(counts, f.rowsPerExecution());
      return new ExecuteBatchResult(counts);
    }
    return super.executeBatch(h, parameterValueLists);
  }
}
