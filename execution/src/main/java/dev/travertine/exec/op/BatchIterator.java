package dev.travertine.exec.op;

import dev.travertine.mergetree.scan.ScanBatch;
import java.io.IOException;

/** A stream of batches; each is valid until the next call. Close it when done. */
public interface BatchIterator extends AutoCloseable {
  /** The next non-empty batch, or null at the end. */
  ScanBatch next() throws IOException;

  @Override
  void close() throws IOException;
}
