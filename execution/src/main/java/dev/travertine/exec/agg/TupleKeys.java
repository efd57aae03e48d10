package dev.travertine.exec.agg;

import dev.travertine.exec.Columns;
import dev.travertine.vector.DataType;
import dev.travertine.vector.DictionaryVector;
import dev.travertine.vector.StringDictionary;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * Two to eight key columns, each long-backed or a string: every group's key is a tuple of longs
 * in flat arrays, one per column, no serialization. A string column's long is the id of the
 * string in the table's own {@link StringIds} for that column, so comparing keys compares longs
 * and a repeated string (a dictionary-encoded column) costs no hashing of its bytes.
 *
 * <p>A batch is hashed column by column; the hash of a string is that of its bytes, not of its
 * id, so equal keys hash alike in every table (what the partitioned merge needs). A slot holds
 * the group's hash beside its id, so a probe compares hashes before it reads the key columns.
 */
final class TupleKeys extends GroupTable {
  private static final long SEED = 0x243F6A8885A308D3L;
  private final List<DataType> types;
  private final int width;
  /** Per column: the string ids of a string column, null for a long-backed one. */
  private final StringIds[] strings;
  private long[][] cols;
  /** Bit c set: column c of the group is NULL. */
  private byte[] nulls = new byte[256];
  private int[] hashes = new int[256];
  private int size;
  /** Slot: the group's hash in the high 32 bits, group + 1 in the low ones (0 = empty). */
  private long[] slots = new long[512];
  private int mask = slots.length - 1;
  // a batch's keys, column by column
  private long[][] probe;
  private long[] probeHash = new long[0];
  private byte[] probeNulls = new byte[0];

  TupleKeys(List<DataType> types) {
    this.types = List.copyOf(types);
    this.width = types.size();
    if (width < 2 || width > 8 || !supports(types)) {
      throw new IllegalArgumentException("TupleKeys groups by 2 to 8 integer, date or string columns, not " + types);
    }
    this.strings = new StringIds[width];
    for (int c = 0; c < width; c++) {
      if (types.get(c).kind().isString()) {
        strings[c] = new StringIds();
      }
    }
    this.cols = new long[width][256];
    this.probe = new long[width][0];
  }

  /** Whether every type is long-backed or a string. */
  static boolean supports(List<DataType> types) {
    return types.stream().allMatch(t -> t.kind().isLongBacked() || t.kind().isString());
  }

  @Override public int size() {
    return size;
  }

  @Override boolean takesDictionaries() {
    return true;
  }

  private static long step(long h, long v) {
    h = (h + v) * 0x9E3779B97F4A7C15L;
    return h ^ (h >>> 32);
  }

  private static int finish(long h, byte nullBits) {
    h = (h + nullBits) * 0xff51afd7ed558ccdL;
    return (int) (h ^ (h >>> 29));
  }

  private void ensureProbe(int n) {
    if (probeHash.length < n) {
      int cap = Math.max(n, 1024);
      for (int c = 0; c < width; c++) {
        probe[c] = new long[cap];
      }
      probeHash = new long[cap];
      probeNulls = new byte[cap];
    }
  }

  /** Pairs of two dictionaries' entries a {@link #pairs} memo covers at most (its ints: 256 KiB). */
  private static final int PAIRS_MAX = 1 << 16;
  private StringDictionary pairsOf0;
  private StringDictionary pairsOf1;
  private int pairsStride;
  /** By {@code entry0 * pairsStride + entry1}: group + 1 of that pair of strings (0 = not seen yet). */
  private int[] pairs;

  @Override public void groupIds(ColumnVector[] keys, int[] sel, int n, int[] gid) {
    if (width == 2 && keys[0] instanceof DictionaryVector d0 && keys[1] instanceof DictionaryVector d1
        && d0.noNulls && d1.noNulls && !d0.isRepeating && !d1.isRepeating
        && (long) d0.entries * Math.max(d1.entries, 16) <= PAIRS_MAX) {
      dictionaryPairs(d0, d1, sel, n, gid);
      return;
    }
    ensureProbe(n);
    long[] ph = probeHash;
    byte[] pn = probeNulls;
    Arrays.fill(ph, 0, n, SEED);
    Arrays.fill(pn, 0, n, (byte) 0);
    for (int c = 0; c < width; c++) {
      long[] p = probe[c];
      byte bit = (byte) (1 << c);
      if (strings[c] == null) {
        LongColumnVector x = (LongColumnVector) keys[c];
        long[] vec = x.vector;
        if (x.isRepeating) {
          boolean isNull = !x.noNulls && x.isNull[0];
          long v = isNull ? 0 : vec[0];
          for (int k = 0; k < n; k++) {
            p[k] = v;
            ph[k] = step(ph[k], v);
          }
          if (isNull) {
            markNull(pn, n, bit);
          }
        } else if (x.noNulls) {
          for (int k = 0; k < n; k++) {
            long v = vec[sel[k]];
            p[k] = v;
            ph[k] = step(ph[k], v);
          }
        } else {
          boolean[] isNull = x.isNull;
          for (int k = 0; k < n; k++) {
            int r = sel[k];
            long v = isNull[r] ? 0 : vec[r];
            if (isNull[r]) {
              pn[k] |= bit;
            }
            p[k] = v;
            ph[k] = step(ph[k], v);
          }
        }
      } else if (keys[c] instanceof DictionaryVector d) {
        internDictionary(strings[c], d, sel, n, p, ph, pn, bit);
      } else {
        internStrings(strings[c], (BytesColumnVector) keys[c], sel, n, p, ph, pn, bit);
      }
    }
    for (int k = 0; k < n; k++) {
      gid[k] = find(finish(ph[k], pn[k]), pn[k], k);
    }
  }

