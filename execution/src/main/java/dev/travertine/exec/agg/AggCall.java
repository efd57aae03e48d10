package dev.travertine.exec.agg;

import dev.travertine.vector.DataType;

/**
 * One aggregate of a hash aggregation.
 *
 * @param function what it computes
 * @param arg input field (-1 for COUNT(*))
 * @param distinct over distinct argument values (COUNT only)
 * @param filter input BOOLEAN field whose TRUE rows alone are aggregated (-1 = all rows): SQL's
 *     {@code FILTER (WHERE …)}
 * @param type the result type
 */
public record AggCall(AggFunction function, int arg, boolean distinct, int filter, DataType type) {
  /** Aggregate functions. SUM0 is SUM that gives 0, not NULL, for no rows. */
  public enum AggFunction { COUNT, SUM, SUM0, AVG, MIN, MAX }

  @Override public String toString() {
    return function + "(" + (distinct ? "DISTINCT " : "") + (arg < 0 ? "*" : "$" + arg) + ")"
        + (filter >= 0 ? " FILTER $" + filter : "");
  }
}
