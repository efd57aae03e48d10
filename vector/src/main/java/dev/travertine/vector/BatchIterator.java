package dev.travertine.vector;

import java.io.IOException;

/** A stream of batches; each is valid until the next call. Close it when done. */
public interface BatchIterator extends AutoCloseable {
  /** The next non-empty batch, or null at the end. */
  Batch next() throws IOException;

  @Override
  void close() throws IOException;

  /** {@code batches}, with {@code beforeClose} (null = nothing) run when it closes, before they close. */
  static BatchIterator of(BatchIterator batches, Runnable beforeClose) {
    if (beforeClose == null) {
      return batches;
    }
    return new BatchIterator() {
      @Override public Batch next() throws IOException {
        return batches.next();
      }

      @Override public void close() throws IOException {
        beforeClose.run();
        batches.close();
      }
    };
  }
}
