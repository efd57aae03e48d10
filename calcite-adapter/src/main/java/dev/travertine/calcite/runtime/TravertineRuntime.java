package dev.travertine.calcite.runtime;

import dev.travertine.calcite.file.FileScan;
import dev.travertine.calcite.file.FileScanSpec;
import dev.travertine.calcite.file.FileTable;
import dev.travertine.calcite.rel.ScanSpec;
import dev.travertine.calcite.schema.TravertineSchema;
import dev.travertine.calcite.schema.TravertineSession;
import dev.travertine.mergetree.Inserter;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.TableSnapshot;
import dev.travertine.mergetree.scan.ScanRequest;
import dev.travertine.mergetree.scan.TableScanner;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.mergetree.settings.SessionSettings;
import dev.travertine.mergetree.settings.Settings;
import dev.travertine.vector.Batch;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

/**
 * Entry points that generated code calls: {@link #scan} streams a table's rows through the
 * engine's vectorized scan, {@link #insert} feeds rows into an INSERT. The conversion between
 * column vectors and Calcite's row arrays happens here, once per row.
 */
public final class TravertineRuntime {
  private TravertineRuntime() {}

  /** Rows of a scan: Object[] in the spec's projection order, or the bare value for one column. */
  public static Enumerable<Object> scan(DataContext root, ScanSpec spec) {
    TravertineSession session = TravertineSchema.session(root.getRootSchema());
    MergeTreeTable table = session.requireTable(spec.table());
    SessionSettings s = session.settings();
    TableSchema schema = table.definition().schema();
    Predicate filter = spec.filter() == null ? null : spec.filter().bind(schema);
    int[] proj = spec.projection();
    TypeKind[] kinds = new TypeKind[proj.length];
    for (int i = 0; i < proj.length; i++) {
      kinds[i] = schema.column(proj[i]).type().kind();
    }
    ScanRequest req = new ScanRequest(proj, filter, spec.limit(), spec.ordered(),
        (int) s.getLong(Settings.MAX_THREADS), (int) s.getLong(Settings.MAX_BLOCK_SIZE),
        s.getBool(Settings.USE_PRIMARY_KEY), dev.travertine.mergetree.scan.ReadSettings.of(s));
    return new AbstractEnumerable<Object>() {
      @Override public Enumerator<Object> enumerator() {
        dev.travertine.mergetree.query.QueryContext q = session.currentQuery();
        TableScanner scanner = TableScanner.open(table.snapshot(), req, table.context());
        return new Enumerator<Object>() {
          Batch batch;
          int k;
          long attributed;
          long attributedBytes;
          Object current;

          /** Rows and bytes the scanner read since the last call count for the query. */
          private void attribute() {
            long read = scanner.rowsRead();
            q.addReadRows(read - attributed);
            attributed = read;
            long bytes = scanner.bytesRead();
            q.addReadBytes(bytes - attributedBytes);
            attributedBytes = bytes;
          }

          @Override public Object current() {
            return current;
          }

          @Override public boolean moveNext() {
            try {
              while (batch == null || ++k >= batch.size()) {
                if (q != null) {
                  attribute();
                  q.checkCancelled();
                }
                batch = scanner.next();
                k = -1;
                if (batch == null) {
                  return false;
                }
              }
            } catch (IOException e) {
              throw new UncheckedIOException("Cannot read table " + spec.table() + ": " + e.getMessage(), e);
            }
            int r = batch.sel()[k];
            if (proj.length == 1) {
              current = Vectors.get(batch.cols()[proj[0]], kinds[0], r);
              return true;
            }
            Object[] row = new Object[proj.length];
            for (int i = 0; i < proj.length; i++) {
              row[i] = Vectors.get(batch.cols()[proj[i]], kinds[i], r);
            }
            current = row;
            return true;
          }

          @Override public void reset() {
            throw new UnsupportedOperationException();
          }

          @Override public void close() {
            try {
              scanner.close();
              if (q != null) {
                attribute();
              }
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
        };
      }
    };
  }

  /** Runs a row-at-a-time scan of files ({@link FileScan}): one column as the bare value, several as Object[]. */
  public static Enumerable<Object> scanFiles(DataContext root, FileScanSpec spec) {
    TravertineSession session = TravertineSchema.session(java.util.Objects.requireNonNull(root.getRootSchema()));
    FileTable t = FileTable.open(session, spec);
    @SuppressWarnings("unchecked")
    Enumerable<Object> rows = (Enumerable<Object>) (Enumerable<?>) FileScan.rows(t, spec.projection());
    if (spec.projection().length == 1) {
      return rows.select(r -> ((Object[]) r)[0]);
    }
    return rows;
  }

  /** What the generated code's enumerables are made from: their one method (see {@link #enumerable}). */
  public interface EnumeratorSource {
    Enumerator<Object> enumerator();
  }

  /**
   * An enumerable whose enumerators come from the generated code. Generated code gets this
   * instead of an anonymous subclass of {@code AbstractEnumerable}, because Janino checks a new
   * class against every method of its supertypes, and {@code Enumerable} has hundreds.
   */
  public static AbstractEnumerable<Object> enumerable(EnumeratorSource source) {
    return new AbstractEnumerable<>() {
      @Override public Enumerator<Object> enumerator() {
        return source.enumerator();
      }
    };
  }

  /** Throws: a statement the engine does not support yet. */
  public static long unsupported(String message) {
    throw new UnsupportedOperationException(message);
  }

  /** Inserts the rows of {@code source} into a table as one statement; returns the row count. */
  public static long insert(DataContext root, String tableName, Enumerable<?> source) {
    TravertineSession session = TravertineSchema.session(root.getRootSchema());
    session.checkWritable("INSERT");
    MergeTreeTable table = session.requireTable(tableName);
    long maxBlock = session.settings().getLong(Settings.MAX_INSERT_BLOCK_SIZE);
    try (Inserter ins = table.newInserter(maxBlock); Enumerator<?> e = source.enumerator()) {
      while (e.moveNext()) {
        Object o = e.current();
        ins.add(o instanceof Object[] a ? a : new Object[] {o});
      }
      return ins.commit();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot insert into " + tableName + ": " + e.getMessage(), e);
    }
  }

  /**
   * Calcite's nested-loop join with a predicate that checks the running query's cancellation and
   * limits every 16,384 calls (see {@link dev.travertine.calcite.codegen.GuardedRoot}). Calcite enumerates an INNER, LEFT, SEMI
   * or ANTI join's inner side again for every outer row; here it is read once into a list (charged
   * to the query's memory by {@link dev.travertine.calcite.codegen.GuardedRoot}, as RIGHT and FULL joins' lists are), so a
   * subquery under it runs once, not once per outer row.
   */
  public static <L, R, T> Enumerable<T> nestedLoopJoin(DataContext root, Enumerable<L> outer, Enumerable<R> inner,
      org.apache.calcite.linq4j.function.Predicate2<L, R> predicate,
      org.apache.calcite.linq4j.function.Function2<? super L, ? super R, T> selector,
      org.apache.calcite.linq4j.JoinType joinType) {
    // Bound now (generated code calls this as the statement binds): the query of this execution,
    // also when its enumerators open later, while another statement of the connection runs.
    dev.travertine.mergetree.query.QueryContext q = TravertineSchema.session(root.getRootSchema()).currentQuery();
    if (joinType != org.apache.calcite.linq4j.JoinType.RIGHT && joinType != org.apache.calcite.linq4j.JoinType.FULL) {
      inner = readOnce(inner);
    }
    if (q == null) {
      return org.apache.calcite.linq4j.EnumerableDefaults.nestedLoopJoin(outer, inner, predicate, selector, joinType);
    }
    org.apache.calcite.linq4j.function.Predicate2<L, R> checked = new org.apache.calcite.linq4j.function.Predicate2<>() {
      int calls;

      @Override public boolean apply(L left, R right) {
        if ((++calls & 16383) == 0) {
          q.checkCancelled();
        }
        return predicate.apply(left, right);
      }
    };
    return org.apache.calcite.linq4j.EnumerableDefaults.nestedLoopJoin(outer, inner, checked, selector, joinType);
  }

  /** An input read into a list on its first enumeration, which later ones replay. */
  private static <T> Enumerable<T> readOnce(Enumerable<T> input) {
    return new AbstractEnumerable<T>() {
      private List<T> rows;

      @Override public synchronized Enumerator<T> enumerator() {
        if (rows == null) {
          rows = input.toList();
        }
        return org.apache.calcite.linq4j.Linq4j.enumerator(rows);
      }
    };
  }

  /**
   * The rows of an input that a Calcite operator holds whole (a sort, a hash join's build side),
   * charged to the query's memory as they are read. The charge stays while the query runs (the
   * operator keeps what it built until its own output ends), so the operators' states add up;
   * an operator that builds again (under a correlation) gives its previous charge back first.
   */
  public static <T> Enumerable<T> charged(DataContext root, Enumerable<T> input) {
    dev.travertine.exec.op.MemoryTracker memory = TravertineSchema.session(root.getRootSchema()).queryMemory();
    if (memory == null || memory.limit() <= 0) {
      return input; // nothing to hold it to (max_memory_usage = 0): no counting either
    }
    return new AbstractEnumerable<T>() {
      dev.travertine.exec.op.MemoryTracker.Account last;

      @Override public Enumerator<T> enumerator() {
        synchronized (this) {
          if (last != null) {
            last.release();
          }
          last = memory.account();
        }
        dev.travertine.exec.op.MemoryTracker.Account account = last;
        Enumerator<T> in = input.enumerator();
        return new Enumerator<T>() {
          long bytes;
          long unreported;

          @Override public T current() {
            return in.current();
          }

          @Override public boolean moveNext() {
            if (!in.moveNext()) {
              return false;
            }
            unreported += rowBytes(in.current());
            if (unreported >= 64 << 10) {
              bytes += unreported;
              unreported = 0;
              account.resize(bytes);
            }
            return true;
          }

          @Override public void reset() {
            in.reset();
          }

          @Override public void close() {
            in.close();
          }
        };
      }
    };
  }

  /** About what a row of Calcite's operators takes on the heap (the array, boxes and strings). */
  static long rowBytes(Object row) {
    if (row instanceof Object[] a) {
      long b = 16 + 8L * a.length;
      for (Object o : a) {
        b += valueBytes(o);
      }
      return b;
    }
    return 8 + valueBytes(row);
  }

  private static long valueBytes(Object o) {
    if (o == null) {
      return 0;
    } else if (o instanceof String s) {
      return 40 + s.length();
    } else if (o instanceof java.math.BigDecimal) {
      return 64;
    } else if (o instanceof org.apache.calcite.avatica.util.ByteString b) {
      return 40 + b.length();
    } else if (o instanceof byte[] b) {
      return 16 + b.length;
    }
    return 16;
  }
}
