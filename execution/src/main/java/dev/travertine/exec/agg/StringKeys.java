package dev.travertine.exec.agg;

import dev.travertine.exec.Columns;
import dev.travertine.mergetree.schema.DataType;
import java.util.Arrays;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * One string key: the bytes themselves are the table's keys (no serialization). ORC hands out
 * a dictionary-encoded column as references into one dictionary buffer, so equal values share
 * a start offset: a small direct-mapped cache from (buffer, start, length) to group skips the
 * hash table for them.
 */
final class StringKeys extends GroupTable {
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
