package dev.travertine.vector;

import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * A filter the ORC reader evaluates on the filter columns alone, before it decodes the other
 * columns (ClickHouse's PREWHERE): the other columns are decoded only for the rows that pass,
 * and not at all for a batch where none does.
 */
public interface RowFilter {
  /** Table columns the filter reads (decoded first). */
  int[] columns();

  /** A filter for one reader (used by one thread at a time). */
  Instance create();

  /** One reader's filter. */
  interface Instance {
    /**
     * Narrows the selection {@code sel[0 .. n)} (ascending positions) in place to the rows that
     * pass and returns their count. {@code cols} is indexed by table column; only
     * {@link #columns()} are set. Rows outside the selection are not evaluated.
     */
    int filter(ColumnVector[] cols, int[] sel, int n);
  }
}
