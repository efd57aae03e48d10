package dev.travertine.exec.agg;

import dev.travertine.exec.Columns;
import dev.travertine.vector.DataType;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import java.util.Arrays;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * One long-backed key column (integers, BOOLEAN, DATE). A key of at most 16 bits (BOOLEAN,
 * TINYINT, SMALLINT) indexes an array of group ids directly instead of a hash map (ClickHouse's
 * FixedHashMap for UInt8/UInt16 keys).
 */
final class LongKeys extends GroupTable {
  private final DataType type;
  /** For a small key type: group + 1 by value - directBase (0: none yet); else null. */
  private int[] direct;
  /** The smallest value of the small key type. */
  private int directBase;
  private Long2IntOpenHashMap map = new Long2IntOpenHashMap();
  private long[] values = new long[256];
  private int size;
  private int nullGroup = -1;

  LongKeys(DataType type) {
    this.type = type;
    map.defaultReturnValue(-1);
    switch (type.kind()) {
      case BOOLEAN -> direct = new int[2];
      case TINYINT -> {
        directBase = Byte.MIN_VALUE;
        direct = new int[1 << 8];
      }
      case SMALLINT -> {
        directBase = Short.MIN_VALUE;
        direct = new int[1 << 16];
      }
      default -> { }
    }
  }

  @Override public int size() {
    return size;
  }

  private int add(long v) {
    long i = v - directBase;
    if (direct != null && i >= 0 && i < direct.length) {
      int g = direct[(int) i] - 1;
      if (g < 0) {
        g = newGroup(v);
        direct[(int) i] = g + 1;
      }
      return g;
    }
    if (ascending) {
      if (lastGroup < 0 || v > values[lastGroup]) {
        lastGroup = newGroup(v);
        return lastGroup;
      }
      if (v == values[lastGroup]) {
        return lastGroup;
      }
      toMap(); // a key below the last: from now on the map
    }
    int g = map.putIfAbsent(v, size);
    if (g >= 0) {
      return g;
    }
    return newGroup(v);
  }

  /**
   * While every key (outside the direct array) came larger than the one before, as a table stored
   * in the key's order reads (TPC-H's line items by order key), the groups are in key order and no
   * map is kept: a new key is a new group, the last key's group is the last group. The first key
   * out of order puts them all in the map.
   */
  private boolean ascending = true;
  /** The group of the largest key so far while {@link #ascending}, or -1. */
  private int lastGroup = -1;

  private void toMap() {
    ascending = false;
    if (map == null) {
      map = new Long2IntOpenHashMap(Math.max(16, size));
      map.defaultReturnValue(-1);
    }
    for (int g = 0; g < size; g++) {
      long v = values[g];
      long i = v - directBase;
      if (g != nullGroup && !(direct != null && i >= 0 && i < direct.length)) {
        map.put(v, g);
      }
    }
  }

  private int newGroup(long v) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size] = v;
    return size++;
  }

  private int nullGroup() {
    if (nullGroup < 0) {
      nullGroup = newGroup(0);
    }
    return nullGroup;
  }

  @Override public void groupIds(ColumnVector[] keys, int[] sel, int n, int[] gid) {
    LongColumnVector v = (LongColumnVector) keys[0];
    long[] vec = v.vector;
    if (v.isRepeating) {
      int g = !v.noNulls && v.isNull[0] ? nullGroup() : add(vec[0]);
      Arrays.fill(gid, 0, n, g);
      return;
    }
    if (v.noNulls) {
      // Runs of equal keys (sorted data) skip the map.
      long last = 0;
      int lastGroup = -1;
      for (int k = 0; k < n; k++) {
        long x = vec[sel[k]];
        if (lastGroup < 0 || x != last) {
          lastGroup = add(x);
          last = x;
        }
        gid[k] = lastGroup;
      }
      return;
    }
    for (int k = 0; k < n; k++) {
      int r = sel[k];
      gid[k] = v.isNull[r] ? nullGroup() : add(vec[r]);
    }
  }

  @Override public int[] mergeFrom(GroupTable other, int[] src, int n) {
    LongKeys o = (LongKeys) other;
    int[] out = new int[n];
    for (int k = 0; k < n; k++) {
      int g = src[k];
      out[k] = g == o.nullGroup ? nullGroup() : add(o.values[g]);
    }
    return out;
  }

  @Override public int hash(int g) {
    return g == nullGroup ? NULL_HASH : mix(values[g]);
  }

  @Override public void reorder(int[] order) {
    values = Gather.longs(values, order, size);
    nullGroup = moved(nullGroup, order, size);
    map = null;
    direct = null;
  }

  @Override public void reserve(int groups) {
    if (size == 0 && groups > values.length) {
      if (direct == null) { // (a direct key needs no map)
        map = new Long2IntOpenHashMap(groups);
        map.defaultReturnValue(-1);
      }
      values = new long[groups];
    }
  }

  @Override public ColumnVector[] keys(int from, int count) {
    LongColumnVector v = (LongColumnVector) Columns.newVector(type, count);
    System.arraycopy(values, from, v.vector, 0, count);
    if (nullGroup >= from && nullGroup < from + count) {
      v.noNulls = false;
      v.isNull[nullGroup - from] = true;
    }
    return new ColumnVector[] {v};
  }

  @Override public long bytes() {
    return 8L * values.length + (map == null ? 0 : 12L * map.size()) + (direct == null ? 0 : 4L * direct.length);
  }
}
