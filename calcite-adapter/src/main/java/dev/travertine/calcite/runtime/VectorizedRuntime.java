package dev.travertine.calcite.runtime;

import dev.travertine.calcite.cluster.ParallelReplicas;
import dev.travertine.calcite.file.FileScanSource;
import dev.travertine.calcite.file.FileTable;
import dev.travertine.calcite.rel.ScanSpec;
import dev.travertine.calcite.schema.TravertineSchema;
import dev.travertine.calcite.schema.TravertineSession;
import dev.travertine.calcite.schema.TypeMapping;
import dev.travertine.calcite.vectorized.VectorizedSpec;
import dev.travertine.exec.op.FragmentRunner;
import dev.travertine.exec.op.MemoryTracker;
import dev.travertine.exec.op.ScanSource;
import dev.travertine.exec.op.SharedResult;
import dev.travertine.exec.op.Workers;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.TableSnapshot;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.query.QueryContext;
import dev.travertine.mergetree.scan.ScanPlan;
import dev.travertine.mergetree.scan.ScanRequest;
import dev.travertine.mergetree.scan.TableScanner;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.mergetree.settings.SessionSettings;
import dev.travertine.mergetree.settings.Settings;
import dev.travertine.vector.Batch;
import dev.travertine.vector.BatchIterator;
import dev.travertine.vector.BatchStage;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.RowFilter;
import dev.travertine.vector.StatsView;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

/**
 * What generated code calls to run a vectorized fragment ({@link dev.travertine.calcite.vectorized.VectorizedToEnumerable}): opens
 * the scan with the session's settings, runs the fragment, and turns its batches into rows of
 * Calcite's values (Object[], or the bare value for one field).
 */
public final class VectorizedRuntime {
  private VectorizedRuntime() {}

  public static Enumerable<Object> run(DataContext root, VectorizedSpec spec) {
    TravertineSession session = TravertineSchema.session(root.getRootSchema());
    if (spec.files() != null) {
      return new AbstractEnumerable<>() {
        @Override public Enumerator<Object> enumerator() {
          return new Rows(session, null, spec, source(session, new VectorizedSpec.Source(null, spec.files())));
        }
      };
    }
    MergeTreeTable table = session.requireTable(spec.scan().table());
    return new AbstractEnumerable<>() {
      @Override public Enumerator<Object> enumerator() {
        return new Rows(session, table, spec, new Source(table, spec.scan(), session.settings()));
      }
    };
  }

  /** The scan of a table or of files, with the session's settings. */
  private static CountedSource source(TravertineSession session, VectorizedSpec.Source s) {
    if (s.files() != null) {
      FileTable files = FileTable.open(session, s.files());
      return new FileScanSource(files, s.files().projection(), session.settings(),
          session.database().context().scanPool());
    }
    return new Source(session.requireTable(s.scan().table()), s.scan(), session.settings());
  }

  /** A fragment's scan that counts what it read (for the query's limits and log). */
  public interface CountedSource extends ScanSource {
    long rowsRead();

    long bytesRead();
  }

  /**
   * A shared subplan's result as a fragment's scan: it reads no table (its own scans count what
   * they read); the fragment's other parallel work (join builds, merging partial aggregates) runs
   * where the query's scan runs its.
   */
  private record SharedSource(SharedResult result, Workers workers) implements CountedSource {
    @Override public BatchIterator open(BatchStage.Factory stages, long limit, RowFilter prewhere) throws IOException {
      return result.open(stages, limit, prewhere);
    }

    @Override public Statistics statistics() {
      return null;
    }

    @Override public Workers workers() {
      return workers;
    }

    @Override public long rowsRead() {
      return 0;
    }

    @Override public long bytesRead() {
      return 0;
    }
  }

  /** The fragment's scan: the spec's table, filter and order with the session's read settings. */
  private static final class Source implements CountedSource {
    private final MergeTreeTable table;
    private final ScanSpec scan;
    private final Predicate filter;
    private final SessionSettings settings;
    private final List<TableScanner> opened = new ArrayList<>();

    Source(MergeTreeTable table, ScanSpec scan, SessionSettings settings) {
      this.table = table;
      this.scan = scan;
      this.settings = settings;
      this.filter = scan.filter() == null ? null : scan.filter().bind(table.definition().schema());
    }

