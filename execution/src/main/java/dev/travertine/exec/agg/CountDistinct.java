package dev.travertine.exec.agg;

import dev.travertine.vector.DataType;
import dev.travertine.vector.DictionaryVector;
import dev.travertine.vector.StringDictionary;
import dev.travertine.vector.Widener;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/** COUNT(DISTINCT x): the set of (group, value) pairs seen, and a count per group. */
final class CountDistinct extends AggState {
  private final KeyCodec codec;
  private final ByteKeyTable seen = new ByteKeyTable();
  long[] counts = new long[16];

  CountDistinct(DataType argType) {
    this.codec = new KeyCodec(List.of(argType));
  }

  @Override void reorder(int[] order, int n) {
    throw new UnsupportedOperationException("COUNT(DISTINCT) of this type is not merged by partition");
  }

  @Override void grow(int groups) {
    if (groups > counts.length) {
      counts = Arrays.copyOf(counts, cap(counts.length, groups));
    }
  }

  private final Widener widener = new Widener();
  /** The dictionary {@link #lastGroup} is for, and per entry of it the group + 1 its string was last added for (0: none). */
  private StringDictionary memoOf;
  private int[] lastGroup = new int[0];

  @Override boolean takesNarrow() {
    return true; // dictionary strings by id (below); other compact vectors widened
  }

  @Override void add(ColumnVector arg, int[] sel, int[] gid, int n) {
    if (arg instanceof DictionaryVector d) {
      addEntries(d, sel, gid, n);
      return;
    }
    arg = widener.wide(arg, sel, n);
    for (int k = 0; k < n; k++) {
      int r = sel[k];
      if (isNull(arg, r)) {
        continue;
      }
      codec.reset().putInt(gid[k]);
      codec.put(0, arg, r);
      addKey(gid[k]);
    }
  }

  /** Adds the (group, value) key the codec holds; counts it for group {@code g} when new. */
  private void addKey(int g) {
    seen.add(codec.buffer(), 0, codec.length());
    if (seen.added()) {
      counts[g]++;
    }
  }

  /**
   * Strings of a dictionary: a row whose entry was last added for the same group is passed over
   * (its pair is in the set already), so a string is hashed once per run of its group rather
   * than once per row; with no GROUP BY, once per entry.
   */
  private void addEntries(DictionaryVector d, int[] sel, int[] gid, int n) {
    if (d.dictionary != memoOf) {
      memoOf = d.dictionary;
      if (lastGroup.length < d.entries) {
        lastGroup = new int[Math.max(d.entries, 64)];
      } else {
        Arrays.fill(lastGroup, 0);
      }
    } else if (lastGroup.length < d.entries) {
      lastGroup = Arrays.copyOf(lastGroup, Math.max(d.entries, 2 * lastGroup.length)); // the dictionary grew
    }
    int[] ids = d.ids;
    int[] memo = lastGroup;
    boolean repeating = d.isRepeating;
    for (int k = 0; k < n; k++) {
      int r = repeating ? 0 : sel[k];
      if (!d.noNulls && d.isNull[r]) {
        continue;
      }
      int id = ids[r];
      int g = gid[k];
      if (memo[id] == g + 1) {
        continue;
      }
      memo[id] = g + 1;
      codec.reset().putInt(g);
      codec.putString(d.arena, d.offsets[id], d.offsets[id + 1] - d.offsets[id]);
      addKey(g);
    }
  }