  /**
   * Two string keys, both dictionary vectors of few entries (TPC-H Q1's return flag and line
   * status): the group of a pair of entries is remembered in a flat array, so a row costs two id
   * loads and an array read; a pair not seen yet goes through the table as any key does.
   */
  private void dictionaryPairs(DictionaryVector d0, DictionaryVector d1, int[] sel, int n, int[] gid) {
    if (pairsOf0 != d0.dictionary || pairsOf1 != d1.dictionary || d1.entries > pairsStride
        || (long) d0.entries * pairsStride > pairs.length) {
      pairsOf0 = d0.dictionary;
      pairsOf1 = d1.dictionary;
      pairsStride = Math.max(16, Integer.highestOneBit(Math.max(1, d1.entries) - 1) << 1);
      pairs = new int[Math.max(PAIRS_MAX / pairsStride, d0.entries) * pairsStride];
    }
    int[] memo = pairs;
    int stride = pairsStride;
    int[] a = d0.ids;
    int[] b = d1.ids;
    for (int k = 0; k < n; k++) {
      int r = sel[k];
      int e = a[r] * stride + b[r];
      int g = memo[e] - 1;
      if (g < 0) {
        g = pairGroup(d0, d1, a[r], b[r]);
        memo[e] = g + 1;
      }
      gid[k] = g;
    }
  }

  /** The group of the strings of entries e0 and e1 of two dictionary vectors' dictionaries, added when new. */
  private int pairGroup(DictionaryVector d0, DictionaryVector d1, int e0, int e1) {
    ensureProbe(1);
    int id0 = strings[0].id(d0, e0);
    int id1 = strings[1].id(d1, e1);
    probe[0][0] = id0;
    probe[1][0] = id1;
    long h = step(step(SEED, strings[0].hash(id0)), strings[1].hash(id1));
    return find(finish(h, (byte) 0), (byte) 0, 0);
  }

  private static void markNull(byte[] pn, int n, byte bit) {
    for (int k = 0; k < n; k++) {
      pn[k] |= bit;
    }
  }

  private static void internStrings(StringIds ids, BytesColumnVector x, int[] sel, int n, long[] p, long[] ph,
      byte[] pn, byte bit) {
    byte[][] bufs = x.vector;
    int[] starts = x.start;
    int[] lens = x.length;
    for (int k = 0; k < n; k++) {
      int r = x.isRepeating ? 0 : sel[k];
      if (!x.noNulls && x.isNull[r]) {
        pn[k] |= bit;
        p[k] = 0;
        ph[k] = step(ph[k], NULL_HASH);
      } else {
        int id = ids.id(bufs[r], starts[r], lens[r]);
        p[k] = id;
        ph[k] = step(ph[k], ids.hash(id));
      }
    }
    ids.endBatch();
  }

  /** {@link #internStrings} of a dictionary vector: an entry's id and hash are found once per entry. */
  private static void internDictionary(StringIds ids, DictionaryVector x, int[] sel, int n, long[] p, long[] ph,
      byte[] pn, byte bit) {
    int[] dictIds = x.ids;
    int[] memo = ids.memo(x);
    for (int k = 0; k < n; k++) {
      int r = x.isRepeating ? 0 : sel[k];
      if (!x.noNulls && x.isNull[r]) {
        pn[k] |= bit;
        p[k] = 0;
        ph[k] = step(ph[k], NULL_HASH);
      } else {
        int e = dictIds[r];
        int m = memo[e];
        int id = m != 0 ? m - 1 : ids.lookUp(x, e, memo);
        p[k] = id;
        ph[k] = step(ph[k], ids.hash(id));
      }
    }
  }

  /** The group of probe row k, whose hash is h and NULL bits nb, added when new. */
  private int find(int h, byte nb, int k) {
    int s = h & mask;
    while (true) {
      long e = slots[s];
      if (e == 0) {
        return insert(s, h, nb, k);
      }
      if ((int) (e >>> 32) == h) {
        int g = (int) e - 1;
        if (nulls[g] == nb && same(g, k)) {
          return g;
        }
      }
      s = (s + 1) & mask;
    }
  }

