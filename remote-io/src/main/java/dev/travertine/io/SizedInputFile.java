package dev.travertine.io;

import java.io.IOException;

/**
 * An {@link InputFile} whose length is known up front (from metadata) or asked of the storage
 * once, on first use; {@link #open(long)} gets it.
 */
public abstract class SizedInputFile implements InputFile {
  private final String path;
  private volatile long length;

  protected SizedInputFile(String path, long knownLength) {
    this.path = path;
    this.length = knownLength;
  }

  /** Asks the storage for the object's length (a metadata request). */
  protected abstract long fetchLength() throws IOException;

  /** Opens a reader over an object of {@code length} bytes. */
  protected abstract RandomAccessInput open(long length) throws IOException;

  @Override
  public final String path() {
    return path;
  }

  @Override
  public final long length() throws IOException {
    if (length < 0) {
      length = fetchLength();
    }
    return length;
  }

  @Override
  public final RandomAccessInput open() throws IOException {
    return open(length());
  }
}
