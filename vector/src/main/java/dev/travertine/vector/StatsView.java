package dev.travertine.vector;

/**
 * Min/max statistics of some rows (a part, or one granule of a part), by table column index,
 * in storage representation. Unknown statistics answer null for min/max and true for hasNull.
 */
public interface StatsView {
  /** Smallest non-null value, or null if unknown or every value is null. */
  Object min(int column);

  /** Largest non-null value, or null if unknown or every value is null. */
  Object max(int column);

  /** Whether some value may be null. */
  boolean hasNull(int column);

  /** Whether every value is known to be null. */
  boolean allNull(int column);
}
