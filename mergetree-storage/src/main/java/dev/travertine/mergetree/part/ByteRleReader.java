package dev.travertine.mergetree.part;

/**
 * Decodes one ORC byte stream in byte run-length encoding (runs of 3 to 130 equal bytes, or up to
 * 128 literal bytes), from a whole decompressed stream: TINYINT values, and, eight to a byte with
 * the most significant bit first, booleans (BOOLEAN values and the PRESENT streams of nullable
 * columns).
 */
final class ByteRleReader {
  private final byte[] buf;
  private int pos;
  private final int end;
  /** The current run: {@code repeat} times {@code value}, or literals at {@code pos}. */
  private int left;
  private boolean repeat;
  private byte value;
  /** Booleans: the byte being read bit by bit, and how many of its bits are left. */
  private int bits;
  private int bitsLeft;

  ByteRleReader(byte[] buf, int from, int to) {
    this.buf = buf;
    this.pos = from;
    this.end = to;
  }

  byte next() {
    if (left == 0) {
      startRun();
    }
    left--;
    return repeat ? value : buf[pos++];
  }

  /** Reads the header of the next run (a repeat or literals). */
  private void startRun() {
    if (pos >= end) {
      throw new IllegalStateException("ORC byte stream ends before its values");
    }
    int control = buf[pos++];
    if (control >= 0) {
      left = control + 3;
      repeat = true;
      if (pos >= end) {
        throw new IllegalStateException("ORC byte stream ends inside a run");
      }
      value = buf[pos++];
    } else {
      left = -control;
      repeat = false;
      if (pos + left > end) {
        throw new IllegalStateException("ORC byte stream ends inside its literals");
      }
    }
  }

  /** Passes over the next {@code n} bytes. */
  void skip(int n) {
    while (n > 0) {
      if (left == 0) {
        startRun();
      }
      int k = Math.min(n, left);
      left -= k;
      n -= k;
      if (!repeat) {
        pos += k;
      }
    }
  }

  /** Passes over the next {@code n} booleans of a bit stream; returns how many of them are set. */
  int skipBits(int n) {
    int set = 0;
    int k = Math.min(n, bitsLeft);
    if (k > 0) {
      set += Integer.bitCount(bits >>> (bitsLeft - k) & ((1 << k) - 1));
      bitsLeft -= k;
      n -= k;
    }
    for (; n >= 8; n -= 8) {
      set += Integer.bitCount(next() & 0xff);
    }
    if (n > 0) {
      bits = next() & 0xff;
      bitsLeft = 8 - n;
      set += Integer.bitCount(bits >>> bitsLeft);
    }
    return set;
  }

  /** The next {@code n} bytes into {@code out[off ..)}, widened. */
  void read(long[] out, int off, int n) {
    for (int i = 0; i < n; i++) {
      out[off + i] = next();
    }
  }

  /** The next {@code n} bytes into {@code out[off ..)}. */
  void read(byte[] out, int off, int n) {
    while (n > 0) {
      if (left == 0) {
        startRun();
      }
      int k = Math.min(n, left);
      if (repeat) {
        java.util.Arrays.fill(out, off, off + k, value);
      } else {
        System.arraycopy(buf, pos, out, off, k);
        pos += k;
      }
      left -= k;
      off += k;
      n -= k;
    }
  }

  /** The next boolean of a bit stream. */
  boolean nextBit() {
    if (bitsLeft == 0) {
      bits = next() & 0xff;
      bitsLeft = 8;
    }
    bitsLeft--;
    return (bits >>> bitsLeft & 1) != 0;
  }

  /**
   * The next {@code n} booleans of a PRESENT stream as null flags into {@code isNull[0 .. n)}
   * (true where the bit is 0); returns how many are present.
   */
  int readNulls(boolean[] isNull, int n) {
    int present = 0;
    for (int i = 0; i < n; i++) {
      boolean p = nextBit();
      isNull[i] = !p;
      present += p ? 1 : 0;
    }
    return present;
  }

  /** The next {@code n} booleans of a BOOLEAN column's DATA stream as 1 / 0 into {@code out[off ..)}. */
  void readBits(byte[] out, int off, int n) {
    for (int i = 0; i < n; i++) {
      out[off + i] = (byte) (nextBit() ? 1 : 0);
    }
  }

  /** The next {@code n} booleans of a BOOLEAN column's DATA stream as 1 / 0 into {@code out[off ..)}. */
  void readBits(long[] out, int off, int n) {
    for (int i = 0; i < n; i++) {
      out[off + i] = nextBit() ? 1 : 0;
    }
  }
}
