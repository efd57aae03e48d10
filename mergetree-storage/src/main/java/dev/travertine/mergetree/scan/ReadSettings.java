package dev.travertine.mergetree.scan;

import dev.travertine.mergetree.settings.SessionSettings;
import dev.travertine.mergetree.settings.Settings;

/**
 * How a query reads parts: whether the next stripes of remote parts are prefetched, how far ahead
 * the prefetch window may grow ({@code prefetchAhead}, 0 for no limit; see {@link PrefetchWindow})
 * and how much memory prefetches may hold, how byte ranges are coalesced into requests, whether
 * remote reads go through the segment cache ({@code cache}), whether decoded columns come from
 * and go to the engine's {@link DecodedColumnCache} ({@code uncompressedCache}), and whether the
 * consumer takes our vectors ({@code narrowIntegers}: integers at their width as {@link
 * dev.travertine.vector.IntegerVector}s, from the cache or the part reader, and strings of a
 * dictionary as dictionary vectors; otherwise it gets Hive's vectors).
 */
public record ReadSettings(boolean prefetch, int prefetchAhead, long prefetchMaxBytes, long coalesceDistance,
    int coalesceMaxBytes, int maxRequestBytes, boolean cache, boolean uncompressedCache, boolean narrowIntegers) {
  public static final ReadSettings DEFAULT =
      new ReadSettings(true, 200, 1L << 30, 1 << 20, 8 << 20, 8 << 20, false, false, false);

  public ReadSettings(boolean prefetch, int prefetchAhead, long prefetchMaxBytes, long coalesceDistance,
      int coalesceMaxBytes, int maxRequestBytes, boolean cache) {
    this(prefetch, prefetchAhead, prefetchMaxBytes, coalesceDistance, coalesceMaxBytes, maxRequestBytes, cache, false,
        false);
  }

  public static ReadSettings of(SessionSettings s) {
    return new ReadSettings(s.getBool(Settings.REMOTE_READ_PREFETCH), (int) s.getLong(Settings.PREFETCHES_LIMIT),
        s.getLong(Settings.PREFETCH_MAX_MEMORY),
        s.getLong(Settings.REMOTE_READ_MIN_BYTES_FOR_SEEK), (int) s.getLong(Settings.REMOTE_READ_MAX_COALESCED_BYTES),
        (int) s.getLong(Settings.MAX_READ_BUFFER_SIZE), s.getBool(Settings.ENABLE_FILESYSTEM_CACHE),
        s.getBool(Settings.USE_UNCOMPRESSED_CACHE), false);
  }

  /** The same with the decoded-column cache on or off. */
  public ReadSettings withUncompressedCache(boolean on) {
    return new ReadSettings(prefetch, prefetchAhead, prefetchMaxBytes, coalesceDistance, coalesceMaxBytes,
        maxRequestBytes, cache, on, narrowIntegers);
  }

  /** The same for a consumer that does, or does not, take {@link dev.travertine.vector.IntegerVector}s. */
  public ReadSettings withNarrowIntegers(boolean on) {
    return new ReadSettings(prefetch, prefetchAhead, prefetchMaxBytes, coalesceDistance, coalesceMaxBytes,
        maxRequestBytes, cache, uncompressedCache, on);
  }
}
