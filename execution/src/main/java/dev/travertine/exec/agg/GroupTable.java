package dev.travertine.exec.agg;

import dev.travertine.exec.op.Columns;
import dev.travertine.mergetree.schema.DataType;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * The groups of a hash aggregation: maps each row's key to a dense group id. One long-backed key
 * uses a primitive map; anything else (several keys, strings, decimals, timestamps) a table of
 * serialized keys. Not thread-safe: each worker has its own, merged at the end.
 */
public abstract sealed class GroupTable {

  /** The table for grouping by columns of these types. */
  public static GroupTable create(List<DataType> keyTypes) {
    if (keyTypes.isEmpty()) {
      return new NoKeys();
    }
    if (keyTypes.size() == 1 && keyTypes.get(0).kind().isLongBacked()) {
      return new LongKeys(keyTypes.get(0));
    }
    if (keyTypes.size() == 1 && keyTypes.get(0).kind().isString()) {
      return new StringKeys(keyTypes.get(0));
    }
    if (keyTypes.size() == 2 && keyTypes.get(0).kind().isLongBacked() && keyTypes.get(1).kind().isLongBacked()) {
      return new TwoLongKeys(keyTypes);
    }
    return new ByteKeys(keyTypes);
  }

  /** Number of groups. */
  public abstract int size();

  /** Sets {@code gid[k]} to the group of row {@code sel[k]}, for k < n, adding new groups. */
  public abstract void groupIds(ColumnVector[] keys, int[] sel, int n, int[] gid);

  /** The ids in this table of {@code other}'s groups (other's group g is ours {@code map[g]}). */
  public abstract int[] mergeFrom(GroupTable other);

  /** Vectors of the key values of groups {@code from .. from + count)}, one per key column. */
  public abstract ColumnVector[] keys(int from, int count);

  /** Bytes held (for memory accounting). */
  public abstract long bytes();

  /** No GROUP BY: one group, also over no rows. */
  static final class NoKeys extends GroupTable {
    @Override public int size() {
      return 1;
    }

    @Override public void groupIds(ColumnVector[] keys, int[] sel, int n, int[] gid) {
      Arrays.fill(gid, 0, n, 0);
    }

    @Override public int[] mergeFrom(GroupTable other) {
      return new int[] {0};
    }

    @Override public ColumnVector[] keys(int from, int count) {
      return new ColumnVector[0];
    }

    @Override public long bytes() {
      return 0;
    }
  }

  /** One long-backed key column (integers, BOOLEAN, DATE). */
  static final class LongKeys extends GroupTable {
    private final DataType type;
    private final Long2IntOpenHashMap map = new Long2IntOpenHashMap();
    private long[] values = new long[256];
    private int size;
    private int nullGroup = -1;

    LongKeys(DataType type) {
      this.type = type;
      map.defaultReturnValue(-1);
    }

    @Override public int size() {
      return size;
    }

    private int add(long v) {
      int g = map.putIfAbsent(v, size);
      if (g >= 0) {
        return g;
      }
      return newGroup(v);
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

    @Override public int[] mergeFrom(GroupTable other) {
      LongKeys o = (LongKeys) other;
      int[] out = new int[o.size];
      for (int g = 0; g < o.size; g++) {
        out[g] = g == o.nullGroup ? nullGroup() : add(o.values[g]);
      }
      return out;
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
      return 8L * values.length + 12L * map.size();
    }
  }

  /** Any keys, serialized into byte strings. */
  static final class ByteKeys extends GroupTable {
    private final List<DataType> types;
    private final KeyCodec codec;
    private final ByteKeyTable table = new ByteKeyTable();

    ByteKeys(List<DataType> types) {
      this.types = types;
      this.codec = new KeyCodec(types);
    }

    @Override public int size() {
      return table.size();
    }

    @Override public void groupIds(ColumnVector[] keys, int[] sel, int n, int[] gid) {
      for (int k = 0; k < n; k++) {
        int r = sel[k];
        codec.reset();
        for (int c = 0; c < keys.length; c++) {
          codec.put(c, keys[c], r);
        }
        gid[k] = table.add(codec.buffer(), 0, codec.length());
      }
    }

