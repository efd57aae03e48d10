package dev.travertine.exec.op;

import dev.travertine.vector.Batch;
import java.io.IOException;

/** A stream of batches; each is valid until the next call. Close it when done. */
public interface BatchIterator extends AutoCloseable {
  /** The next non-empty batch, or null at the end. */
  Batch next() throws IOException;

  @Override
  void close() throws IOException;

  /** The batches of a table scan; {@code beforeClose} (null = nothing) runs when it closes, before the scan does. */
  static BatchIterator of(dev.travertine.mergetree.scan.TableScanner scan, Runnable beforeClose) {
    return new BatchIterator() {
      @Override public Batch next() throws IOException {
        return scan.next();
      }

      @Override public void close() throws IOException {
        if (beforeClose != null) {
          beforeClose.run();
        }
        scan.close();
      }
    };
  }
}
