package dev.travertine.mergetree.mutation;

import dev.travertine.vector.Predicate;
import java.util.BitSet;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * A mutation ready to run on column vectors (made by a {@link MutationCompiler}). Vectors are
 * indexed by table column; only {@link #columns()} need be loaded.
 */
public interface CompiledMutation {
  boolean isDelete();

  /** Table columns the mutation reads or writes. */
  BitSet columns();

  /** Columns an UPDATE assigns (empty for DELETE). */
  int[] updated();

  /**
   * A predicate every matching row satisfies, for skipping parts and granules; null when the
   * WHERE condition can't be expressed as one (then every part may match).
   */
  Predicate pruning();

  /** Narrows {@code sel[0..n)} in place to the rows matching WHERE (order kept); returns how many. */
  int match(ColumnVector[] cols, int[] sel, int n);

  /** Assigns the new values to rows {@code rows[0..n)} (all matching; vectors are writable, not repeating). */
  void update(ColumnVector[] cols, int[] rows, int n);
}
