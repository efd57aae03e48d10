package dev.travertine.formats;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Cuts a stream of delimited text into chunks of whole records, so that parsers on several threads
 * can take one each with no coordination. A record may hold line breaks inside CSV quotes: with
 * doubled-quote escaping (RFC 4180) a line break ends a record exactly when the quotes before it in
 * the chunk are even in number (a chunk starts at a record start), found by counting from the last
 * line break backwards; with another escape character, by one forward pass. TSV records end at
 * every line break.
 *
 * <p>Chunk buffers are recycled ({@link #recycle}); a record longer than {@code maxRecordBytes}
 * fails the load.
 */
final class RecordChunks {
  /** Whole records in {@code buf[0, end)}: the stream's chunk number {@code seq}, from byte {@code offset}. */
  record Chunk(byte[] buf, int end, int seq, long offset) {}

  private final InputStream in;
  private final TextFormat format;
  private final int chunkBytes;
  private final int maxRecordBytes;
  private final BlockingQueue<byte[]> free;
  private byte[] carry = new byte[0];
  private int carryLen;
  private boolean eof;
  private int seq;
  private long offset;

  RecordChunks(InputStream in, TextFormat format, int chunkBytes, int maxRecordBytes, int buffers) {
    this.in = in;
    this.format = format;
    this.chunkBytes = chunkBytes;
    this.maxRecordBytes = Math.max(maxRecordBytes, chunkBytes);
    this.free = new ArrayBlockingQueue<>(Math.max(1, buffers));
  }

  /** Gives a chunk's buffer back once its records are parsed. */
  void recycle(byte[] buf) {
    if (buf.length == chunkBytes) {
      free.offer(buf);
    }
  }

  /** The next chunk, or null at the end of the stream. */
  Chunk next() throws IOException {
    if (eof && carryLen == 0) {
      return null;
    }
    byte[] buf = free.poll();
    if (buf == null || buf.length < carryLen) {
      buf = new byte[Math.max(chunkBytes, carryLen)];
    }
    System.arraycopy(carry, 0, buf, 0, carryLen);
    int len = carryLen;
    int scanned = 0; // [0, scanned) holds no record end (only when a record is longer than a buffer)
    while (true) {
      while (!eof && len < buf.length) {
        int n = in.read(buf, len, buf.length - len);
        if (n < 0) {
          eof = true;
        } else {
          len += n;
        }
      }
      int cut = eof ? len : lastRecordEnd(buf, scanned, len);
      if (cut > 0) {
        carryLen = len - cut;
        if (carry.length < carryLen) {
          carry = new byte[Math.max(carryLen, 1 << 16)];
        }
        System.arraycopy(buf, cut, carry, 0, carryLen);
        Chunk c = new Chunk(buf, cut, seq++, offset);
        offset += cut;
        return c;
      }
      if (eof) {
        carryLen = 0;
        return null;
      }
      if (buf.length >= maxRecordBytes) {
        throw new IOException("byte " + offset + ": a record longer than " + maxRecordBytes + " bytes"
            + (format.kind() == TextFormat.Kind.CSV ? " (or a quote that is never closed)" : ""));
      }
      scanned = format.kind() != TextFormat.Kind.CSV ? len : 0;
      buf = Arrays.copyOf(buf, (int) Math.min(maxRecordBytes, 2L * buf.length));
    }
  }

  /** Position after the last record end in {@code buf[0, len)}, or 0 if none. */
  private int lastRecordEnd(byte[] buf, int from, int len) {
    if (format.kind() != TextFormat.Kind.CSV) { // TSV and JSON lines: no raw line break inside a record
      int p = lastIndexOf(buf, from, len, (byte) '\n');
      return p + 1;
    }
    byte q = format.quote();
    if (!format.doubledQuotes()) {
      boolean quoted = false;
      int last = -1;
      byte esc = format.escape();
      for (int i = 0; i < len; i++) {
        byte b = buf[i];
        if (quoted) {
          if (b == esc) {
            i++;
          } else if (b == q) {
            quoted = false;
          }
        } else if (b == q) {
          quoted = true;
        } else if (b == '\n') {
          last = i;
        }
      }
      return last + 1;
    }
    int p = lastIndexOf(buf, 0, len, (byte) '\n');
    if (p < 0) {
      return 0;
    }
    long quotes = count(buf, 0, p, q);
    while ((quotes & 1) != 0) {
      int prev = lastIndexOf(buf, 0, p, (byte) '\n');
      if (prev < 0) {
        return 0;
      }
      quotes -= count(buf, prev, p, q);
      p = prev;
    }
    return p + 1;
  }

  private static int lastIndexOf(byte[] b, int from, int to, byte x) {
    for (int i = to - 1; i >= from; i--) {
      if (b[i] == x) {
        return i;
      }
    }
    return -1;
  }

  static long count(byte[] b, int from, int to, byte x) {
    long n = 0;
    for (int i = from; i < to; i++) {
      n += b[i] == x ? 1 : 0;
    }
    return n;
  }
}
