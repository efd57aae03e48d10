package dev.travertine.io;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;

/** A stateless positional reader over one object (Trino's {@code TrinoInput} shape). */
public interface RandomAccessInput extends Closeable {

  long length() throws IOException;

  /**
   * Reads exactly {@code length} bytes at {@code position}.
   *
   * @throws EOFException if the object ends first
   */
  void readFully(long position, byte[] buffer, int offset, int length) throws IOException;

  /**
   * Reads {@code length} bytes at {@code position} without blocking the caller: S3 issues the
   * request asynchronously; other backends read on the shared {@link IoPool}.
   */
  default java.util.concurrent.CompletableFuture<byte[]> readAsync(long position, int length) {
    return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      byte[] b = new byte[length];
      try {
        readFully(position, b, 0, length);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return b;
    }, IoPool.executor());
  }

  /** Validates a positional read request against the object's length. */
  static void checkRange(long position, int offset, int length, byte[] buffer, long fileLength)
      throws IOException {
    if (position < 0) {
      throw new IllegalArgumentException("Invalid position: " + position + " (must be >= 0)");
    }
    if (offset < 0 || length < 0 || offset + length > buffer.length) {
      throw new IndexOutOfBoundsException(
          "Invalid buffer range: offset " + offset + ", length " + length + ", buffer " + buffer.length);
    }
    if (position + length > fileLength) {
      throw new EOFException(
          "Read past end: position " + position + " + " + length + " > length " + fileLength);
    }
  }
}
