package dev.travertine.mergetree.scan;

import dev.travertine.mergetree.EngineEvents;
import dev.travertine.mergetree.mutation.CompiledMutation;
import dev.travertine.mergetree.part.PartReader;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.vector.Batch;
import dev.travertine.vector.RowFilter;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.StripeInformation;

/**
 * Reads one part (or one stripe of it) for a {@link TableScanner}: from the decoded-column cache
 * where it can, else through a {@link PartReader} opened now or ahead of use (prefetch).
 */
final class PartSource implements TaskSource {
  /**
   * What a prefetched task holds at least, whatever its columns' share of the part: the stripe's
   * footer and row index, the reader's buffers and its first decoded batch. Counted against the
   * memory budget and the window's bytes, so tasks of (almost) no column bytes cannot make a scan
   * prefetch without bound.
   */
  static final long MIN_PREFETCH_BYTES = 256 << 10;

  /** A part stripe opened (and its first batch read) ahead of use on the IO pool. */
  /** A prefetched reader: with its first batch (ORC's reader), or none read yet (ours: its stripe fetched), or at its end. */
  private record Opened(PartReader rows, VectorizedRowBatch first, boolean ended) {}

  private final TableScanner scan;
  private final ScanPlan.PartTask task;
  private final int stripe;
  private final List<CompiledMutation> mutations;
  private PartReader rows;
  private VectorizedRowBatch pending;
  private CompletableFuture<Opened> ahead;
  private volatile long aheadSince;
  /** When the first batch went to the scan (nanoTime), or -1: how long the scan spends on this task. */
  private long started = -1;
  private long reserved;
  private boolean prefetchTried;
  private boolean overBudgetCounted;
  private long readBytes = -1;
  private boolean done;
  /** The task's use of the decoded-column cache (null: none); see {@link #cached()}. */
  private CachedTask cached;
  private boolean cacheLooked;
  /** The read batch {@link #next} returned last (none from the cache), and one free for the next read. */
  private VectorizedRowBatch last;
  private VectorizedRowBatch spare;

  PartSource(TableScanner scan, ScanPlan.PartTask task, int stripe) {
    this.scan = scan;
    this.task = task;
    this.stripe = stripe;
    this.mutations = scan.snapshot.pendingFor(task.part());
  }

  /**
   * The task's use of the decoded-column cache, looked up once, before anything is read (the
   * reader decodes only the columns it does not get from there); null when it is not used.
   */
  private CachedTask cached() {
    if (!cacheLooked) {
      cacheLooked = true;
      // Pending mutations rewrite the vectors they apply to: such a part neither uses nor fills the cache.
      if (scan.request.read().uncompressedCache() && mutations.isEmpty()) {
        cached = CachedTask.plan(scan.ctx.columnCache(), task, stripe, scan.schema, scan.orcSchema, scan.include,
            (int) Math.max(1, Math.min(scan.request.batchSize(), task.part().info().rows())),
            scan.request.read().narrowIntegers(), scan.ctx.events());
      }
    }
    return cached;
  }

  /** The next batch of a task whose columns all come from the cache. */
  private Batch nextCached(CachedTask c) throws IOException {
    ColumnVector[] cols;
    while ((cols = c.nextCached()) != null) {
      Batch b = cachedBatch(c, cols);
      if (b != null) {
        return b;
      }
    }
    done = true;
    close();
    return null;
  }

  /**
   * A batch of a task that uses the cache: its rows in the task's selected granules (every row of
   * a task read from the reader), counted as read, filtered; null when no row is selected.
   */
  private Batch cachedBatch(CachedTask c, ColumnVector[] cols) {
    if (c.selectsAll() && scan.rowFilter() == null) {
      int n = c.size();
      if (n == 0) {
        return null;
      }
      scan.countRead(cols, n);
      return new Batch(cols, Batch.identity(n), n);
    }
    int[] sel = new int[c.size()];
    int m = c.select(sel);
    if (m == 0) {
      return null;
    }
    scan.countRead(cols, m);
    if (scan.rowFilter() != null) {
      m = scan.rowFilter().filter(cols, sel, m);
    }
    return new Batch(cols, sel, m);
  }

  private void finishCached(CachedTask c) throws IOException {
    try {
      c.finish();
    } catch (IllegalStateException e) {
      throw failure(e);
    }
  }

  private IOException failure(Throwable e) {
    return new IOException("Cannot read part " + task.part().name() + " of table " + scan.snapshot.definition().name()
        + ": " + e.getMessage(), e);
  }

