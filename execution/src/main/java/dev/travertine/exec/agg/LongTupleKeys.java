package dev.travertine.exec.agg;

import dev.travertine.exec.Columns;
import dev.travertine.mergetree.schema.DataType;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * Two to eight long-backed key columns: the values (and a NULL bitmask) of each group in flat
 * arrays, one per key column, no serialization.
 */
final class LongTupleKeys extends GroupTable {
  private final List<DataType> types;
  private final int width;
  private long[][] cols;
  private byte[] nulls = new byte[256];
  private int size;
  /** Slot -> group id + 1 (0 = empty). */
  private int[] slots = new int[512];
  private int mask = slots.length - 1;
  private final long[] probe;

  LongTupleKeys(List<DataType> types) {
    this.types = types;
    this.width = types.size();
    this.cols = new long[width][256];
    this.probe = new long[width];
  }

  @Override public int size() {
    return size;
  }

  private int hash(long[] v, int n) {
    long h = n;
    for (int c = 0; c < width; c++) {
      h = (h + v[c]) * 0x9E3779B97F4A7C15L;
      h ^= h >>> 32;
    }
    h *= 0xff51afd7ed558ccdL;
    return (int) (h ^ (h >>> 29));
  }


  /** The group of the tuple in {@code probe} with NULL flags {@code n}. */
  private int add(byte n) {
    int s = hash(probe, n) & mask;
    while (true) {
      int g = slots[s] - 1;
      if (g < 0) {
        return insert(s, n);
      }
      if (nulls[g] == n && same(g)) {
        return g;
      }
      s = (s + 1) & mask;
    }
  }

  private boolean same(int g) {
    for (int c = 0; c < width; c++) {
      if (cols[c][g] != probe[c]) {
        return false;
      }
    }
    return true;
  }

  private int insert(int slot, byte n) {
    int g = size++;
    if (g == nulls.length) {
      nulls = Arrays.copyOf(nulls, g * 2);
      for (int c = 0; c < width; c++) {
        cols[c] = Arrays.copyOf(cols[c], g * 2);
      }
    }
    for (int c = 0; c < width; c++) {
      cols[c][g] = probe[c];
    }
    nulls[g] = n;
    slots[slot] = g + 1;
    if (size * 2 > slots.length) {
      slots = new int[slots.length * 2];
      mask = slots.length - 1;
      for (int i = 0; i < size; i++) {
        int s = hash(i) & mask;
        while (slots[s] != 0) {
          s = (s + 1) & mask;
        }
        slots[s] = i + 1;
      }
    }
    return g;
  }

  @Override public void groupIds(ColumnVector[] keys, int[] sel, int n, int[] gid) {
    LongColumnVector[] v = new LongColumnVector[width];
    boolean plain = true;
    for (int c = 0; c < width; c++) {
      v[c] = (LongColumnVector) keys[c];
      plain &= v[c].noNulls && !v[c].isRepeating;
    }
    for (int k = 0; k < n; k++) {
      int r = sel[k];
      byte flags = 0;
      if (plain) {
        for (int c = 0; c < width; c++) {
          probe[c] = v[c].vector[r];
        }
      } else {
        for (int c = 0; c < width; c++) {
          LongColumnVector x = v[c];
          int i = x.isRepeating ? 0 : r;
          if (!x.noNulls && x.isNull[i]) {
            flags |= (byte) (1 << c);
            probe[c] = 0;
          } else {
            probe[c] = x.vector[i];
          }
        }
      }
      gid[k] = add(flags);
    }
  }

  @Override public int[] mergeFrom(GroupTable other, int[] src, int n) {
    LongTupleKeys o = (LongTupleKeys) other;
    int[] out = new int[n];
    for (int k = 0; k < n; k++) {
      int g = src[k];
      for (int c = 0; c < width; c++) {
        probe[c] = o.cols[c][g];
      }
      out[k] = add(o.nulls[g]);
    }
    return out;
  }

  @Override public int hash(int g) {
    long h = nulls[g];
    for (int c = 0; c < width; c++) {
      h = (h + cols[c][g]) * 0x9E3779B97F4A7C15L;
      h ^= h >>> 32;
    }
    h *= 0xff51afd7ed558ccdL;
    return (int) (h ^ (h >>> 29));
  }

  @Override public void reorder(int[] order) {
    nulls = Gather.bytes(nulls, order, size);
    for (int c = 0; c < width; c++) {
      cols[c] = Gather.longs(cols[c], order, size);
    }
    slots = null;
  }

  @Override public void reserve(int groups) {
    if (size == 0 && groups > nulls.length) {
      nulls = new byte[groups];
      for (int c = 0; c < width; c++) {
        cols[c] = new long[groups];
      }
      int n = slots.length;
      while (n < 2L * groups + 2) {
        n *= 2;
      }
      slots = new int[n];
      mask = n - 1;
    }
  }

  @Override public ColumnVector[] keys(int from, int count) {
    ColumnVector[] out = new ColumnVector[width];
    for (int c = 0; c < width; c++) {
      LongColumnVector v = (LongColumnVector) Columns.newVector(types.get(c), count);
      System.arraycopy(cols[c], from, v.vector, 0, count);
      for (int i = 0; i < count; i++) {
        if ((nulls[from + i] & (1 << c)) != 0) {
          v.noNulls = false;
          v.isNull[i] = true;
        }
      }
      out[c] = v;
    }
    return out;
  }

  @Override public long bytes() {
    return (8L * width + 1) * nulls.length + (slots == null ? 0 : 4L * slots.length);
  }
}
