package dev.travertine.mergetree.scan;

/**
 * How many tasks (part stripes) a scan keeps prefetched ahead of the ones it reads, like a
 * kernel's readahead window. It starts at one task, or at as many small tasks as it takes to have
 * {@code minBytes} (one full request, {@code max_read_buffer_size}) in flight. Each time the scan
 * reaches a prefetched task that has not arrived, the window grows to what the timings say keeps
 * the scan busy (the time that fetch took over the time the scan spends on a task, times the
 * threads reading), and at least doubles, up to {@code filesystem_prefetches_limit}. A scan that
 * decodes slower than it fetches (or stops early, as with LIMIT) keeps one task in flight and
 * fetches little more than it reads; a scan that waits for storage gets enough tasks' requests in
 * flight after its first wait. Thread-safe: the threads of one scan share it.
 */
final class PrefetchWindow {
  private final int max;
  private final int threads;
  private final long minBytes;
  private int size;
  private long consumeNanos;

  /**
   * A window of at most {@code max} tasks (0: the scan does not prefetch), shared by {@code threads}
   * readers, that holds at least {@code minBytes} while that takes fewer than {@code max} tasks.
   */
  PrefetchWindow(int max, int threads, long minBytes) {
    this.max = Math.max(0, max);
    this.threads = Math.max(1, threads);
    this.minBytes = minBytes;
    this.size = Math.min(1, this.max);
  }

  /** Tasks to keep prefetched now. */
  synchronized int size() {
    return size;
  }

  /** Whether a scan with {@code tasks} tasks of {@code bytes} prefetched and not yet read should prefetch one more. */
  synchronized boolean wantsMore(int tasks, long bytes) {
    return tasks < max && (tasks < size || bytes < minBytes);
  }

  /** A reader finished a task it spent {@code nanos} on once its data was there (decoding and using the rows). */
  synchronized void consumed(long nanos) {
    consumeNanos = nanos;
  }

  /**
   * A prefetched task is being read. {@code arrived}: its data was there before the scan asked;
   * otherwise {@code fetchNanos} is how long it took from its prefetch until it arrived.
   */
  synchronized void used(boolean arrived, long fetchNanos) {
    if (arrived || size >= max) {
      return;
    }
    long grown = 2L * size;
    if (consumeNanos > 0 && fetchNanos > 0) {
      grown = Math.max(grown, (threads * fetchNanos + consumeNanos - 1) / consumeNanos);
    }
    size = (int) Math.min(max, grown);
  }
}
