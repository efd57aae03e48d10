package dev.travertine.exec.driver;

/**
 * A unit of work a {@link Driver}'s worker runs: a part's stripe, a Parquet row group, a text
 * file, a block received from another node. It reads its batches and hands each to the worker's
 * {@link Sink}, which runs the worker's stage on it where it was decoded.
 */
@FunctionalInterface
public interface Morsel {
  /** Reads the morsel, each batch to {@code sink}; returns early once {@link Sink#stopped}. */
  void run(Sink sink) throws Exception;

  /** What a morsel hands its batches to: one per worker, used by that worker's thread alone. */
  interface Sink {
    /**
     * Runs the worker's stage on {@code batch} and queues what the stage hands on. Returns true
     * when nothing of {@code batch} is kept (its stage consumed it, see {@link
     * dev.travertine.vector.BatchStage#consumesBatches}): the morsel may decode its next batch
     * into the same vectors.
     */
    boolean push(dev.travertine.vector.Batch batch) throws java.io.IOException;

    /** Whether the driver stopped (closed, failed, or its limit reached): the morsel should return. */
    boolean stopped();

    /**
     * A resource this worker keeps from morsel to morsel (an open file whose next row group is
     * likely its next morsel): the one in {@code slot} when it was opened for {@code id}, else
     * the slot's old one closed and a new one from {@code open}. The driver closes what the slots
     * hold when the worker ends.
     */
    <T extends AutoCloseable> T keep(String slot, Object id, Opener<T> open) throws Exception;
  }

  /** Opens a resource for {@link Sink#keep}. */
  @FunctionalInterface
  interface Opener<T> {
    T open() throws Exception;
  }
}
