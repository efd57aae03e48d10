package dev.travertine.exec.agg;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * An open-addressing hash table from byte-string keys to dense ids (0, 1, 2, … in insertion
 * order). Keys live back to back in one byte arena, so a table of a million keys is a handful of
 * arrays, not a million objects. Not thread-safe.
 */
public final class ByteKeyTable {
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private byte[] arena = new byte[1 << 12];
  private int arenaEnd;
  /** Key i occupies arena[starts[i] .. starts[i + 1]). */
  private int[] starts = new int[257];
  private int[] hashes = new int[256];
  private int size;
  /**
   * Slot: the key's hash in the high 32 bits, id + 1 in the low ones (0 = empty), so a probe
   * compares hashes without touching another array.
   */
  private long[] slots = new long[512];
  private int mask = slots.length - 1;

  public int size() {
    return size;
  }

  /** The id of the key {@code key[off .. off + len)}, adding it when new; {@link #added()} tells. */
  public int add(byte[] key, int off, int len) {
    return add(key, off, len, hash(key, off, len));
  }

  /** {@link #add} of a key whose {@link #hash} is known: {@code h}. */
  public int add(byte[] key, int off, int len, int h) {
    int s = h & mask;
    while (true) {
      long e = slots[s];
      if (e == 0) {
        lastAdded = true;
        return insert(s, h, key, off, len);
      }
      if ((int) (e >>> 32) == h) {
        int id = (int) e - 1;
        if (equalsKey(id, key, off, len)) {
          lastAdded = false;
          return id;
        }
      }
      s = (s + 1) & mask;
    }
  }

  private boolean lastAdded;

  /** Whether the last {@link #add} inserted a new key. */
  public boolean added() {
    return lastAdded;
  }

  private boolean equalsKey(int id, byte[] key, int off, int len) {
    int st = starts[id];
    return starts[id + 1] - st == len && Arrays.equals(arena, st, st + len, key, off, off + len);
  }

  private int insert(int slot, int h, byte[] key, int off, int len) {
    int id = size++;
    if (id >= hashes.length) {
      hashes = Arrays.copyOf(hashes, hashes.length * 2);
      starts = Arrays.copyOf(starts, hashes.length + 1);
    }
    if (arenaEnd + len > arena.length) {
      arena = Arrays.copyOf(arena, Math.max(arena.length * 2, arenaEnd + len));
    }
    System.arraycopy(key, off, arena, arenaEnd, len);
    starts[id] = arenaEnd;
    arenaEnd += len;
    starts[id + 1] = arenaEnd;
    hashes[id] = h;
    slots[slot] = entry(h, id);
    if (size * 2 > slots.length) {
      grow();
    }
    return id;
  }

  private static long entry(int h, int id) {
    return ((long) h << 32) | ((id + 1) & 0xffffffffL);
  }

  private void grow() {
    rehash(slots.length * 2);
  }

  private void rehash(int capacity) {
    slots = new long[capacity];
    mask = slots.length - 1;
    for (int id = 0; id < size; id++) {
      int s = hashes[id] & mask;
      while (slots[s] != 0) {
        s = (s + 1) & mask;
      }
      slots[s] = entry(hashes[id], id);
    }
  }

  /**
   * Puts key {@code order[k]} at id k, for every k < size, into a new arena in that order. The
   * table then only hands out its keys: adding to it is an error.
   */
  public void reorder(int[] order) {
    byte[] a = new byte[arenaEnd];
    int[] st = new int[size + 1];
    int[] hs = new int[size];
    int end = 0;
    for (int k = 0; k < size; k++) {
      int id = order[k];
      int from = starts[id];
      int len = starts[id + 1] - from;
      System.arraycopy(arena, from, a, end, len);
      st[k] = end;
      end += len;
      hs[k] = hashes[id];
    }
    st[size] = end;
    arena = a;
    starts = st;
    hashes = hs;
    slots = null;
  }

  /** The hash of key {@code id} (as {@link #hash} computes it). */
  public int hash(int id) {
    return hashes[id];
  }

  /** Makes room for {@code keys} keys in all, so that adding them does not rehash. */
  public void reserve(int keys) {
    if (keys * 2L > slots.length && keys < (1 << 29)) {
      int n = slots.length;
      while (n < keys * 2L + 2) {
        n *= 2;
      }
      if (hashes.length < keys) {
        hashes = Arrays.copyOf(hashes, keys);
        starts = Arrays.copyOf(starts, keys + 1);
      }
      rehash(n);
    }
  }

  /** The arena holding every key; key {@code id} starts at {@link #start}. */
  public byte[] arena() {
    return arena;
  }

  public int start(int id) {
    return starts[id];
  }

  public int length(int id) {
    return starts[id + 1] - starts[id];
  }

  /** Bytes this table holds (for memory accounting). */
  public long bytes() {
    return arena.length + 8L * starts.length + (slots == null ? 0 : 8L * slots.length);
  }

  static int hash(byte[] b, int off, int len) {
    long h = 0x9E3779B97F4A7C15L ^ len;
    int i = off;
    int end = off + len;
    for (; i + 8 <= end; i += 8) {
      h = (h ^ (long) LONGS.get(b, i)) * 0xff51afd7ed558ccdL;
      h ^= h >>> 29;
    }
    for (; i < end; i++) {
      h = (h ^ b[i]) * 0xc4ceb9fe1a85ec53L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return (int) h;
  }
}
