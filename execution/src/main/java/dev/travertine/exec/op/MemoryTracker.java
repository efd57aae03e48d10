package dev.travertine.exec.op;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory one query's operator states hold (hash tables, aggregate states, sort buffers),
 * against its {@code max_memory_usage} (0 = no limit). Each state has an {@link Account} that it
 * resizes as it grows, from whichever worker thread owns it; growing past the limit fails the
 * query with an error that names the limit.
 */
public final class MemoryTracker {
  private final long limit;
  private final AtomicLong used = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();

  public MemoryTracker(long limit) {
    this.limit = limit;
  }

  /** No limit. */
  public static MemoryTracker unlimited() {
    return new MemoryTracker(0);
  }

  /** The query's max_memory_usage (0 = no limit). */
  public long limit() {
    return limit;
  }

  public long used() {
    return used.get();
  }

  public long peak() {
    return peak.get();
  }

  /** A new account (starts at 0 bytes). */
  public Account account() {
    return new Account();
  }

  /** The bytes of one state. Not thread-safe: one owner. */
  public final class Account {
    private long held;

    /** The state now holds {@code bytes}; fails when the query would pass its limit. */
    public void resize(long bytes) {
      long d = bytes - held;
      if (d == 0) {
        return;
      }
      held = bytes;
      long now = used.addAndGet(d);
      peak.accumulateAndGet(now, Math::max);
      if (d > 0 && limit > 0 && now > limit) {
        throw new MemoryLimitExceededException(String.format(Locale.ROOT,
            "Memory limit (for query) exceeded: would use %s, maximum: %s (max_memory_usage = %d)",
            size(now), size(limit), limit));
      }
    }

    /** Gives the account's bytes back. */
    public void release() {
      resize(0);
    }
  }

  static String size(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = bytes;
    int u = 0;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.2f %s", v, units[u]);
  }

  /** A query's states outgrew max_memory_usage. */
  public static final class MemoryLimitExceededException extends RuntimeException {
    public MemoryLimitExceededException(String message) {
      super(message);
    }
  }
}
