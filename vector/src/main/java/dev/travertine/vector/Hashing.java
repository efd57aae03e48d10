package dev.travertine.vector;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * 64-bit hashes of values where every output bit depends on every input bit: what sketches,
 * Bloom-style key filters and hash tables that take their slot from the high bits need. (The
 * join and GROUP BY key tables keep their own byte hashes, tuned to their layouts.)
 */
public final class Hashing {
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private Hashing() {}

  /** MurmurHash3's 64-bit finalizer: each input bit flips each output bit with probability ½. */
  public static long mix64(long v) {
    v ^= v >>> 33;
    v *= 0xff51afd7ed558ccdL;
    v ^= v >>> 33;
    v *= 0xc4ceb9fe1a85ec53L;
    return v ^ (v >>> 33);
  }

  /** A hash of {@code n} bytes from {@code s}: FNV-1a over eight bytes at a time, then {@link #mix64}. */
  public static long bytes(byte[] b, int s, int n) {
    long h = 0xcbf29ce484222325L ^ n;
    int i = s;
    int end = s + n;
    for (; i + 8 <= end; i += 8) {
      h = (h ^ (long) LONGS.get(b, i)) * 0x100000001b3L;
      h ^= h >>> 29;
    }
    for (; i < end; i++) {
      h = (h ^ (b[i] & 0xff)) * 0x100000001b3L;
    }
    return mix64(h);
  }
}
