package dev.travertine.mergetree.part;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Decodes one ORC integer stream in run-length encoding version 2 (the ORC specification's
 * "Integer Run Length Encoding, version 2": short repeat, direct, patched base, delta) from a whole
 * decompressed stream, values copied out a run at a time.
 *
 * <p>The stream's bytes must be followed by at least 8 readable bytes (the stream reader pads
 * them): bit-packed values are read as one big-endian long at their byte, shifted into place.
 */
final class RleV2Reader implements OrcColumnReaders.LongValues {
  private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  /** A run holds at most 512 values. */
  private static final int MAX_RUN = 512;

  private final byte[] buf;
  private int pos;
  private final int end;
  private final boolean signed;
  private final long[] literals = new long[MAX_RUN];
  private int used;
  private int count;

  /** Reads {@code buf[from .. to)}; {@code signed}: values are zigzag-encoded (DATA of integers), not (lengths, ids). */
  RleV2Reader(byte[] buf, int from, int to, boolean signed) {
    this.buf = buf;
    this.pos = from;
    this.end = to;
    this.signed = signed;
  }

  /** The next {@code n} values into {@code out[off .. off + n)}. */
  @Override
  public void read(long[] out, int off, int n) {
    while (n > 0) {
      if (used == count) {
        if (n >= MAX_RUN || runLength() <= n) { // the whole run is wanted: straight into place
          int k = decodeRun(out, off);
          off += k;
          n -= k;
          continue;
        }
        readRun();
      }
      int k = Math.min(n, count - used);
      System.arraycopy(literals, used, out, off, k);
      used += k;
      off += k;
      n -= k;
    }
  }

  /**
   * The next {@code n} values into {@code out[off .. off + n)}, each narrowed to an int (ids,
   * lengths, INTEGER and DATE values: the caller knows they fit).
   */
  @Override
  public void readInts(int[] out, int off, int n) {
    while (n > 0) {
      int k = nextValues(n);
      if (k < 0) {
        k = -k;
        java.util.Arrays.fill(out, off, off + k, (int) constant);
      } else {
        long[] lit = literals;
        int u = used;
        for (int i = 0; i < k; i++) {
          out[off + i] = (int) lit[u + i];
        }
        used += k;
      }
      off += k;
      n -= k;
    }
  }

  /** The next {@code n} values into {@code out[off .. off + n)}, each narrowed to a short (SMALLINT values). */
  @Override
  public void readShorts(short[] out, int off, int n) {
    while (n > 0) {
      int k = nextValues(n);
      if (k < 0) {
        k = -k;
        java.util.Arrays.fill(out, off, off + k, (short) constant);
      } else {
        long[] lit = literals;
        int u = used;
        for (int i = 0; i < k; i++) {
          out[off + i] = (short) lit[u + i];
        }
        used += k;
      }
      off += k;
      n -= k;
    }
  }

  /**
   * For a narrow read of at most {@code n} more values: {@code -k} when a run of {@code k} times
   * one value ({@link #constant}) was moved past whole, to be filled in place; else how many of
   * the current run's decoded values ({@link #literals} from {@link #used}, decoding the next run
   * first when this one is used up) the caller takes next, moving {@code used} past them itself.
   */
  private int nextValues(int n) {
    if (used == count) {
      int k = constantRun(n);
      if (k > 0) {
        return -k;
      }
      readRun();
    }
    return Math.min(n, count - used);
  }

  /** Not for this encoding: TINYINT and BOOLEAN columns are byte streams ({@link ByteRleReader}). */
  @Override
  public void readBytes(byte[] out, int off, int n) {
    throw new UnsupportedOperationException("an RLE v2 stream is read as shorts, ints or longs");
  }

  /** The value of the run {@link #constantRun} last moved past. */
  private long constant;

