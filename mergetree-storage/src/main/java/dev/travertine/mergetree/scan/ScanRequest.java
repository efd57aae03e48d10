package dev.travertine.mergetree.scan;

import dev.travertine.vector.BatchStage;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.RowFilter;

/**
 * What a query asks of a table scan.
 *
 * @param columns table column indexes the consumer reads (order irrelevant)
 * @param filter rows must pass this (null = all rows)
 * @param limit stop after this many passing rows (-1 = no limit)
 * @param ordered emit rows in sort-key order (read in order, merging parts)
 * @param maxThreads threads for an unordered scan
 * @param batchSize rows per batch read
 * @param usePruning use partition and granule statistics to skip data
 * @param read how remote parts are read (prefetch, coalescing)
 * @param stages the work each worker thread does on its batches (null = none); the limit counts
 *     the rows the stages hand on
 * @param prewhere a filter parts may evaluate on its columns before decoding the others (null =
 *     none): an optimisation only, the stages still filter (rows failing it may or may not reach
 *     them)
 * @param tasks where the scan gets its tasks from (null: it reads every task of its plan); the
 *     insert buffer is read in either case. Unordered scans only.
 */
public record ScanRequest(int[] columns, Predicate filter, long limit, boolean ordered, int maxThreads,
    int batchSize, boolean usePruning, ReadSettings read, BatchStage.Factory stages,
    dev.travertine.vector.RowFilter prewhere, TaskFeed tasks) {

  public ScanRequest {
    if (ordered && tasks != null) {
      throw new IllegalArgumentException("An ordered scan reads all of its tasks");
    }
  }

  /**
   * A request shaped by a session's settings: max_threads, max_block_size, index pruning, the
   * read settings, and PREWHERE only when optimize_move_to_prewhere allows it.
   */
  public static ScanRequest of(dev.travertine.mergetree.settings.SessionSettings s, int[] columns, Predicate filter,
      long limit, boolean ordered, BatchStage.Factory stages, dev.travertine.vector.RowFilter prewhere,
      TaskFeed tasks) {
    return new ScanRequest(columns, filter, limit, ordered,
        (int) s.getLong(dev.travertine.mergetree.settings.Settings.MAX_THREADS),
        (int) s.getLong(dev.travertine.mergetree.settings.Settings.MAX_BLOCK_SIZE),
        s.getBool(dev.travertine.mergetree.settings.Settings.USE_PRIMARY_KEY), ReadSettings.of(s), stages,
        s.getBool(dev.travertine.mergetree.settings.Settings.OPTIMIZE_MOVE_TO_PREWHERE) ? prewhere : null, tasks);
  }

  /** The same request, read with {@code r}. */
  public ScanRequest withRead(ReadSettings r) {
    return new ScanRequest(columns, filter, limit, ordered, maxThreads, batchSize, usePruning, r, stages, prewhere,
        tasks);
  }

  public ScanRequest(int[] columns, Predicate filter, long limit, boolean ordered, int maxThreads, int batchSize,
      boolean usePruning, ReadSettings read, BatchStage.Factory stages, dev.travertine.vector.RowFilter prewhere) {
    this(columns, filter, limit, ordered, maxThreads, batchSize, usePruning, read, stages, prewhere, null);
  }

  public ScanRequest(int[] columns, Predicate filter, long limit, boolean ordered, int maxThreads, int batchSize,
      boolean usePruning, ReadSettings read, BatchStage.Factory stages) {
    this(columns, filter, limit, ordered, maxThreads, batchSize, usePruning, read, stages, null);
  }

  public ScanRequest(int[] columns, Predicate filter, long limit, boolean ordered, int maxThreads, int batchSize,
      boolean usePruning, ReadSettings read) {
    this(columns, filter, limit, ordered, maxThreads, batchSize, usePruning, read, null);
  }

  public ScanRequest(int[] columns, Predicate filter, long limit, boolean ordered, int maxThreads, int batchSize,
      boolean usePruning) {
    this(columns, filter, limit, ordered, maxThreads, batchSize, usePruning, ReadSettings.DEFAULT);
  }
}