    @Override public BatchIterator open(BatchStage.Factory stages, long limit, RowFilter prewhere) {
      return open(stages, limit, prewhere, null);
    }

    @Override public synchronized BatchIterator open(BatchStage.Factory stages, long limit, RowFilter prewhere,
        Predicate narrowing) {
      Predicate f = filter;
      if (narrowing != null) {
        // the scan's first stage tests every row with the runtime filters themselves
        Predicate n = new Predicate.Pruning(narrowing.bind(table.definition().schema()));
        f = f == null ? n : new Predicate.And(List.of(f, n));
      }
      ScanRequest req = ScanRequest.of(settings, scan.projection(), f, limit, scan.ordered(), stages, prewhere,
          null);
      // the fragment's stages take narrow integer vectors (ComputeStage widens what its consumer needs wide)
      req = req.withRead(req.read().withNarrowIntegers(true));
      TableScanner s = TableScanner.open(table.snapshot(), req, table.context());
      opened.add(s);
      return BatchIterator.of(s, null);
    }

    @Override public Statistics statistics() {
      if (filter != null) {
        return null;
      }
      try (TableSnapshot s = table.snapshot()) {
        if (s.mayHavePendingMutations()) {
          return null;
        }
        TableSchema schema = table.definition().schema();
        int[] proj = scan.projection();
        long rows = s.bufferedRows();
        boolean[] known = new boolean[proj.length];
        Object[] min = new Object[proj.length];
        Object[] max = new Object[proj.length];
        for (int f = 0; f < proj.length; f++) {
          TypeKind k = schema.column(proj[f]).type().kind();
          // Unindexed buffer rows, and string statistics (kept truncated), answer nothing.
          known[f] = rows == 0 && !k.isString() && k != TypeKind.BOOLEAN;
        }
        for (PartRef p : s.parts()) {
          rows += p.info().rows();
          if (p.info().rows() == 0) {
            continue;
          }
          StatsView st = ScanPlan.partStats(schema, p);
          for (int f = 0; f < proj.length; f++) {
            int c = proj[f];
            if (!known[f] || st.allNull(c)) {
              continue;
            }
            Object lo = st.min(c);
            Object hi = st.max(c);
            if (lo == null || hi == null) {
              known[f] = false;
              continue;
            }
            if (min[f] == null || Vectors.compareValues(lo, min[f]) < 0) {
              min[f] = lo;
            }
            if (max[f] == null || Vectors.compareValues(hi, max[f]) > 0) {
              max[f] = hi;
            }
          }
        }
        return new Statistics(rows, known, min, max);
      }
    }

    @Override public Workers workers() {
      return new Workers(table.context().scanPool(), (int) settings.getLong(Settings.MAX_THREADS));
    }

    @Override public synchronized long rowsRead() {
      long n = 0;
      for (TableScanner s : opened) {
        n += s.rowsRead();
      }
      return n;
    }

    @Override public synchronized long bytesRead() {
      long n = 0;
      for (TableScanner s : opened) {
        n += s.bytesRead();
      }
      return n;
    }
  }

  /** Rows of the fragment's output batches. */
  private static final class Rows implements Enumerator<Object> {
    private final TravertineSession session;
    private final VectorizedSpec spec;
    private final CountedSource source;
    /** The scans of the joins' build sides (source k at k - 1), opened when the fragment starts. */
    private final List<CountedSource> builds = new ArrayList<>();
    /** The subplans among them run once for several uses, released when the rows close. */
    private final List<SharedResult> shared = new ArrayList<>();
    private final QueryContext query;
    private final TypeKind[] kinds;

    /** Per output column, its engine value to Calcite's. */
    private final UnaryOperator<Object>[] calciteValues;
    private final MergeTreeTable table;
    private BatchIterator it;
    private ParallelReplicas.Run distributed;
    private Batch batch;
    private int k;
    private long attributed;
    private long attributedBytes;
    private Object current;

    /** @param table the table scanned, or null for files */
    Rows(TravertineSession session, MergeTreeTable table, VectorizedSpec spec, CountedSource source) {
      this.session = session;
      this.spec = spec;
      this.table = table;
      this.source = source;
      this.query = session.currentQuery();
      var types = spec.fragment().outputTypes();
      this.kinds = types.stream().map(t -> t.kind()).toArray(TypeKind[]::new);
      @SuppressWarnings("unchecked")
      UnaryOperator<Object>[] conversions = spec.outputTypes().stream().map(TypeMapping::calciteValue)
          .toArray(UnaryOperator[]::new);
      this.calciteValues = conversions;
    }

