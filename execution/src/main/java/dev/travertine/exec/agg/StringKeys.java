package dev.travertine.exec.agg;

import dev.travertine.exec.Columns;
import dev.travertine.vector.DataType;
import dev.travertine.vector.DictionaryVector;
import java.util.Arrays;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * One string key: the bytes themselves are the table's keys (no serialization), interned by a
 * {@link StringIds} (which skips the hash table for the repeats of a dictionary-encoded column).
 */
final class StringKeys extends GroupTable {
  private final DataType type;
  private final StringIds ids = new StringIds();
  private int[] groupOfId = new int[256];
  private int[] idOfGroup = new int[256];
  private int size;
  private int nullGroup = -1;

  StringKeys(DataType type) {
    this.type = type;
  }

  @Override public int size() {
    return size;
  }

  @Override boolean takesDictionaries() {
    return true;
  }

  private int newGroup(int id) {
    if (size == idOfGroup.length) {
      idOfGroup = Arrays.copyOf(idOfGroup, size * 2);
    }
    idOfGroup[size] = id;
    return size++;
  }

  /** The group of string {@code id}, just returned by {@link #ids}. */
  private int group(int id) {
    if (ids.added()) {
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
    if (keys[0] instanceof DictionaryVector d) {
      int[] entries = d.ids;
      int[] memo = ids.memo(d);
      for (int k = 0; k < n; k++) {
        int r = d.isRepeating ? 0 : sel[k];
        if (!d.noNulls && d.isNull[r]) {
          gid[k] = nullGroup();
        } else {
          int m = memo[entries[r]];
          gid[k] = m != 0 ? groupOfId[m - 1] : group(ids.lookUp(d, entries[r], memo));
        }
      }
      return;
    }
    BytesColumnVector v = (BytesColumnVector) keys[0];
    byte[][] bufs = v.vector;
    int[] starts = v.start;
    int[] lens = v.length;
    for (int k = 0; k < n; k++) {
      int r = v.isRepeating ? 0 : sel[k];
      if (!v.noNulls && v.isNull[r]) {
        gid[k] = nullGroup();
      } else {
        gid[k] = group(ids.id(bufs[r], starts[r], lens[r]));
      }
    }
    ids.endBatch();
  }

  @Override public int[] mergeFrom(GroupTable other, int[] src, int n) {
    StringKeys o = (StringKeys) other;
    StringIds t = o.ids;
    int[] out = new int[n];
    for (int k = 0; k < n; k++) {
      int id = o.idOfGroup[src[k]];
      out[k] = id < 0 ? nullGroup() : group(ids.id(t.arena(), t.start(id), t.length(id), t.hash(id)));
    }
    return out;
  }

  @Override public int hash(int g) {
    int id = idOfGroup[g];
    return id < 0 ? NULL_HASH : ids.hash(id);
  }

  @Override public void reorder(int[] order) {
    idOfGroup = Gather.ints(idOfGroup, order, size);
    nullGroup = moved(nullGroup, order, size);
    groupOfId = null;
    ids.seal();
  }

  @Override public void reserve(int groups) {
    if (size == 0 && groups > idOfGroup.length) {
      ids.reserve(groups);
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
        v.setVal(i, ids.arena(), ids.start(id), ids.length(id));
      }
    }
    return new ColumnVector[] {v};
  }

  @Override public long bytes() {
    return ids.bytes() + 4L * idOfGroup.length + (groupOfId == null ? 0 : 4L * groupOfId.length);
  }
}