  /**
   * Whether parts are decoded into narrow integer vectors where the consumer takes them: only with
   * the system property {@code travertine.scan.narrowDecode} set to {@code true} (read at each
   * part's open, so that one JVM can run both). Off by default: measured, decoding and filtering
   * at the narrow width did not pay (docs/benchmarks.md, "Narrow integers from the part reader").
   */
  static boolean narrowDecoding() {
    return "true".equals(System.getProperty("travertine.scan.narrowDecode"));
  }

  private PartReader openReader() throws IOException {
    PartRef p = task.part();
    long offset = 0;
    long length = -1;
    if (stripe >= 0) {
      StripeInformation si = p.stripes().get(stripe);
      offset = si.getOffset();
      length = si.getLength();
    }
    ReadSettings r = scan.request.read();
    CachedTask c = cached; // looked up before any read; a task using the cache reads whole, without skipping
    // PREWHERE only for a task that neither fills the cache (it must read every row) nor applies
    // pending mutations (they look at every row).
    RowFilter prewhere = c == null && mutations.isEmpty() ? scan.prewhere() : null;
    // Our vectors for consumers that take them, unless pending mutations read the batch first (they
    // read Hive's vectors): strings of a stripe's dictionary as dictionary vectors (a PREWHERE's
    // filters take them: the pushed predicates, the engine's expressions, a top-N's threshold on
    // numbers, join key filters); and narrow integers when no PREWHERE reads the batch first and the
    // stages consume every batch of an unordered scan, so that each comes back to be filled again
    // (others would allocate narrow arrays beside the batch's Hive vectors, and widen them; an
    // ordered scan's merge holds batches), and the task does not use the decoded-column cache (which
    // keeps the vectors it is handed).
    boolean narrow = c == null && prewhere == null && narrowDecoding() && scan.request.stages() != null
        && scan.request.stages().consumesBatches() && !scan.request.ordered();
    PartReader.VectorForms vectors = !r.narrowIntegers() || !mutations.isEmpty()
        ? PartReader.VectorForms.HIVE
        : narrow ? PartReader.VectorForms.NARROW : PartReader.VectorForms.DICTIONARY_STRINGS;
    return PartReader.open(p, scan.schema, c != null ? c.readInclude() : scan.include,
        task.granules() != null && c == null ? scan.sarg : null, scan.columnNames, offset, length,
        new dev.travertine.io.hadoop.FileIOFileSystem.ReadOptions(r.coalesceDistance(), r.coalesceMaxBytes(),
            r.maxRequestBytes(), r.cache()), prewhere, vectors, c == null ? task.granules() : null);
  }

  /** The rows the reader filtered so far (counted as read). */
  private long filteredCounted;

