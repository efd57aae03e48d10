package dev.travertine.exec.expr;

import dev.travertine.vector.IntegerVector;

/**
 * A column of integers at their width ({@link IntegerVector}) compared with a constant: every
 * operator is a range test {@code lo <= x <= hi}, or its negation for {@code <>}, which the vector
 * runs at its width ({@link IntegerVector#selectRange}).
 */
final class NarrowCompare {
  private NarrowCompare() {}

  /**
   * Positions of {@code sel[0 .. n)} where {@code col[i] o v} holds, into {@code out}; returns their
   * count (NULLs not looked at: the caller drops them). {@code branching}: a branch per row.
   */
  static int filter(IntegerVector col, Op o, long v, int[] sel, int n, int[] out, boolean branching) {
    return switch (o) {
      case EQ -> col.selectRange(v, v, false, sel, n, out, branching);
      case NE -> col.selectRange(v, v, true, sel, n, out, branching);
      case LT -> v == Long.MIN_VALUE ? 0 : col.selectRange(Long.MIN_VALUE, v - 1, false, sel, n, out, branching);
      case LE -> col.selectRange(Long.MIN_VALUE, v, false, sel, n, out, branching);
      case GT -> v == Long.MAX_VALUE ? 0 : col.selectRange(v + 1, Long.MAX_VALUE, false, sel, n, out, branching);
      case GE -> col.selectRange(v, Long.MAX_VALUE, false, sel, n, out, branching);
      default -> throw new IllegalStateException(o.name());
    };
  }
}
