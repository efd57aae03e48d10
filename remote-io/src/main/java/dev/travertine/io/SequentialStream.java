package dev.travertine.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * An object read front to back as a stream (text files for the table functions): blocks of
 * {@code blockBytes} by positional reads, the next block requested while the current one is read
 * ({@link RandomAccessInput#readAsync}), so remote latency overlaps parsing.
 */
public final class SequentialStream extends InputStream {
  private final RandomAccessInput in;
  private final long length;
  private final int blockBytes;
  private long nextPos;
  private CompletableFuture<byte[]> next;
  private byte[] block = new byte[0];
  private int pos;

  private SequentialStream(RandomAccessInput in, int blockBytes) throws IOException {
    this.in = in;
    this.length = in.length();
    this.blockBytes = blockBytes;
    request();
  }

  /** A stream over a whole object; closing it closes the input. */
  public static InputStream open(InputFile file, int blockBytes) throws IOException {
    return new SequentialStream(file.open(), blockBytes);
  }

  private void request() {
    if (nextPos >= length) {
      next = null;
      return;
    }
    int n = (int) Math.min(blockBytes, length - nextPos);
    next = in.readAsync(nextPos, n);
    nextPos += n;
  }

  private boolean fill() throws IOException {
    while (pos >= block.length) {
      if (next == null) {
        return false;
      }
      try {
        block = next.join();
      } catch (CompletionException e) {
        Throwable c = e.getCause();
        if (c instanceof UncheckedIOException u) {
          throw u.getCause();
        }
        throw new IOException(c);
      }
      pos = 0;
      request();
    }
    return true;
  }

  @Override public int read() throws IOException {
    return fill() ? block[pos++] & 0xff : -1;
  }

  @Override public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (!fill()) {
      return -1;
    }
    int n = Math.min(len, block.length - pos);
    System.arraycopy(block, pos, b, off, n);
    pos += n;
    return n;
  }

  @Override public void close() throws IOException {
    if (next != null) {
      next.cancel(false);
    }
    in.close();
  }
}
