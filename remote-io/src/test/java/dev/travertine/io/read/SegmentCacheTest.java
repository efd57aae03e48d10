package dev.travertine.io.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.io.IoStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SegmentCacheTest {
  @TempDir Path dir;

  private static byte[] segment(long seed) {
    byte[] b = new byte[SegmentCache.SEGMENT];
    new Random(seed).nextBytes(b);
    return b;
  }

  private long files() throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).count();
    }
  }

  @Test
  void segmentsLeavingMemoryAreServedFromDiskWithinItsLimit() throws Exception {
    SegmentCache c = new SegmentCache(2L << 20, dir, 3L << 20);
    for (int i = 0; i < 5; i++) {
      c.put(new SegmentCache.Key("s3://b/part.orc", i), segment(i));
    }
    assertTrue(c.diskBytesUsed() <= 3L << 20, "disk limit: " + c.diskBytesUsed());
    assertTrue(files() <= 3, "evicted segments' files are deleted");
    c.clearMemory();
    long fromDisk = IoStats.DISK_CACHE_HITS.sum();
    int served = 0;
    for (int i = 0; i < 5; i++) {
      byte[] b = c.get(new SegmentCache.Key("s3://b/part.orc", i));
      if (b != null) {
        assertArrayEquals(segment(i), b, "segment " + i + " from disk");
        served++;
      }
    }
    assertTrue(served >= 1 && served <= 3, "served " + served);
    assertEquals(fromDisk + served, IoStats.DISK_CACHE_HITS.sum());
    assertNull(c.get(new SegmentCache.Key("s3://b/other.orc", 4)), "keyed by object");
  }

  @Test
  void aNewCacheStartsWithAnEmptyDirectory() throws Exception {
    SegmentCache c = new SegmentCache(1L << 20, dir, 8L << 20);
    c.put(new SegmentCache.Key("x", 0), segment(1));
    assertEquals(1, files());
    new SegmentCache(1L << 20, dir, 8L << 20);
    assertEquals(0, files());
  }
}