  @Override
  public synchronized boolean prefetch() {
    PartRef p = task.part();
    if (prefetchTried || rows != null || done || !scan.request.read().prefetch() || !p.remote()) {
      return true;
    }
    CachedTask c = cached();
    if (c != null && c.allCached()) {
      return true; // nothing to fetch
    }
    long bytes = readBytes();
    if (!scan.budget.reserve(bytes)) {
      if (!overBudgetCounted) {
        overBudgetCounted = true;
        scan.ctx.events().add(EngineEvents.PREFETCHES_OVER_BUDGET, 1);
      }
      return false;
    }
    prefetchTried = true;
    reserved = bytes;
    scan.ctx.events().add(EngineEvents.PREFETCHES, 1);
    ahead = CompletableFuture.supplyAsync(() -> {
      aheadSince = System.nanoTime(); // the fetch, not the wait for a thread of the pool
      try {
        PartReader r = openReader();
        try {
          if (r.fetchAhead()) {
            return new Opened(r, null, false); // our reader: the stripe's stored bytes, decoded by the scan's thread
          }
          VectorizedRowBatch b = c != null ? c.newBatch() : scan.newReadBatch(task.part().info().rows());
          return r.next(b) ? new Opened(r, b, false) : new Opened(r, null, true);
        } catch (IOException | RuntimeException e) {
          r.close();
          throw e;
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }, dev.travertine.io.IoPool.prefetchExecutor());
    return true;
  }

  /**
   * The included columns' share of the stripe (or part), and at least {@link #MIN_PREFETCH_BYTES},
   * for remote parts; 0 for local ones.
   */
  @Override
  public synchronized long readBytes() {
    if (readBytes < 0) {
      CachedTask c = cached();
      readBytes = !task.part().remote() || c != null && c.allCached() ? 0
          : Math.max(MIN_PREFETCH_BYTES, task.part().bytesToRead(scan.schema, c != null ? c.readInclude() : scan.include,
              stripe));
    }
    return readBytes;
  }

  @Override
  public synchronized Batch next() throws IOException {
    if (done) {
      return null;
    }
    CachedTask c = cached();
    if (c != null && c.allCached()) {
      return nextCached(c);
    }
    VectorizedRowBatch batch;
    if (rows == null) {
      if (ahead != null) {
        boolean arrived = ahead.isDone();
        scan.ctx.events().add(arrived ? EngineEvents.PREFETCHED_READS : EngineEvents.UNPREFETCHED_READS, 1);
        Opened o;
        try {
          o = ahead.join();
        } catch (java.util.concurrent.CompletionException e) {
          throw failure(e.getCause() instanceof java.io.UncheckedIOException u ? u.getCause() : e.getCause());
        } finally {
          ahead = null;
        }
        scan.window.used(arrived, System.nanoTime() - aheadSince);
        rows = o.rows();
        pending = o.first();
        if (o.ended()) {
          done = true;
          if (c != null) {
            finishCached(c);
          }
          close();
          return null;
        }
      } else {
        try {
          rows = openReader();
        } catch (IOException | RuntimeException e) {
          throw failure(e);
        }
      }
    }
    if (pending != null) {
      batch = pending;
      pending = null;
    } else {
      batch = c != null ? c.newBatch() : spare != null ? spare : scan.newReadBatch(task.part().info().rows());
      spare = null;
      if (!rows.next(batch)) {
        done = true;
        if (started >= 0) {
          scan.window.consumed(System.nanoTime() - started);
        }
        if (c != null) {
          finishCached(c);
        }
        close();
        return null;
      }
    }
    if (started < 0) {
      started = System.nanoTime();
    }
    last = c == null ? batch : null;
    if (c != null) {
      ColumnVector[] cols;
      try {
        cols = c.combine(batch);
      } catch (IllegalStateException e) {
        throw failure(e);
      }
      // A task that fills the cache reads its stripe whole, also the batches of granules it
      // skips: those hand on no row (an empty batch, not the end of the task).
      Batch b = cachedBatch(c, cols);
      return b != null ? b : new Batch(cols, new int[0], 0);
    }
    if (rows.rowFiltered() && batch.selectedInUse) {
      // PREWHERE ran in the reader, the scan's own filter first: the batch holds the rows that pass.
      long f = rows.filteredRows();
      scan.rowsRead.addAndGet(f - filteredCounted);
      filteredCounted = f;
      scan.bytesRead.addAndGet(scan.bytesOf(batch.cols, batch.size)); // of the rows that passed: about
      int[] sel = selection(batch.size);
      System.arraycopy(batch.selected, 0, sel, 0, batch.size);
      lastSel = sel;
      return new Batch(batch.cols, sel, batch.size);
    }
    scan.countRead(batch.cols, batch.size);
    if (mutations.isEmpty() && scan.rowFilter() == null) {
      return scan.filtered(batch.cols, batch.size, mutations); // every row: the shared identity selection
    }
    int[] sel = selection(batch.size);
    Batch b = scan.filtered(batch.cols, batch.size, mutations, sel);
    lastSel = b.sel() == sel ? sel : null;
    return b;
  }

  /** The last batch's selection, or null; and one a consumer is done with, for the next batch ({@link #recycle}). */
  private int[] lastSel;
  private int[] spareSel;

  /** An array for a selection of {@code n} rows: the one recycled when large enough, else a new one. */
  private int[] selection(int n) {
    int[] s = spareSel != null && spareSel.length >= n ? spareSel : new int[n];
    spareSel = null;
    return s;
  }

  @Override
  public synchronized void recycle() {
    spare = last;
    last = null;
    spareSel = lastSel;
    lastSel = null;
  }

  @Override
  public synchronized void close() throws IOException {
    if (cached != null) {
      cached.abandon(); // after finish(): nothing left to drop
    }
    if (ahead != null) {
      // Prefetched but never used (LIMIT, an error): close it when it arrives.
      scan.ctx.events().add(EngineEvents.UNUSED_PREFETCH_BYTES, reserved);
      ahead.thenAccept(o -> {
        try {
          o.rows().close();
        } catch (IOException e) {
          // nothing read from it
        }
      });
      ahead = null;
    }
    if (reserved > 0) {
      scan.budget.release(reserved);
      reserved = 0;
    }
    if (rows != null) {
      rows.close();
      rows = null;
    }
  }
}
