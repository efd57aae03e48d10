package dev.travertine.exec.agg;

import dev.travertine.vector.DictionaryVector;
import dev.travertine.vector.StringDictionary;
import java.util.Arrays;

/**
 * The distinct strings of one key column, each with a dense id (0, 1, 2, … in order of first
 * appearance), in a {@link ByteKeyTable}. ORC hands out a dictionary-encoded column as references
 * into one dictionary buffer, so equal values share a start offset: a small direct-mapped cache
 * from (buffer, start, length) to id skips hashing and probing for them. The cache holds a
 * batch's buffers, which the scan may reuse: {@link #endBatch} forgets them. Not thread-safe.
 */
final class StringIds {
  private static final int CACHE = 1 << 12;
  private final ByteKeyTable table = new ByteKeyTable();
  private byte[][] cacheBuf = new byte[CACHE][];
  private int[] cacheStart = new int[CACHE];
  private int[] cacheLen = new int[CACHE];
  private int[] cacheId = new int[CACHE];
  private boolean added;

  /** The id of the string {@code b[st .. st + len)} of a batch's vector; {@link #added} tells whether it is new. */
  int id(byte[] b, int st, int len) {
    int c = (st * 0x9E3779B1 + len) >>> 20 & (CACHE - 1);
    if (cacheBuf[c] == b && cacheStart[c] == st && cacheLen[c] == len) {
      added = false;
      return cacheId[c];
    }
    int id = table.add(b, st, len);
    added = table.added();
    cacheBuf[c] = b;
    cacheStart[c] = st;
    cacheLen[c] = len;
    cacheId[c] = id;
    return id;
  }

  /**
   * The id of entry {@code e} of dictionary vector {@code d}'s dictionary: looked up once per
   * entry and remembered by the dictionary's identity (for the last {@link #DICTIONARIES} seen).
   */
  int id(DictionaryVector d, int e) {
    int[] memo = memo(d);
    int m = memo[e];
    if (m != 0) {
      added = false;
      return m - 1;
    }
    return lookUp(d, e, memo);
  }

  /**
   * The id of entry {@code e} of {@code d}'s dictionary, not in {@code memo} (its {@link #memo})
   * yet: looked up, added when new ({@link #added}), and remembered. A caller that reads the memo
   * itself (its entries are id + 1, 0 when not looked up) calls this for the entries it lacks.
   */
  int lookUp(DictionaryVector d, int e, int[] memo) {
    int id = table.add(d.arena, d.start(e), d.length(e));
    added = table.added();
    memo[e] = id + 1;
    return id;
  }

  /** Dictionaries whose ids are remembered at once (a worker reads the tasks of several parts in turn). */
  private static final int DICTIONARIES = 4;
  private final StringDictionary[] memoOf = new StringDictionary[DICTIONARIES];
  /** Per remembered dictionary: its entries' ids + 1 (0 = not looked up yet). */
  private final int[][] memos = new int[DICTIONARIES][];
  private int nextMemo;

  /** The memo of {@code d}'s dictionary, at least {@code d.entries} long. */
  int[] memo(DictionaryVector d) {
    for (int i = 0; i < DICTIONARIES; i++) {
      if (memoOf[i] == d.dictionary) {
        if (memos[i].length < d.entries) {
          memos[i] = Arrays.copyOf(memos[i], Math.max(d.entries, memos[i].length * 2));
        }
        return memos[i];
      }
    }
    int i = nextMemo;
    nextMemo = (nextMemo + 1) % DICTIONARIES;
    memoOf[i] = d.dictionary;
    memos[i] = new int[Math.max(16, d.entries)];
    return memos[i];
  }

  /** The id of a string whose {@link ByteKeyTable#hash} is known (from another table: not cached). */
  int id(byte[] b, int st, int len, int hash) {
    int id = table.add(b, st, len, hash);
    added = table.added();
    return id;
  }

  /** Whether the last {@link #id} call added a new string. */
  boolean added() {
    return added;
  }

  /** Forgets the cached buffers (the batch's vectors may be reused or dropped). */
  void endBatch() {
    Arrays.fill(cacheBuf, null);
  }

  /** Drops the cache for good: the table is put aside, only read from now on. */
  void seal() {
    Arrays.fill(memoOf, null);
    Arrays.fill(memos, null);
    cacheBuf = null;
    cacheStart = cacheLen = cacheId = null;
  }

  int size() {
    return table.size();
  }

  /** The hash of string {@code id}'s bytes ({@link ByteKeyTable#hash}): alike for equal strings everywhere. */
  int hash(int id) {
    return table.hash(id);
  }

  byte[] arena() {
    return table.arena();
  }

  int start(int id) {
    return table.start(id);
  }

  int length(int id) {
    return table.length(id);
  }

  void reserve(int strings) {
    table.reserve(strings);
  }

  long bytes() {
    long b = table.bytes() + (cacheBuf == null ? 0 : 20L * CACHE);
    for (int[] m : memos) {
      b += m == null ? 0 : 4L * m.length;
    }
    return b;
  }
}
