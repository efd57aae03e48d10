package dev.travertine.io.read;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.travertine.io.IoStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Remote object bytes kept in aligned segments (ClickHouse's filesystem cache): objects are
 * immutable, so a segment, once read, serves every later read of it. Keyed by the object's full
 * location and the segment number. Two tiers: memory (Caffeine, least recently used evicted
 * beyond a byte budget) and, optionally, a local directory with a size limit of its own — a
 * segment is written there when read and found there when memory no longer has it. The
 * directory is emptied when the cache is configured (it does not outlive the process).
 */
public final class SegmentCache {
  private static final Logger LOG = LoggerFactory.getLogger(SegmentCache.class);

  /** Segment size: reads are rounded out to these boundaries when the cache is on. */
  public static final int SEGMENT = 1 << 20;

  private static volatile SegmentCache shared = new SegmentCache(512L << 20, null, 0);

  /** The process-wide cache. */
  public static SegmentCache shared() {
    return shared;
  }

  /**
   * Replaces the process-wide cache (server settings storage.cache_max_bytes, storage.cache_path,
   * storage.cache_disk_max_bytes; a null path: memory only).
   */
  public static synchronized void configure(long memoryBytes, Path diskPath, long diskBytes) {
    SegmentCache c = shared;
    if (c.memoryBytes != memoryBytes || !java.util.Objects.equals(c.diskPath, diskPath) || c.diskBytes != diskBytes) {
      shared = new SegmentCache(memoryBytes, diskPath, diskBytes);
    }
  }

  /** One segment of one object. */
  public record Key(String object, long segment) {}

  private final long memoryBytes;
  private final Path diskPath;
  private final long diskBytes;
  private final Cache<Key, byte[]> memory;
  private final Cache<Key, Long> disk; // the files on disk and their sizes; eviction deletes them

  public SegmentCache(long memoryBytes, Path diskPath, long diskBytes) {
    this.memoryBytes = memoryBytes;
    this.diskPath = diskPath;
    this.diskBytes = diskBytes;
    this.memory = Caffeine.newBuilder().maximumWeight(memoryBytes)
        .weigher((Key k, byte[] v) -> v.length + 64).executor(Runnable::run).build();
    if (diskPath != null) {
      try {
        if (Files.isDirectory(diskPath)) {
          try (var s = Files.walk(diskPath)) {
            s.sorted(java.util.Comparator.reverseOrder()).filter(p -> !p.equals(diskPath)).forEach(p -> p.toFile().delete());
          }
        }
        Files.createDirectories(diskPath);
      } catch (IOException e) {
        throw new IllegalArgumentException("Cannot use cache directory " + diskPath + ": " + e.getMessage(), e);
      }
      this.disk = Caffeine.newBuilder().maximumWeight(diskBytes).weigher((Key k, Long size) -> (int) Math.min(
          Integer.MAX_VALUE, size)).executor(Runnable::run).removalListener((Key k, Long size, RemovalCause cause) -> {
            if (k != null && cause != RemovalCause.REPLACED) {
              try {
                Files.deleteIfExists(file(k));
              } catch (IOException e) {
                LOG.warn("Cannot delete cache file of {}: {}", k, e.toString());
              }
            }
          }).build();
    } else {
      this.disk = null;
    }
  }

  private Path file(Key k) {
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(k.object().getBytes(StandardCharsets.UTF_8));
      String hex = HexFormat.of().formatHex(h, 0, 16);
      return diskPath.resolve(hex.substring(0, 2)).resolve(hex + "-" + k.segment());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A cached segment, or null (counted as a hit or a miss). */
  public byte[] get(Key key) {
    byte[] b = memory.getIfPresent(key);
    if (b == null && disk != null && disk.getIfPresent(key) != null) {
      try {
        b = Files.readAllBytes(file(key));
        memory.put(key, b);
        IoStats.DISK_CACHE_HITS.increment();
      } catch (IOException e) {
        disk.invalidate(key);
        b = null;
      }
    }
    (b == null ? IoStats.CACHE_MISSES : IoStats.CACHE_HITS).increment();
    return b;
  }

  public void put(Key key, byte[] data) {
    memory.put(key, data);
    if (disk != null && data.length <= diskBytes) {
      Path f = file(key);
      try {
        Files.createDirectories(f.getParent());
        Path tmp = f.resolveSibling(".tmp-" + UUID.randomUUID());
        Files.write(tmp, data);
        Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        disk.put(key, (long) data.length);
      } catch (IOException e) {
        LOG.warn("Cannot write cache file {}: {}", f, e.toString());
      }
    }
  }

  /** Bytes of segments on disk now. */
  public long diskBytesUsed() {
    return disk == null ? 0 : disk.asMap().values().stream().mapToLong(Long::longValue).sum();
  }

  /** Drops every segment in memory (tests: the next reads go to the disk tier). */
  public void clearMemory() {
    memory.invalidateAll();
  }
}