  /**
   * Moves past the run at {@code pos} when it is one value repeated (a short repeat, or a delta
   * run of delta 0) and holds at most {@code max} values, and returns how many it holds, its value
   * in {@link #constant}; 0 (nothing moved) otherwise. Lets narrow reads fill such a run straight
   * into place.
   */
  private int constantRun(int max) {
    if (pos >= end) {
      throw new IllegalStateException("ORC integer stream ends before its values");
    }
    int first = buf[pos] & 0xff;
    int kind = first >>> 6;
    if (kind == 1 || kind == 2 || kind == 3 && ((first >>> 1) & 0x1f) != 0) {
      return 0; // direct, patched base, or a delta run of several deltas: decoded
    }
    int values = runLength();
    if (values > max) {
      return 0;
    }
    if (kind == 0) {
      int width = ((first >>> 3) & 7) + 1;
      if (pos + 1 + width > end) {
        throw new IllegalStateException("ORC integer stream: a run reads past the stream's end");
      }
      long v = 0;
      for (int i = 1; i <= width; i++) {
        v = v << 8 | (buf[pos + i] & 0xff);
      }
      constant = zigzag(v);
      pos += 1 + width;
      return values;
    }
    int at = pos;
    pos += 2;
    long v = readVarLong();
    long d = readVarLong(); // zigzag-encoded: 0 is a delta of 0
    if (d != 0) {
      pos = at;
      return 0;
    }
    constant = zigzag(v);
    return values;
  }

  /** Passes over the next {@code n} values: runs that end within them by their headers alone, without decoding. */
  @Override
  public void skip(int n) {
    while (n > 0) {
      if (used == count) {
        int whole = skipRun(n);
        if (whole > 0) {
          n -= whole;
          continue;
        }
        readRun();
      }
      int k = Math.min(n, count - used);
      used += k;
      n -= k;
    }
  }

  /**
   * Moves past the run at {@code pos} when it holds at most {@code max} values, and returns how
   * many it holds; 0 (nothing moved) when it holds more.
   */
  private int skipRun(int max) {
    int values = runLength(); // checks that a run starts here
    if (values > max) {
      return 0;
    }
    int first = buf[pos] & 0xff;
    long bytes;
    switch (first >>> 6) {
      case 0 -> bytes = 1 + ((first >>> 3) & 7) + 1;
      case 1 -> bytes = 2 + (((long) values * decodeWidth((first >>> 1) & 0x1f) + 7) >>> 3);
      case 2 -> {
        int third = buf[pos + 2] & 0xff;
        int fourth = buf[pos + 3] & 0xff;
        int patchBits = closestFixedBits(decodeWidth(third & 0x1f) + ((fourth >>> 5) & 7) + 1);
        bytes = 4 + ((third >>> 5) & 7) + 1 + (((long) values * decodeWidth((first >>> 1) & 0x1f) + 7) >>> 3)
            + (((long) (fourth & 0x1f) * patchBits + 7) >>> 3);
      }
      default -> {
        // two varints (the first value, the delta base), then the other values' deltas bit-packed
        int encoded = (first >>> 1) & 0x1f;
        pos += 2;
        readVarLong();
        readVarLong();
        bytes = encoded == 0 ? 0 : (((long) (values - 2) * decodeWidth(encoded) + 7) >>> 3);
      }
    }
    if (pos + bytes > end) {
      throw new IllegalStateException("ORC integer stream: a run reads past the stream's end");
    }
    pos += (int) bytes;
    return values;
  }

  private void readRun() {
    count = decodeRun(literals, 0);
    used = 0;
  }

  /** Decodes the run at {@code pos} into {@code out[off ..)}; returns how many values it holds. */
  private int decodeRun(long[] out, int off) {
    if (pos >= end) {
      throw new IllegalStateException("ORC integer stream ends before its values");
    }
    int first = buf[pos] & 0xff;
    int n = switch (first >>> 6) {
      case 0 -> shortRepeat(first, out, off);
      case 1 -> direct(first, out, off);
      case 2 -> patchedBase(first, out, off);
      default -> delta(first, out, off);
    };
    if (pos > end) {
      throw new IllegalStateException("ORC integer stream: a run reads past the stream's end");
    }
    return n;
  }

