package dev.travertine.exec.agg;

import dev.travertine.exec.Columns;
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
    if (keyTypes.size() >= 2 && keyTypes.size() <= 8 && keyTypes.stream().allMatch(t -> t.kind().isLongBacked())) {
      return new LongTupleKeys(keyTypes);
    }
    return new ByteKeys(keyTypes);
  }

  /** Number of groups. */
  public abstract int size();

  /** Sets {@code gid[k]} to the group of row {@code sel[k]}, for k < n, adding new groups. */
  public abstract void groupIds(ColumnVector[] keys, int[] sel, int n, int[] gid);

  /**
   * Adds the keys of {@code other}'s groups {@code src[k]}, k < n ({@code other} groups by the same
   * key types), and returns their ids in this table.
   */
  public abstract int[] mergeFrom(GroupTable other, int[] src, int n);

  /**
   * A hash of group g's key that depends on the key's value alone, so equal keys hash alike in
   * every table of the same key types (what partitions groups for a parallel merge). Its high
   * bits are as good as its low ones.
   */
  public abstract int hash(int g);

  /**
   * Puts group {@code order[k]} at k, for every group k: a table put aside is ordered by hash
   * partition so that a merge reads each partition in one run. The table is only merged from
   * afterwards ({@link #mergeFrom}, {@link #keys}, {@link #hash}); {@link #groupIds} is an error.
   */
  public abstract void reorder(int[] order);

  static int moved(int group, int[] order, int n) {
    for (int k = 0; group >= 0 && k < n; k++) {
      if (order[k] == group) {
        return k;
      }
    }
    return -1;
  }

  /** Makes room for {@code groups} groups in all, when the table is still empty (a hint). */
  public void reserve(int groups) {}

  static int mix(long x) {
    x ^= x >>> 33;
    x *= 0xff51afd7ed558ccdL;
    x ^= x >>> 33;
    x *= 0xc4ceb9fe1a85ec53L;
    return (int) (x ^ (x >>> 33));
  }

  /** The hash of a NULL key. */
  static final int NULL_HASH = 0x2545F491;

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

  /** One long-backed key column (integers, BOOLEAN, DATE). */
  static final class LongKeys extends GroupTable {
    private final DataType type;
    private Long2IntOpenHashMap map = new Long2IntOpenHashMap();
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
    }

    @Override public void reserve(int groups) {
      if (size == 0 && groups > values.length) {
        map = new Long2IntOpenHashMap(groups);
        map.defaultReturnValue(-1);
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
      return 8L * values.length + (map == null ? 0 : 12L * map.size());
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

    @Override public int[] mergeFrom(GroupTable other, int[] src, int n) {
      ByteKeyTable o = ((ByteKeys) other).table;
      int[] out = new int[n];
      for (int k = 0; k < n; k++) {
        int g = src[k];
        out[k] = table.add(o.arena(), o.start(g), o.length(g), o.hash(g));
      }
      return out;
    }

    @Override public int hash(int g) {
      return table.hash(g);
    }

    @Override public void reorder(int[] order) {
      table.reorder(order);
    }

    @Override public void reserve(int groups) {
      table.reserve(groups);
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

  /**
   * Two to eight long-backed key columns: the values (and a NULL bitmask) of each group in flat
   * arrays, one per key column, no serialization.
   */
  static final class LongTupleKeys extends GroupTable {
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
      return group(b, st, len, ByteKeyTable.hash(b, st, len));
    }

    private int group(byte[] b, int st, int len, int h) {
      int id = table.add(b, st, len, h);
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

    @Override public int[] mergeFrom(GroupTable other, int[] src, int n) {
      StringKeys o = (StringKeys) other;
      ByteKeyTable t = o.table;
      int[] out = new int[n];
      for (int k = 0; k < n; k++) {
        int id = o.idOfGroup[src[k]];
        out[k] = id < 0 ? nullGroup() : group(t.arena(), t.start(id), t.length(id), t.hash(id));
      }
      return out;
    }

    @Override public int hash(int g) {
      int id = idOfGroup[g];
      return id < 0 ? NULL_HASH : table.hash(id);
    }

    @Override public void reorder(int[] order) {
      idOfGroup = Gather.ints(idOfGroup, order, size);
      nullGroup = moved(nullGroup, order, size);
      groupOfId = null;
    }

    @Override public void reserve(int groups) {
      if (size == 0 && groups > idOfGroup.length) {
        table.reserve(groups);
        idOfGroup = new int[groups];
        groupOfId = new int[groups];
      }
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
      return table.bytes() + 4L * idOfGroup.length + (groupOfId == null ? 0 : 4L * groupOfId.length);
    }
  }
}
