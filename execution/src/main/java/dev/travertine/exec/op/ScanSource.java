package dev.travertine.exec.op;

import dev.travertine.mergetree.part.RowFilter;
import dev.travertine.mergetree.scan.BatchStage;
import dev.travertine.mergetree.scan.TableScanner;

/** How a fragment reads its table: the caller knows the table, snapshot and read settings. */
public interface ScanSource {
  /**
   * Opens the scan; each worker thread runs a stage from {@code stages} on its batches.
   * {@code prewhere} (null = none) is a filter the reader may evaluate on its columns before
   * decoding the others; the stages still see every row that passes it (and may see more).
   */
  TableScanner open(BatchStage.Factory stages, long limit, RowFilter prewhere);

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