  /** How many values the run at {@code pos} holds, from its header (nothing moved). */
  private int runLength() {
    if (pos >= end) {
      throw new IllegalStateException("ORC integer stream ends before its values");
    }
    int first = buf[pos] & 0xff;
    return switch (first >>> 6) {
      case 0 -> (first & 7) + 3;
      case 1, 2 -> ((first & 1) << 8 | (buf[pos + 1] & 0xff)) + 1;
      default -> {
        int rest = (first & 1) << 8 | (buf[pos + 1] & 0xff);
        yield ((first >>> 1) & 0x1f) == 0 ? rest + 1 : Math.max(rest, 1) + 1;
      }
    };
  }

  private long zigzag(long v) {
    return signed ? (v >>> 1) ^ -(v & 1) : v;
  }

  private int shortRepeat(int first, long[] out, int off) {
    int width = ((first >>> 3) & 7) + 1;
    int n = (first & 7) + 3;
    pos++;
    long v = 0;
    for (int i = 0; i < width; i++) {
      v = v << 8 | (buf[pos++] & 0xff);
    }
    v = zigzag(v);
    java.util.Arrays.fill(out, off, off + n, v);
    return n;
  }

  private int direct(int first, long[] out, int off) {
    int width = decodeWidth((first >>> 1) & 0x1f);
    int n = ((first & 1) << 8 | (buf[pos + 1] & 0xff)) + 1;
    pos += 2;
    unpack(out, off, n, width);
    if (signed) {
      for (int i = off; i < off + n; i++) {
        long v = out[i];
        out[i] = (v >>> 1) ^ -(v & 1);
      }
    }
    return n;
  }

  /** A patched run's patch list (at most 31 entries). */
  private final long[] patchList = new long[32];

  private int patchedBase(int first, long[] out, int off) {
    int width = decodeWidth((first >>> 1) & 0x1f);
    int n = ((first & 1) << 8 | (buf[pos + 1] & 0xff)) + 1;
    int third = buf[pos + 2] & 0xff;
    int baseBytes = ((third >>> 5) & 7) + 1;
    int patchWidth = decodeWidth(third & 0x1f);
    int fourth = buf[pos + 3] & 0xff;
    int gapWidth = ((fourth >>> 5) & 7) + 1;
    int patches = fourth & 0x1f;
    pos += 4;
    long base = 0;
    for (int i = 0; i < baseBytes; i++) {
      base = base << 8 | (buf[pos++] & 0xff);
    }
    long signBit = 1L << (baseBytes * 8 - 1);
    if ((base & signBit) != 0) {
      base = -(base & ~signBit);
    }
    unpack(out, off, n, width);
    if (patchWidth + gapWidth > 64) {
      throw new IllegalStateException("ORC integer stream: a patch of " + (patchWidth + gapWidth) + " bits");
    }
    long[] list = patchList;
    unpack(list, 0, patches, closestFixedBits(patchWidth + gapWidth));
    long patchMask = patchWidth == 64 ? -1L : (1L << patchWidth) - 1;
    int at = 0;
    for (int p = 0; p < patches; p++) {
      long gap = list[p] >>> patchWidth;
      long patch = list[p] & patchMask;
      at += (int) gap;
      if (patch == 0) {
        continue; // a gap over 255 is split into entries of gap 255 and no patch
      }
      if (at >= n) {
        throw new IllegalStateException("ORC integer stream: a patch past its run");
      }
      out[off + at] |= patch << width;
    }
    for (int i = off; i < off + n; i++) {
      out[i] += base;
    }
    return n;
  }

