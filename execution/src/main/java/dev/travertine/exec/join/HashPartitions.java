package dev.travertine.exec.join;

import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.util.Arrays;
import java.util.List;

/**
 * Splits a join side's rows into {@code 2^bits} partitions by the hash of their keys, the same
 * hash {@link JoinTable} chains by, so that a probe row and every build row it can match fall in
 * the same partition (a grace hash join). A row with a NULL key matches nothing: partition 0.
 */
public final class HashPartitions {
  private final int[] keys;
  private final TypeKind[] kinds;
  private final int shift;
  private long[] h = new long[0];
  private boolean[] nul = new boolean[0];

  /** @param types the side's field types; {@code keys} its key fields */
  public HashPartitions(List<DataType> types, int[] keys, int bits) {
    if (bits < 1 || bits > 16) {
      throw new IllegalArgumentException("1 to 16 partition bits, not " + bits);
    }
    this.keys = keys.clone();
    this.kinds = JoinKeys.kinds(types, keys);
    this.shift = 32 - bits;
  }

  /** The partition of each selected row of {@code b}: {@code out[k]} for position {@code b.sel()[k]}. */
  public void partitions(Batch b, int[] out) {
    int n = b.size();
    if (h.length < n) {
      h = new long[n];
      nul = new boolean[n];
    }
    Arrays.fill(h, 0, n, JoinKeys.SEED);
    Arrays.fill(nul, 0, n, false);
    for (int c = 0; c < keys.length; c++) {
      JoinKeys.hash(b.cols()[keys[c]], kinds[c], b.sel(), n, h, nul);
    }
    for (int k = 0; k < n; k++) {
      // The top bits: the table's buckets use the low ones, so a partition's table still spreads.
      out[k] = nul[k] ? 0 : JoinKeys.finish(h[k]) >>> shift;
    }
  }
}