  @Override void merge(AggState other, int[] src, int[] dst, int n) {
    ByteKeyTable o = ((CountDistinct) other).seen;
    int[] map = new int[((CountDistinct) other).counts.length];
    Arrays.fill(map, -1);
    for (int k = 0; k < n; k++) {
      map[src[k]] = dst[k];
    }
    byte[] a = o.arena();
    for (int i = 0; i < o.size(); i++) {
      int st = o.start(i);
      int len = o.length(i);
      int g = map[(a[st] & 0xff) | (a[st + 1] & 0xff) << 8 | (a[st + 2] & 0xff) << 16 | (a[st + 3] & 0xff) << 24];
      if (g < 0) {
        continue;
      }
      codec.reset().putInt(g);
      byte[] key = Arrays.copyOf(codec.buffer(), len);
      System.arraycopy(a, st + 4, key, 4, len - 4);
      seen.add(key, 0, len);
      if (seen.added()) {
        counts[g]++;
      }
    }
  }

  /** Merging a subset of another's groups walks all of its (group, value) pairs. */
  @Override boolean mergesSubsetsCheaply() {
    return false;
  }

  @Override ColumnVector result(int from, int count) {
    return counts(counts, from, count);
  }

  /** Partial form: each group's values, each as its length (u32) and its key bytes. */
  @Override List<DataType> partialTypes() {
    return List.of(BYTES_TYPE);
  }

  /** The (group, value) pairs by group, built for {@link #partial}: pairs of group g are byGroup[starts[g] ..]. */
  private int[] byGroup;
  private int[] starts;

  private void index() {
    if (byGroup != null && byGroup.length == seen.size()) {
      return;
    }
    byte[] a = seen.arena();
    int pairs = seen.size();
    int groups = counts.length;
    int[] group = new int[pairs];
    starts = new int[groups + 1];
    for (int i = 0; i < pairs; i++) {
      group[i] = (int) INTS.get(a, seen.start(i));
      starts[group[i] + 1]++;
    }
    for (int g = 0; g < groups; g++) {
      starts[g + 1] += starts[g];
    }
    int[] fill = Arrays.copyOf(starts, groups);
    byGroup = new int[pairs];
    for (int i = 0; i < pairs; i++) {
      byGroup[fill[group[i]]++] = i;
    }
  }

  @Override void partial(int from, int count, ColumnVector[] out, int at) {
    index();
    byte[] a = seen.arena();
    BytesColumnVector v = new BytesColumnVector(Math.max(1, count));
    for (int i = 0; i < count; i++) {
      int g = from + i;
      int size = 0;
      for (int p = starts[g]; p < starts[g + 1]; p++) {
        size += seen.length(byGroup[p]); // 4 bytes of group become 4 bytes of length
      }
      byte[] b = new byte[size];
      int o = 0;
      for (int p = starts[g]; p < starts[g + 1]; p++) {
        int id = byGroup[p];
        int len = seen.length(id) - 4;
        INTS.set(b, o, len);
        System.arraycopy(a, seen.start(id) + 4, b, o + 4, len);
        o += 4 + len;
      }
      v.setRef(i, b, 0, b.length);
    }
    out[at] = v;
  }

  @Override void mergePartial(ColumnVector[] in, int at, int[] sel, int[] gid, int n) {
    BytesColumnVector v = (BytesColumnVector) in[at];
    byte[] key = new byte[64];
    for (int k = 0; k < n; k++) {
      int r = row(v, sel[k]);
      if (!v.noNulls && v.isNull[r]) {
        continue;
      }
      byte[] b = v.vector[r];
      int p = v.start[r];
      int end = p + v.length[r];
      int g = gid[k];
      while (p < end) {
        int len = end - p >= 4 ? (int) INTS.get(b, p) : -1;
        if (len < 0 || len > end - p - 4) {
          throw new IllegalArgumentException("A COUNT(DISTINCT) partial state that does not add up");
        }
        if (key.length < 4 + len) {
          key = new byte[Math.max(2 * key.length, 4 + len)];
        }
        INTS.set(key, 0, g);
        System.arraycopy(b, p + 4, key, 4, len);
        seen.add(key, 0, 4 + len);
        if (seen.added()) {
          counts[g]++;
        }
        p += 4 + len;
      }
    }
    byGroup = null;
  }

  @Override long bytes() {
    return 8L * counts.length + seen.bytes();
  }
}