  private int delta(int first, long[] out, int off) {
    int encoded = (first >>> 1) & 0x1f;
    int width = encoded == 0 ? 0 : decodeWidth(encoded);
    int rest = (first & 1) << 8 | (buf[pos + 1] & 0xff); // values after the first
    pos += 2;
    long v = readVarLong();
    long start = signed ? (v >>> 1) ^ -(v & 1) : v;
    out[off] = start;
    if (width == 0) {
      long d = readVarLong();
      d = (d >>> 1) ^ -(d & 1);
      if (d == 0) {
        java.util.Arrays.fill(out, off + 1, off + rest + 1, start);
      } else {
        for (int i = 1; i <= rest; i++) {
          out[off + i] = start + i * d; // no value waits for the one before it
        }
      }
    } else {
      long d = readVarLong();
      long deltaBase = (d >>> 1) ^ -(d & 1);
      out[off + 1] = start + deltaBase;
      rest = Math.max(rest, 1); // the delta base is a second value whatever the header says (as ORC reads it)
      unpack(out, off + 2, rest - 1, width);
      long prev = out[off + 1];
      if (deltaBase < 0) {
        for (int i = off + 2; i <= off + rest; i++) {
          prev -= out[i];
          out[i] = prev;
        }
      } else {
        for (int i = off + 2; i <= off + rest; i++) {
          prev += out[i];
          out[i] = prev;
        }
      }
    }
    return rest + 1;
  }

  private long readVarLong() {
    long v = 0;
    int shift = 0;
    while (true) {
      if (pos >= end) {
        throw new IllegalStateException("ORC integer stream ends inside a varint");
      }
      int b = buf[pos++];
      v |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        return v;
      }
      shift += 7;
      if (shift > 63) {
        throw new IllegalStateException("ORC integer stream: a varint of more than 64 bits");
      }
    }
  }

  /** {@code n} values of {@code width} bits, packed big-endian from {@code pos}, into {@code out[off ..)}. */
  private void unpack(long[] out, int off, int n, int width) {
    if (n <= 0) {
      return;
    }
    long bits = (long) n * width;
    int bytes = (int) ((bits + 7) >>> 3);
    if (pos + bytes > end) {
      throw new IllegalStateException("ORC integer stream: " + n + " values of " + width + " bits past its end");
    }
    byte[] b = buf;
    if (width == 64) {
      int p = pos;
      for (int i = 0; i < n; i++, p += 8) {
        out[off + i] = (long) LONG_BE.get(b, p);
      }
    } else if (width == 8) {
      int p = pos;
      for (int i = 0; i < n; i++) {
        out[off + i] = b[p + i] & 0xffL;
      }
    } else if (width == 16) {
      int p = pos;
      for (int i = 0; i < n; i++, p += 2) {
        out[off + i] = (b[p] & 0xffL) << 8 | (b[p + 1] & 0xffL);
      }
    } else {
      // at most 56 bits plus 7 of offset: one big-endian long read at the value's first byte holds it
      int shiftRight = 64 - width;
      long bitPos = (long) pos << 3;
      for (int i = 0; i < n; i++, bitPos += width) {
        long word = (long) LONG_BE.get(b, (int) (bitPos >>> 3));
        out[off + i] = (word << (bitPos & 7)) >>> shiftRight;
      }
    }
    pos += bytes;
  }

  /** The bit width a 5-bit field of a run header stands for. */
  static int decodeWidth(int encoded) {
    if (encoded < 24) {
      return encoded + 1;
    }
    return switch (encoded) {
      case 24 -> 26;
      case 25 -> 28;
      case 26 -> 30;
      case 27 -> 32;
      case 28 -> 40;
      case 29 -> 48;
      case 30 -> 56;
      default -> 64;
    };
  }

  /** The smallest width of the fixed set (1 .. 24, 26, 28, 30, 32, 40, 48, 56, 64) that holds {@code n} bits. */
  static int closestFixedBits(int n) {
    if (n <= 0) {
      return 1;
    }
    if (n <= 24) {
      return n;
    }
    if (n <= 32) {
      return n + (n & 1); // 26, 28, 30, 32
    }
    return n <= 40 ? 40 : n <= 48 ? 48 : n <= 56 ? 56 : 64;
  }
}
