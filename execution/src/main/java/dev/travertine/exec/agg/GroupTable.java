package dev.travertine.exec.agg;

import dev.travertine.exec.op.Columns;
import dev.travertine.mergetree.schema.DataType;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import java.util.Arrays;
import java.util.List;
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
}
