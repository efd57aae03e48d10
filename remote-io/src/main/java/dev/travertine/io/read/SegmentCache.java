package dev.travertine.io.read;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.travertine.io.IoStats;

/**
 * Remote object bytes kept in memory in aligned segments (ClickHouse's filesystem cache, in
 * memory): objects are immutable, so a segment, once read, serves every later read of it. Keyed by
 * the object's full location and the segment number; evicts least recently used segments
 * beyond a byte budget.
 */
public final class SegmentCache {
  /** Segment size: reads are rounded out to these boundaries when the cache is on. */
  public static final int SEGMENT = 1 << 20;

  private static volatile SegmentCache shared = new SegmentCache(512L << 20);

  /** The process-wide cache. */
  public static SegmentCache shared() {
    return shared;
  }

  /** Replaces the process-wide cache with one of {@code maxBytes} (server setting storage.cache_max_bytes). */
  public static synchronized void configure(long maxBytes) {
    if (shared.maxBytes != maxBytes) {
      shared = new SegmentCache(maxBytes);
    }
  }

  /** One segment of one object. */
  public record Key(String object, long segment) {}

  private final long maxBytes;
  private final Cache<Key, byte[]> cache;

  public SegmentCache(long maxBytes) {
    this.maxBytes = maxBytes;
    this.cache = Caffeine.newBuilder().maximumWeight(maxBytes)
        .weigher((Key k, byte[] v) -> v.length + 64).build();
  }

  /** A cached segment, or null (counted as a hit or a miss). */
  public byte[] get(Key key) {
    byte[] b = cache.getIfPresent(key);
    (b == null ? IoStats.CACHE_MISSES : IoStats.CACHE_HITS).increment();
    return b;
  }

  public void put(Key key, byte[] data) {
    cache.put(key, data);
  }

  /** Drops every segment (tests). */
  public void clear() {
    cache.invalidateAll();
  }
}
