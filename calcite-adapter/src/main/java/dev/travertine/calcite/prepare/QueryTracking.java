package dev.travertine.calcite.prepare;

import dev.travertine.calcite.schema.TravertineSession;
import dev.travertine.mergetree.query.QueryContext;
import dev.travertine.mergetree.settings.Settings;
import dev.travertine.mergetree.query.QueryRegistry;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

/**
 * Puts statements in the query log: every execution of a prepared signature is one query, from
 * bind until its result is consumed or closed, counting result rows; DDL (which runs while
 * preparing) and failures to prepare are logged by {@link TravertinePrepare}.
 */
public final class QueryTracking {
  private QueryTracking() {}

  /** Registers a statement as this session's running query, with the session's limits. */
  public static QueryContext begin(TravertineSession session, String sql) {
    // The client's id names its statement; a statement that one runs inside (KILL's query of
    // system.processes, while the KILL is running) gets an id of its own.
    String id = session.queryId();
    QueryContext named = session.namedQuery();
    boolean nested = id != null && named != null && id.equals(named.id())
        && session.database().queries().isRunning(id);
    QueryContext q = session.database().queries().begin(session.user(), sql, nested ? null : id);
    q.setConnectionId(session.clientConnectionId());
    if (id != null && !nested) {
      if (named != null && named.id().equals(id) && named.isCancelled()) {
        // KILL QUERY found the statement while it was being planned: its execution stops too.
        q.cancel();
      }
      session.setNamedQuery(q);
    }
    q.limit(session.settings().getLong(Settings.MAX_EXECUTION_TIME), session.settings().getLong(Settings.MAX_ROWS_TO_READ),
        session.settings().getLong(Settings.MAX_BYTES_TO_READ));
    session.setCurrentQuery(q);
    return q;
  }

  static <T> CalcitePrepare.CalciteSignature<T> wrap(CalcitePrepare.CalciteSignature<T> sig,
      TravertineSession session) {
    if (sig.statementType == Meta.StatementType.OTHER_DDL) {
      return sig;
    }
    QueryRegistry registry = session.database().queries();
    String sql = sig.sql;
    // Calcite reads an update count with one next() and never closes that iterator: the
    // statement ends with its row (else it stayed in system.processes and counted against
    // max_concurrent_queries for ever).
    boolean updateCount = sig.statementType != null && sig.statementType.canUpdate();
    return new CalcitePrepare.CalciteSignature<>(sig.sql, sig.parameters, sig.internalParameters, sig.rowType,
        sig.columns, sig.cursorFactory, sig.rootSchema, sig.getCollationList(), -1,
        dataContext -> {
          QueryContext q = begin(session, sql);
          Object timeout = dataContext.get(DataContext.Variable.TIMEOUT.camelName);
          Object flag = dataContext.get(DataContext.Variable.CANCEL_FLAG.camelName);
          if (flag instanceof java.util.concurrent.atomic.AtomicBoolean b) {
            b.set(false); // the statement's flag stays set after a cancel: that one stopped an earlier run
          }
          q.watchClient(flag instanceof java.util.concurrent.atomic.AtomicBoolean b ? b : null,
              timeout instanceof Number n ? n.longValue() : 0);
          long maxResultRows = session.settings().getLong(Settings.MAX_RESULT_ROWS);
          Enumerable<T> inner;
          try {
            inner = sig.enumerable(dataContext);
          } catch (RuntimeException e) {
            RuntimeException c = clear(e);
            registry.finish(q, c);
            throw c;
          }
          return new AbstractEnumerable<T>() {
            @Override public Enumerator<T> enumerator() {
              Enumerator<T> e;
              try {
                e = inner.enumerator();
              } catch (RuntimeException ex) {
                RuntimeException c = clear(ex);
                registry.finish(q, c);
                throw c;
              }
              return new Enumerator<T>() {
                @Override public T current() {
                  try {
                    return e.current();
                  } catch (RuntimeException ex) {
                    RuntimeException c = clear(ex);
                    registry.finish(q, c);
                    throw c;
                  }
                }

                long n;

                @Override public boolean moveNext() {
                  try {
                    if ((n++ & 1023) == 0) {
                      q.checkCancelled();
                    }
                    boolean more = e.moveNext();
                    if (!more || updateCount) {
                      registry.finish(q, null); // a query whose rows are all read is done (finish is idempotent)
                    }
                    if (more) {
                      q.addResultRows(1);
                      if (maxResultRows > 0 && q.resultRows() > maxResultRows) {
                        throw new QueryContext.QueryLimitException(String.format(java.util.Locale.ROOT,
                            "Limit for result exceeded: more than %,d rows (max_result_rows)", maxResultRows));
                      }
                    }
                    return more;
                  } catch (RuntimeException ex) {
                    RuntimeException c = clear(ex);
                    registry.finish(q, c);
                    throw c;
                  }
                }

                @Override public void reset() {
                  e.reset();
                }

                @Override public void close() {
                  try {
                    e.close();
                  } finally {
                    registry.finish(q, null);
                  }
                }
              };
            }
          };
        },
        sig.statementType);
  }

  private static final java.util.regex.Pattern INPUT = java.util.regex.Pattern.compile("For input string: \"(.*)\"");

  /**
   * The failure in words a user reads: Calcite's runtime casts fail with the JDK's
   * {@code For input string: "x"} (a NumberFormatException), which becomes
   * {@code Cannot parse 'x' as a number}.
   */
  static RuntimeException clear(RuntimeException e) {
    if (e instanceof NumberFormatException nfe) {
      String m = String.valueOf(nfe.getMessage());
      java.util.regex.Matcher x = INPUT.matcher(m);
      // no cause: errors are reported in their innermost cause's words (SqlErrors)
      IllegalArgumentException clear = new IllegalArgumentException(x.find() ? "Cannot parse '" + x.group(1)
          + "' as a number" : "Cannot parse a value as a number: " + m);
      clear.setStackTrace(e.getStackTrace());
      return clear;
    }
    return e;
  }
}
