package dev.travertine.vector;

import java.util.Arrays;

/**
 * The distinct strings of one column of a part task, each with a dense id (0, 1, 2, … in order of
 * first appearance): their bytes one after another in one arena, entry {@code i} at {@code
 * offsets[i] .. offsets[i + 1]}. {@link DictionaryVector}s hold ids into it.
 *
 * <p>One thread adds entries while it decodes a task; vectors made on the way keep the arrays as
 * they were ({@link #vector}), and entries are only ever appended, so a vector handed to another
 * thread reads bytes nobody writes. Consumers memoize what they compute per entry by the
 * dictionary's identity (the entry ids of a later vector may run past an earlier one's).
 */
public final class StringDictionary {
  /** ORC hands out a dictionary-encoded column as references into one buffer: (buffer, start, length) → id, direct-mapped. */
  private static final int CACHE = 1 << 10;
  private byte[] arena = new byte[256];
  private int used;
  private int[] offsets = new int[17];
  private int size;
  /** Open addressing over the entries: id + 1 (0 = empty). */
  private int[] slots = new int[32];
  private int[] hashes = new int[17];
  /** The lookup of {@link #add} (about 16 KiB): made at the first add, dropped by {@link #seal}. */
  private byte[][] cacheBuf;
  private int[] cacheStart;
  private int[] cacheLen;
  private int[] cacheId;

  /** Entries so far. */
  public int size() {
    return size;
  }

  /** Heap held: the arena, the offsets, the hash table and, until {@link #seal}, the lookup of {@link #add}. */
  public long bytes() {
    long lookup = cacheBuf == null ? 0 : 64L + CACHE * (4L + 12L); // references (compressed) and three ints
    return 48L + arena.length + 4L * offsets.length + 4L * slots.length + 4L * hashes.length + lookup;
  }

  /**
   * No string will be added any more (a stripe's dictionary, a cache entry's): drops the lookup
   * {@link #add} keeps. Ids and entries stay as they are; an {@link #add} after this makes it again.
   */
  public void seal() {
    cacheBuf = null;
    cacheStart = null;
    cacheLen = null;
    cacheId = null;
  }

  /** Bytes of the strings themselves. */
  public long stringBytes() {
    return used;
  }

  /** The id of {@code b[st .. st + len)}, added when new. */
  public int add(byte[] b, int st, int len) {
    if (cacheBuf == null) {
      cacheBuf = new byte[CACHE][];
      cacheStart = new int[CACHE];
      cacheLen = new int[CACHE];
      cacheId = new int[CACHE];
    }
    int c = (st * 0x9E3779B1 + len) >>> 22 & (CACHE - 1);
    if (cacheBuf[c] == b && cacheStart[c] == st && cacheLen[c] == len) {
      return cacheId[c];
    }
    int h = hash(b, st, len);
    int mask = slots.length - 1;
    int s = h & mask;
    int id;
    while (true) {
      int e = slots[s];
      if (e == 0) {
        id = append(b, st, len, h);
        slots[s] = id + 1;
        if (size * 2 > slots.length) {
          rehash();
        }
        break;
      }
      if (hashes[e - 1] == h && Arrays.equals(arena, offsets[e - 1], offsets[e], b, st, st + len)) {
        id = e - 1;
        break;
      }
      s = (s + 1) & mask;
    }
    cacheBuf[c] = b;
    cacheStart[c] = st;
    cacheLen[c] = len;
    cacheId[c] = id;
    return id;
  }

  /** Forgets the buffers of the batch just encoded (the reader may reuse them). */
  public void endBatch() {
    if (cacheBuf != null) {
      Arrays.fill(cacheBuf, null);
    }
  }

  private int append(byte[] b, int st, int len, int h) {
    if (used + len > arena.length) {
      arena = Arrays.copyOf(arena, Math.max(arena.length * 2, used + len));
    }
    System.arraycopy(b, st, arena, used, len);
    used += len;
    if (size + 2 > offsets.length) {
      offsets = Arrays.copyOf(offsets, offsets.length * 2);
      hashes = Arrays.copyOf(hashes, hashes.length * 2);
    }
    hashes[size] = h;
    offsets[++size] = used;
    return size - 1;
  }

  private void rehash() {
    int[] s2 = new int[slots.length * 2];
    int mask = s2.length - 1;
    for (int id = 0; id < size; id++) {
      int s = hashes[id] & mask;
      while (s2[s] != 0) {
        s = (s + 1) & mask;
      }
      s2[s] = id + 1;
    }
    slots = s2;
  }

  private static int hash(byte[] b, int st, int len) {
    int h = 0x9747b28c ^ len;
    for (int i = st; i < st + len; i++) {
      h = (h ^ b[i]) * 0x01000193;
    }
    return h ^ (h >>> 15);
  }

  /**
   * A vector of {@code ids} (positions 0 .. n - 1; the first only when repeating) over this
   * dictionary as it is now, with the given null flags.
   */
  public DictionaryVector vector(int[] ids, int n, boolean noNulls, boolean[] isNull, boolean repeating) {
    return new DictionaryVector(this, arena, offsets, size, ids, n, noNulls, isNull, repeating);
  }
}
