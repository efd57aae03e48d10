package dev.travertine.exec.agg;

import dev.travertine.exec.Columns;
import dev.travertine.vector.DataType;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/** Any keys, serialized into byte strings. */
final class ByteKeys extends GroupTable {
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
