package dev.travertine.exec.op;

import dev.travertine.vector.BatchIterator;
import dev.travertine.vector.BatchStage;
import dev.travertine.vector.RowFilter;

/**
 * Where a fragment's rows come from: a table scan (the caller knows the table, snapshot and read
 * settings), or the blocks other nodes send (an exchange), whose batches are the fields
 * themselves.
 */
public interface ScanSource {
  /**
   * Opens the scan; each worker thread runs a stage from {@code stages} on its batches (those
   * the iterator returns are what the stages hand on).
   * {@code prewhere} (null = none) is a filter the reader may evaluate on its columns before
   * decoding the others; the stages still see every row that passes it (and may see more).
   */
  BatchIterator open(BatchStage.Factory stages, long limit, RowFilter prewhere) throws java.io.IOException;

  /**
   * As above; {@code narrowing} (null = none, table columns, values as longs) is a condition every
   * row the caller needs meets (a join's runtime filter): the source may prune partitions and
   * granules with it and drop the rows that fail it. This default ignores it.
   */
  default BatchIterator open(BatchStage.Factory stages, long limit, RowFilter prewhere,
      dev.travertine.vector.Predicate narrowing) throws java.io.IOException {
    return open(stages, limit, prewhere);
  }

  /**
   * What part metadata says of the scan's rows when the scan filters nothing (no pushed filter,
   * no pending mutation), from one snapshot; null otherwise.
   */
  Statistics statistics();

  /** Where the fragment's other parallel work (merging partial aggregates) runs. */
  default Workers workers() {
    return Workers.callerOnly();
  }

  /**
   * Row count and, per scan field, the smallest and largest non-NULL value (storage
   * representation) where {@code known[f]}: exact, from every part's statistics, with no
   * unindexed rows (the insert buffer) beside them. A known field whose values are all NULL has
   * null min and max.
   */
  record Statistics(long rows, boolean[] known, Object[] min, Object[] max) {}
}
