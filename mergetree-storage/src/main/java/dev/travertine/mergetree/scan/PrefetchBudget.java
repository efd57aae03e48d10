package dev.travertine.mergetree.scan;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes a scan's prefetches may hold: its query's budget ({@code
 * filesystem_prefetch_max_memory_usage}) inside one budget that all scans of the process share.
 * A prefetch that would pass either is not made (the task is read when its turn comes).
 * Thread-safe: the threads of one scan share it.
 */
final class PrefetchBudget {
  /** Bytes all scans' prefetches may hold together. */
  static final long PROCESS_LIMIT = 4L << 30;
  private static final AtomicLong PROCESS_HELD = new AtomicLong();

  private final long limit;
  private final AtomicLong held = new AtomicLong();

  PrefetchBudget(long limit) {
    this.limit = limit;
  }

  /** Takes {@code bytes} from both budgets, or nothing and false when either would be passed. */
  boolean reserve(long bytes) {
    if (held.addAndGet(bytes) > limit) {
      held.addAndGet(-bytes);
      return false;
    }
    if (PROCESS_HELD.addAndGet(bytes) > PROCESS_LIMIT) {
      PROCESS_HELD.addAndGet(-bytes);
      held.addAndGet(-bytes);
      return false;
    }
    return true;
  }

  /** Gives back bytes a {@link #reserve} took. */
  void release(long bytes) {
    held.addAndGet(-bytes);
    PROCESS_HELD.addAndGet(-bytes);
  }

  /** Bytes this scan holds now. */
  long held() {
    return held.get();
  }
}
