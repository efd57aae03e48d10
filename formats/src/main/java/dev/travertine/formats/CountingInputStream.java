package dev.travertine.formats;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Counts the bytes read through it, for progress (read from another thread: the count is volatile). */
public final class CountingInputStream extends FilterInputStream {
  private volatile long count;

  public CountingInputStream(InputStream in) {
    super(in);
  }

  /** Bytes read so far. */
  public long count() {
    return count;
  }

  @Override public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      count++;
    }
    return b;
  }

  @Override public int read(byte[] b, int off, int len) throws IOException {
    int n = super.read(b, off, len);
    if (n > 0) {
      count += n;
    }
    return n;
  }
}
