package dev.travertine.mergetree.scan;

/**
 * How many tasks (part stripes) a scan keeps prefetched ahead of the ones it reads, like a
 * kernel's readahead window: it starts at one and doubles each time a prefetched task had not
 * arrived when the scan needed it, up to {@code filesystem_prefetches_limit}. A scan that decodes
 * slower than it fetches (or stops early, as with LIMIT) keeps one task in flight; a scan that
 * waits for storage grows its window until the requests of enough tasks are in flight at once.
 * Thread-safe: the threads of one scan share it.
 */
final class PrefetchWindow {
  private final int max;
  private int size;

  /** A window of at most {@code max} tasks (0: the scan does not prefetch). */
  PrefetchWindow(int max) {
    this.max = Math.max(0, max);
    this.size = Math.min(1, this.max);
  }

  /** Tasks to keep prefetched now. */
  synchronized int size() {
    return size;
  }

  /** A prefetched task is being read; {@code arrived}: its data was there before the scan asked. */
  synchronized void used(boolean arrived) {
    if (!arrived && size < max) {
      size = (int) Math.min(max, 2L * size);
    }
  }
}
