package dev.travertine.exec.expr;

import dev.travertine.vector.Batch;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * A compiled {@link Expr}. Not thread-safe: compile one per worker thread.
 *
 * <p>Vectors by type: BOOLEAN (0/1), TINYINT, SMALLINT, INTEGER, BIGINT, DATE (days) in a
 * {@code LongColumnVector}; REAL, DOUBLE in a {@code DoubleColumnVector}; DECIMAL in a
 * {@code DecimalColumnVector}; CHAR, VARCHAR in a {@code BytesColumnVector} (UTF-8); TIMESTAMP in
 * a {@code TimestampColumnVector}. Every vector honours {@code isRepeating} and
 * {@code noNulls}/{@code isNull}.
 */
public interface VectorExpression {

  /**
   * Evaluates the rows {@code batch.sel()[0 .. batch.size())}. The result holds each row's value
   * at the row's own position (not compacted), or is repeating; it is a new vector on every call
   * (callers may hold several results at once), large enough for every selected position.
   * Rows outside the selection are not evaluated: a division by zero in a row that a filter or a
   * CASE branch excluded raises nothing.
   */
  ColumnVector evaluate(Batch batch);

  /**
   * For a BOOLEAN expression: writes the selected positions where it is TRUE (not FALSE, not
   * NULL) into {@code out}, in the input's order, and returns their count. {@code out} may be the
   * batch's own selection array.
   */
  int filter(Batch batch, int[] out);
}