    /** Called by the fragment's worker threads once per batch: rows and bytes read so far count toward the limits. */
    private void check() {
      if (query != null) {
        attribute();
        query.checkCancelled();
      }
    }

    private synchronized void attribute() {
      if (query != null) {
        long read = distributed != null ? distributed.source.rowsRead() : source.rowsRead();
        long bytes = distributed != null ? 0 : source.bytesRead(); // replicas report rows only
        for (CountedSource b : builds) {
          read += b.rowsRead();
          bytes += b.bytesRead();
        }
        query.addReadRows(read - attributed);
        attributed = read;
        query.addReadBytes(bytes - attributedBytes);
        attributedBytes = bytes;
      }
    }

    @Override public Object current() {
      return current;
    }

    /** Joins spill past max_bytes_in_join into the database's scratch directory (exchange blocks). */
    private dev.travertine.exec.op.SpillStore.JoinSpilling joinSpilling(SessionSettings s) throws IOException {
      long max = s.getLong(Settings.MAX_BYTES_IN_JOIN);
      return max <= 0 ? dev.travertine.exec.op.SpillStore.JoinSpilling.NONE
          : new dev.travertine.exec.op.SpillStore.JoinSpilling(max,
              new dev.travertine.rpc.block.BlockSpillStore(session.database().scratchDirectory(), session.database().events()));
    }

    @Override public boolean moveNext() {
      try {
        if (it == null) {
          SessionSettings s = session.settings();
          MemoryTracker memory = new MemoryTracker(s.getLong(Settings.MAX_MEMORY_USAGE));
          int batchSize = (int) s.getLong(Settings.MAX_BLOCK_SIZE);
          if (table != null && ParallelReplicas.whyLocal(session, spec) == null) {
            distributed = ParallelReplicas.start(session, table, spec, source, this::check, memory, batchSize);
          }
          boolean runtimeFilters = s.getBool(Settings.ENABLE_JOIN_RUNTIME_FILTERS);
          var spilling = joinSpilling(s);
          for (VectorizedSpec.Source b : spec.joinSources()) {
            if (b.shared() != null) {
              // a subplan several build sides read: run once, over sources listed before it
              SharedResult r = new SharedResult(() -> FragmentRunner.run(b.shared(),
                  b.sharedScan() == 0 ? source : builds.get(b.sharedScan() - 1),
                  k -> k == 0 ? source : builds.get(k - 1), this::check, memory, batchSize, runtimeFilters, spilling),
                  b.shared().outputTypes(), memory);
              shared.add(r);
              builds.add(new SharedSource(r, source.workers()));
            } else {
              builds.add(source(session, b));
            }
          }
          ScanSource main = spec.mainSource() == 0 ? source : builds.get(spec.mainSource() - 1);
          it = distributed != null ? distributed.batches
              : FragmentRunner.run(spec.fragment(), main, k -> k == 0 ? source : builds.get(k - 1), this::check, memory,
                  batchSize, runtimeFilters, spilling);
        }
        while (batch == null || ++k >= batch.size()) {
          attribute();
          batch = it.next();
          k = -1;
          if (batch == null) {
            return false;
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + (table != null ? "table " + spec.scan().table()
            : spec.files().scheme() + "('" + spec.files().pattern() + "')") + ": " + e.getMessage(), e);
      }
      int r = batch.sel()[k];
      var cols = batch.cols();
      if (kinds.length == 1) {
        current = calciteValues[0].apply(Vectors.get(cols[0], kinds[0], r));
        return true;
      }
      Object[] row = new Object[kinds.length];
      for (int i = 0; i < row.length; i++) {
        row[i] = calciteValues[i].apply(Vectors.get(cols[i], kinds[i], r));
      }
      current = row;
      return true;
    }

    @Override public void reset() {
      throw new UnsupportedOperationException();
    }

    @Override public void close() {
      try {
        if (it != null) {
          it.close();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        attribute();
        shared.forEach(SharedResult::release);
        if (distributed != null) {
          distributed.snapshot.close();
        }
      }
    }
  }
}
