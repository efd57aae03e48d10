package dev.travertine.exec.agg;

import java.util.Arrays;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/** No GROUP BY: one group, also over no rows. */
final class NoKeys extends GroupTable {
  @Override public int size() {
    return 1;
  }

  @Override public void groupIds(ColumnVector[] keys, int[] sel, int n, int[] gid) {
    Arrays.fill(gid, 0, n, 0);
  }

  @Override public int[] mergeFrom(GroupTable other, int[] src, int n) {
    return new int[n];
  }

  @Override public int hash(int g) {
    return 0;
  }

  @Override public void reorder(int[] order) {
    throw new UnsupportedOperationException("One group has no order");
  }

  @Override public ColumnVector[] keys(int from, int count) {
    return new ColumnVector[0];
  }

  @Override public long bytes() {
    return 0;
  }
}
