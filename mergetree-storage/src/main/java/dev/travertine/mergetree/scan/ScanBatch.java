package dev.travertine.mergetree.scan;

import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * Rows a scan produced: column vectors indexed by table column (only requested ones filled) and
 * the positions of the rows that passed the filter, {@code sel[0..size)}, in ascending order.
 * Valid until the consumer asks for the next batch. The vectorized operators pass the same shape
 * on (their vectors indexed by field).
 */
public record ScanBatch(ColumnVector[] cols, int[] sel, int size) {}
