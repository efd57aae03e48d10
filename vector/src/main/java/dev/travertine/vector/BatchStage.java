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

  /**
   * Whether the stage keeps nothing of a batch once {@link #apply} has returned and hands on
   * nothing that shares its vectors (a partial aggregate, which copies what it keeps): the scan
   * may then decode its next batch into the same vectors instead of allocating new ones.
   */
  default boolean consumesBatches() {
    return false;
  }

  /** A stage that gives each batch to {@code sink}, which keeps nothing of it, and hands on nothing. */
  static BatchStage consuming(java.util.function.Consumer<Batch> sink) {
    return new BatchStage() {
      @Override public Batch apply(Batch batch) {
        sink.accept(batch);
        return null;
      }

      @Override public boolean consumesBatches() {
        return true;
      }
    };
  }

  /** Creates the stage of one worker thread. */
  interface Factory {
    BatchStage create();

    /**
     * Whether every stage this factory creates {@link BatchStage#consumesBatches consumes} its
     * batches: a scan whose batches all come back to it may decode into vectors it fills again
     * (narrow integers), where others would allocate them for each batch.
     */
    default boolean consumesBatches() {
      return false;
    }

    /** {@code f}, saying that every stage it creates consumes its batches. */
    static Factory ofConsuming(Factory f) {
      return new Factory() {
        @Override public BatchStage create() {
          return f.create();
        }

        @Override public boolean consumesBatches() {
          return true;
        }
      };
    }
  }
}