    @Override public int[] mergeFrom(GroupTable other) {
      ByteKeyTable o = ((ByteKeys) other).table;
      int[] out = new int[o.size()];
      for (int g = 0; g < out.length; g++) {
        out[g] = table.add(o.arena(), o.start(g), o.length(g));
      }
      return out;
    }

    @Override public ColumnVector[] keys(int from, int count) {
      ColumnVector[] out = new ColumnVector[types.size()];
      for (int c = 0; c < out.length; c++) {
        out[c] = Columns.newVector(types.get(c), count);
      }
      for (int i = 0; i < count; i++) {
        codec.decode(table.arena(), table.start(from + i), 0, out, i);
      }
      return out;
    }

    @Override public long bytes() {
      return table.bytes();
    }
  }

  /** Two long-backed key columns: both values (and their NULL flags) in flat arrays, no serialization. */
  static final class TwoLongKeys extends GroupTable {
    private final List<DataType> types;
    private long[] k1 = new long[256];
    private long[] k2 = new long[256];
    private byte[] nulls = new byte[256];
    private int size;
    /** Slot -> group id + 1 (0 = empty). */
    private int[] slots = new int[512];
    private int mask = slots.length - 1;

    TwoLongKeys(List<DataType> types) {
      this.types = types;
    }

    @Override public int size() {
      return size;
    }

    private static int hash(long a, long b, int n) {
      long h = a * 0x9E3779B97F4A7C15L + b;
      h = (h ^ (h >>> 32) ^ n) * 0xff51afd7ed558ccdL;
      return (int) (h ^ (h >>> 29));
    }

    private int add(long a, long b, byte n) {
      int s = hash(a, b, n) & mask;
      while (true) {
        int g = slots[s] - 1;
        if (g < 0) {
          return insert(s, a, b, n);
        }
        if (k1[g] == a && k2[g] == b && nulls[g] == n) {
          return g;
        }
        s = (s + 1) & mask;
      }
    }

    private int insert(int slot, long a, long b, byte n) {
      int g = size++;
      if (g == k1.length) {
        k1 = Arrays.copyOf(k1, g * 2);
        k2 = Arrays.copyOf(k2, g * 2);
        nulls = Arrays.copyOf(nulls, g * 2);
      }
      k1[g] = a;
      k2[g] = b;
      nulls[g] = n;
      slots[slot] = g + 1;
      if (size * 2 > slots.length) {
        slots = new int[slots.length * 2];
        mask = slots.length - 1;
        for (int i = 0; i < size; i++) {
          int s = hash(k1[i], k2[i], nulls[i]) & mask;
          while (slots[s] != 0) {
            s = (s + 1) & mask;
          }
          slots[s] = i + 1;
        }
      }
      return g;
    }

    @Override public void groupIds(ColumnVector[] keys, int[] sel, int n, int[] gid) {
      LongColumnVector x = (LongColumnVector) keys[0];
      LongColumnVector y = (LongColumnVector) keys[1];
      boolean plain = x.noNulls && y.noNulls && !x.isRepeating && !y.isRepeating;
      if (plain) {
        long[] xv = x.vector;
        long[] yv = y.vector;
        for (int k = 0; k < n; k++) {
          int r = sel[k];
          gid[k] = add(xv[r], yv[r], (byte) 0);
        }
        return;
      }
      for (int k = 0; k < n; k++) {
        int r = sel[k];
        int i = x.isRepeating ? 0 : r;
        int j = y.isRepeating ? 0 : r;
        boolean xn = !x.noNulls && x.isNull[i];
        boolean yn = !y.noNulls && y.isNull[j];
        gid[k] = add(xn ? 0 : x.vector[i], yn ? 0 : y.vector[j], (byte) ((xn ? 1 : 0) | (yn ? 2 : 0)));
      }
    }

    @Override public int[] mergeFrom(GroupTable other) {
      TwoLongKeys o = (TwoLongKeys) other;
      int[] out = new int[o.size];
      for (int g = 0; g < o.size; g++) {
        out[g] = add(o.k1[g], o.k2[g], o.nulls[g]);
      }
      return out;
    }

