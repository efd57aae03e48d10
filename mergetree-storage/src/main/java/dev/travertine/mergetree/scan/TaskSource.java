package dev.travertine.mergetree.scan;

import dev.travertine.vector.Batch;
import java.io.IOException;

/** A stream of batches from one read task of a {@link TableScanner} (a part, a stripe, the insert buffer). */
interface TaskSource extends AutoCloseable {
  Batch next() throws IOException;

  /**
   * The batch {@link #next} returned last is no longer used (its stage consumed it, see
   * {@link dev.travertine.vector.BatchStage#consumesBatches}): the task may decode its next batch
   * into the same vectors.
   */
  default void recycle() {}

  /**
   * Starts reading ahead (remote parts): the next tasks of a thread, while it decodes this one.
   * False when the prefetch memory budget is used up (the caller tries again later); true when
   * the task is being read ahead, has nothing to read ahead, or is not to be prefetched.
   */
  default boolean prefetch() {
    return true;
  }

  /** The bytes a prefetch of this task fetches (0 when it is not fetched ahead). */
  default long readBytes() {
    return 0;
  }

  @Override
  void close() throws IOException;
}
