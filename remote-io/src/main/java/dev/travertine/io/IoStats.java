package dev.travertine.io;

import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Process-wide storage I/O counters (requests and bytes), kept by the FileIO implementations and
 * shown by the engine's event counters (system.events).
 */
public final class IoStats {
  private IoStats() {}

  public static final LongAdder READ_REQUESTS = new LongAdder();
  public static final LongAdder READ_BYTES = new LongAdder();
  public static final LongAdder WRITE_BYTES = new LongAdder();
  /** S3 request attempts beyond the first of each call (throttling, 5xx, resets, timeouts). */
  public static final LongAdder RETRIES = new LongAdder();
  /** Segments of remote objects found in (or missing from) the in-memory cache. */
  public static final LongAdder CACHE_HITS = new LongAdder();
  public static final LongAdder CACHE_MISSES = new LongAdder();
  /** Segments found in the local-disk tier of the cache (also counted as hits). */
  public static final LongAdder DISK_CACHE_HITS = new LongAdder();

  /** Current values by ClickHouse-like event name. */
  public static Map<String, Long> snapshot() {
    return Map.of("ReadRequests", READ_REQUESTS.sum(), "ReadBytes", READ_BYTES.sum(),
        "WriteBytes", WRITE_BYTES.sum(), "S3RequestRetries", RETRIES.sum(),
        "CachedReadBufferCacheHits", CACHE_HITS.sum(), "CachedReadBufferCacheMisses", CACHE_MISSES.sum(),
        "CachedReadBufferReadFromCacheFiles", DISK_CACHE_HITS.sum());
  }
}
