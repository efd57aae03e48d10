package dev.travertine.vector;

/**
 * Work a scan's worker thread does on each batch it produced, before the batch leaves the thread:
 * the vectorized pipeline (filter, expressions, partial aggregation) runs where the batch was
 * decoded, so it scales with {@code max_threads}. A scan creates one stage per worker thread from
 * {@link ScanRequest#stages()}, so a stage needs no synchronisation of its own.
 */
public interface BatchStage {

  /**
   * Transforms one batch. The result is what the scan hands to its consumer (valid until the
   * consumer's next call, which may be on another thread); null or an empty batch hands nothing
   * (a stage that keeps state, such as a partial aggregate, returns null).
   */
  Batch apply(Batch batch);

  /** Creates the stage of one worker thread. */
  interface Factory {
    BatchStage create();
  }
}
