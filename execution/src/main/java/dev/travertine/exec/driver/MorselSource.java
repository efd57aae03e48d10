package dev.travertine.exec.driver;

import java.io.IOException;

/**
 * Where a {@link Driver}'s workers take their morsels from: a list fixed up front, tasks a
 * coordinator hands out on demand, blocks arriving from other nodes. Called by the workers
 * concurrently.
 */
public interface MorselSource extends AutoCloseable {
  /** The next morsel, or null when there are no more (it may wait for one). */
  Morsel next() throws IOException;

  /** Releases what the morsels not run hold; called once, after every worker ended. */
  @Override
  default void close() throws IOException {}

  /** The morsels of {@code morsels}, in order, each to one worker. */
  static MorselSource of(java.util.List<? extends Morsel> morsels) {
    java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
    return () -> {
      int k = next.getAndIncrement();
      return k < morsels.size() ? morsels.get(k) : null;
    };
  }
}