  private boolean same(int g, int k) {
    for (int c = 0; c < width; c++) {
      if (cols[c][g] != probe[c][k]) {
        return false;
      }
    }
    return true;
  }

  private int insert(int slot, int h, byte nb, int k) {
    int g = size++;
    if (g == nulls.length) {
      capacity(g * 2);
    }
    for (int c = 0; c < width; c++) {
      cols[c][g] = probe[c][k];
    }
    nulls[g] = nb;
    hashes[g] = h;
    slots[slot] = entry(h, g);
    if (size * 2 > slots.length) {
      rehash(slots.length * 2);
    }
    return g;
  }

  private void capacity(int groups) {
    nulls = Arrays.copyOf(nulls, groups);
    hashes = Arrays.copyOf(hashes, groups);
    for (int c = 0; c < width; c++) {
      cols[c] = Arrays.copyOf(cols[c], groups);
    }
  }

  private static long entry(int h, int g) {
    return ((long) h << 32) | ((g + 1) & 0xffffffffL);
  }

  private void rehash(int capacity) {
    slots = new long[capacity];
    mask = capacity - 1;
    for (int g = 0; g < size; g++) {
      int s = hashes[g] & mask;
      while (slots[s] != 0) {
        s = (s + 1) & mask;
      }
      slots[s] = entry(hashes[g], g);
    }
  }

  @Override public int[] mergeFrom(GroupTable other, int[] src, int n) {
    TupleKeys o = (TupleKeys) other;
    int[] out = new int[n];
    int chunk = Math.min(n, 1024);
    ensureProbe(chunk);
    for (int from = 0; from < n; from += chunk) {
      int m = Math.min(chunk, n - from);
      for (int c = 0; c < width; c++) {
        long[] p = probe[c];
        long[] theirs = o.cols[c];
        StringIds ids = strings[c];
        if (ids == null) {
          for (int k = 0; k < m; k++) {
            p[k] = theirs[src[from + k]];
          }
        } else {
          StringIds t = o.strings[c];
          byte bit = (byte) (1 << c);
          for (int k = 0; k < m; k++) {
            int g = src[from + k];
            if ((o.nulls[g] & bit) != 0) {
              p[k] = 0;
            } else {
              int id = (int) theirs[g];
              p[k] = ids.id(t.arena(), t.start(id), t.length(id), t.hash(id));
            }
          }
        }
      }
      for (int k = 0; k < m; k++) {
        int g = src[from + k];
        out[from + k] = find(o.hashes[g], o.nulls[g], k);
      }
    }
    return out;
  }

  @Override public int hash(int g) {
    return hashes[g];
  }

  @Override public void reorder(int[] order) {
    pairs = null; // its groups are renumbered
    pairsOf0 = pairsOf1 = null;
    nulls = Gather.bytes(nulls, order, size);
    hashes = Gather.ints(hashes, order, size);
    for (int c = 0; c < width; c++) {
      cols[c] = Gather.longs(cols[c], order, size);
      if (strings[c] != null) {
        strings[c].seal();
      }
    }
    slots = null;
    probe = new long[width][0];
    probeHash = new long[0];
    probeNulls = new byte[0];
  }

  @Override public void reserve(int groups) {
    if (size == 0 && groups > nulls.length && groups < (1 << 29)) {
      capacity(groups);
      int n = slots.length;
      while (n < 2L * groups) { // the table grows when more than half full
        n *= 2;
      }
      rehash(n);
    }
  }

  @Override public ColumnVector[] keys(int from, int count) {
    ColumnVector[] out = new ColumnVector[width];
    for (int c = 0; c < width; c++) {
      ColumnVector v = Columns.newVector(types.get(c), count);
      long[] col = cols[c];
      StringIds ids = strings[c];
      for (int i = 0; i < count; i++) {
        if ((nulls[from + i] & (1 << c)) != 0) {
          v.noNulls = false;
          v.isNull[i] = true;
          if (ids != null) {
            ((BytesColumnVector) v).setVal(i, new byte[0], 0, 0);
          }
        } else if (ids == null) {
          ((LongColumnVector) v).vector[i] = col[from + i];
        } else {
          int id = (int) col[from + i];
          ((BytesColumnVector) v).setVal(i, ids.arena(), ids.start(id), ids.length(id));
        }
      }
      out[c] = v;
    }
    return out;
  }

  @Override public long bytes() {
    long b = (8L * width + 5) * nulls.length + (slots == null ? 0 : 8L * slots.length);
    for (StringIds ids : strings) {
      if (ids != null) {
        b += ids.bytes();
      }
    }
    return b;
  }
}