    @Override public ColumnVector[] keys(int from, int count) {
      LongColumnVector a = (LongColumnVector) Columns.newVector(types.get(0), count);
      LongColumnVector b = (LongColumnVector) Columns.newVector(types.get(1), count);
      System.arraycopy(k1, from, a.vector, 0, count);
      System.arraycopy(k2, from, b.vector, 0, count);
      for (int i = 0; i < count; i++) {
        byte f = nulls[from + i];
        if ((f & 1) != 0) {
          a.noNulls = false;
          a.isNull[i] = true;
        }
        if ((f & 2) != 0) {
          b.noNulls = false;
          b.isNull[i] = true;
        }
      }
      return new ColumnVector[] {a, b};
    }

    @Override public long bytes() {
      return 17L * k1.length + 4L * slots.length;
    }
  }

  /**
   * One string key: the bytes themselves are the table's keys (no serialization). ORC hands out
   * a dictionary-encoded column as references into one dictionary buffer, so equal values share
   * a start offset: a small direct-mapped cache from (buffer, start, length) to group skips the
   * hash table for them.
   */
  static final class StringKeys extends GroupTable {
    private static final int CACHE = 1 << 12;
    private final DataType type;
    private final ByteKeyTable table = new ByteKeyTable();
    private int[] groupOfId = new int[256];
    private int[] idOfGroup = new int[256];
    private int size;
    private int nullGroup = -1;
    private final byte[][] cacheBuf = new byte[CACHE][];
    private final int[] cacheStart = new int[CACHE];
    private final int[] cacheLen = new int[CACHE];
    private final int[] cacheGroup = new int[CACHE];

    StringKeys(DataType type) {
      this.type = type;
    }

    @Override public int size() {
      return size;
    }

    private int newGroup(int id) {
      if (size == idOfGroup.length) {
        idOfGroup = Arrays.copyOf(idOfGroup, size * 2);
      }
      idOfGroup[size] = id;
      return size++;
    }

    private int group(byte[] b, int st, int len) {
      int id = table.add(b, st, len);
      if (table.added()) {
        if (id >= groupOfId.length) {
          groupOfId = Arrays.copyOf(groupOfId, Math.max(groupOfId.length * 2, id + 1));
        }
        groupOfId[id] = newGroup(id);
      }
      return groupOfId[id];
    }

    private int nullGroup() {
      if (nullGroup < 0) {
        nullGroup = newGroup(-1);
      }
      return nullGroup;
    }

    @Override public void groupIds(ColumnVector[] keys, int[] sel, int n, int[] gid) {
      BytesColumnVector v = (BytesColumnVector) keys[0];
      byte[][] bufs = v.vector;
      int[] starts = v.start;
      int[] lens = v.length;
      for (int k = 0; k < n; k++) {
        int r = v.isRepeating ? 0 : sel[k];
        if (!v.noNulls && v.isNull[r]) {
          gid[k] = nullGroup();
          continue;
        }
        byte[] b = bufs[r];
        int st = starts[r];
        int len = lens[r];
        int c = (st * 0x9E3779B1 + len) >>> 20 & (CACHE - 1);
        if (cacheBuf[c] == b && cacheStart[c] == st && cacheLen[c] == len) {
          gid[k] = cacheGroup[c];
          continue;
        }
        int g = group(b, st, len);
        cacheBuf[c] = b;
        cacheStart[c] = st;
        cacheLen[c] = len;
        cacheGroup[c] = g;
        gid[k] = g;
      }
      // The batch's buffers may be reused or dropped: forget them.
      Arrays.fill(cacheBuf, null);
    }

    @Override public int[] mergeFrom(GroupTable other) {
      StringKeys o = (StringKeys) other;
      int[] out = new int[o.size];
      for (int g = 0; g < o.size; g++) {
        int id = o.idOfGroup[g];
        out[g] = id < 0 ? nullGroup() : group(o.table.arena(), o.table.start(id), o.table.length(id));
      }
      return out;
    }

    @Override public ColumnVector[] keys(int from, int count) {
      BytesColumnVector v = (BytesColumnVector) Columns.newVector(type, count);
      for (int i = 0; i < count; i++) {
        int id = idOfGroup[from + i];
        if (id < 0) {
          v.noNulls = false;
          v.isNull[i] = true;
          v.setVal(i, new byte[0], 0, 0);
        } else {
          v.setVal(i, table.arena(), table.start(id), table.length(id));
        }
      }
      return new ColumnVector[] {v};
    }

    @Override public long bytes() {
      return table.bytes() + 8L * idOfGroup.length;
    }
  }
}
