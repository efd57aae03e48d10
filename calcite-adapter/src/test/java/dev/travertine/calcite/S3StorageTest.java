package dev.travertine.calcite;

import dev.travertine.io.S3ProxyFixture;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The storage end-to-end suite on S3 (S3Proxy in this JVM). */
class S3StorageTest extends StorageEndToEndTest {
  private static S3ProxyFixture s3;

  @BeforeAll
  static void start() throws Exception {
    s3 = new S3ProxyFixture("tables-bucket");
  }

  @AfterAll
  static void stop() throws Exception {
    s3.close();
  }

  private long requests(java.sql.Connection c) throws java.sql.SQLException {
    return Long.parseLong(JdbcTestSupport.one(c, "SELECT \"value\" FROM system.events WHERE event = 'ReadRequests'"));
  }

  /** Trino's TestCacheFileSystemAccessOperations style: the exact requests of a point query, cold and warm. */
  @org.junit.jupiter.api.Test
  void pointQueryRequests() throws Exception {
    String url = "jdbc:travertine:" + dir + ";" + String.join(";", properties().entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue()).toList());
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url)) {
      JdbcTestSupport.exec(c, "CREATE TABLE p (id BIGINT NOT NULL, s VARCHAR) ORDER BY id "
          + "SETTINGS storage = 's3://tables-bucket/requests', index_granularity = 1000");
      JdbcTestSupport.exec(c, "INSERT INTO p SELECT number, 's' || CAST(number AS VARCHAR) FROM TABLE(numbers(200000))");
      JdbcTestSupport.exec(c, "OPTIMIZE TABLE p FINAL");
    }
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url)) { // reopened: nothing cached
      JdbcTestSupport.exec(c, "SYSTEM STOP MERGES p");
      String q = "SELECT s FROM p WHERE id = 123456";
      long r0 = requests(c);
      org.junit.jupiter.api.Assertions.assertEquals("s123456", JdbcTestSupport.one(c, q));
      long cold = requests(c) - r0;
      long r1 = requests(c);
      org.junit.jupiter.api.Assertions.assertEquals("s123456", JdbcTestSupport.one(c, q));
      long warm = requests(c) - r1;
      // Cold: the part's tail (16 KiB: footer, granule index), then per query ORC reads the stripe
      // footer (twice: planning and reading), the stripe's row index, and the data of the columns
      // read (their ranges coalesced into one request).
      org.junit.jupiter.api.Assertions.assertEquals(5, cold);
      // Warm: the tail comes from the part's cache.
      org.junit.jupiter.api.Assertions.assertEquals(4, warm);
      // With the segment cache: the first run reads 1 MiB segments, the second is served from memory.
      JdbcTestSupport.exec(c, "SET enable_filesystem_cache = 1");
      long r2 = requests(c);
      long hits = Long.parseLong(JdbcTestSupport.one(c,
          "SELECT \"value\" FROM system.events WHERE event = 'CachedReadBufferCacheHits'"));
      org.junit.jupiter.api.Assertions.assertEquals("s123456", JdbcTestSupport.one(c, q));
      org.junit.jupiter.api.Assertions.assertTrue(requests(c) - r2 >= 1);
      long r3 = requests(c);
      org.junit.jupiter.api.Assertions.assertEquals("s123456", JdbcTestSupport.one(c, q));
      org.junit.jupiter.api.Assertions.assertEquals(0, requests(c) - r3, "served from the cache");
      org.junit.jupiter.api.Assertions.assertTrue(Long.parseLong(JdbcTestSupport.one(c,
          "SELECT \"value\" FROM system.events WHERE event = 'CachedReadBufferCacheHits'")) > hits);
      // Smaller requests: the 829 KB data range goes out as 64 KiB pieces (13), in parallel.
      JdbcTestSupport.exec(c, "SET enable_filesystem_cache = 0");
      JdbcTestSupport.exec(c, "SET max_read_buffer_size = 65536");
      long r4 = requests(c);
      org.junit.jupiter.api.Assertions.assertEquals("s123456", JdbcTestSupport.one(c, q));
      org.junit.jupiter.api.Assertions.assertEquals(3 + 13, requests(c) - r4);
    }
  }

  private long event(java.sql.Connection c, String name) throws java.sql.SQLException {
    return Long.parseLong(JdbcTestSupport.one(c, "SELECT coalesce(max(\"value\"), 0) FROM system.events WHERE event = '"
        + name + "'"));
  }

  /**
   * With one thread, the next parts are opened and read while the current one is decoded, within the
   * memory budget (how far ahead the window grows: PrefetchWindowTest).
   */
  @org.junit.jupiter.api.Test
  void sequentialScansPrefetchTheNextPart() throws Exception {
    String url = "jdbc:travertine:" + dir + ";" + String.join(";", properties().entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue()).toList());
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url)) {
      JdbcTestSupport.exec(c, "CREATE TABLE f (id BIGINT NOT NULL, v INTEGER) ORDER BY id "
          + "SETTINGS storage = 's3://tables-bucket/prefetch', min_insert_rows_for_direct_part = 1");
      JdbcTestSupport.exec(c, "SYSTEM STOP MERGES f");
      for (int p = 0; p < 6; p++) {
        JdbcTestSupport.exec(c, "INSERT INTO f SELECT number + " + (p * 50000) + ", CAST(MOD(number, 10) AS INTEGER)"
            + " FROM TABLE(numbers(50000))");
      }
      JdbcTestSupport.exec(c, "SET max_threads = 1");
      long p0 = event(c, "RemoteFSPrefetches");
      long hit0 = event(c, "RemoteFSPrefetchedReads") + event(c, "RemoteFSUnprefetchedReads");
      org.junit.jupiter.api.Assertions.assertEquals("300000, 1350000", JdbcTestSupport.one(c,
          "SELECT count(v), sum(v) FROM f"));
      org.junit.jupiter.api.Assertions.assertEquals(5, event(c, "RemoteFSPrefetches") - p0, "parts 2..6");
      org.junit.jupiter.api.Assertions.assertEquals(5,
          event(c, "RemoteFSPrefetchedReads") + event(c, "RemoteFSUnprefetchedReads") - hit0);
      // Off: no prefetch, same answer.
      JdbcTestSupport.exec(c, "SET remote_filesystem_read_prefetch = 0");
      long p1 = event(c, "RemoteFSPrefetches");
      org.junit.jupiter.api.Assertions.assertEquals("300000, 1350000", JdbcTestSupport.one(c,
          "SELECT count(v), sum(v) FROM f"));
      org.junit.jupiter.api.Assertions.assertEquals(p1, event(c, "RemoteFSPrefetches"));
      // A memory budget smaller than a part: nothing is prefetched.
      JdbcTestSupport.exec(c, "SET remote_filesystem_read_prefetch = 1");
      JdbcTestSupport.exec(c, "SET filesystem_prefetch_max_memory_usage = 1000");
      long skipped = event(c, "RemoteFSPrefetchesSkippedForMemory");
      org.junit.jupiter.api.Assertions.assertEquals("300000", JdbcTestSupport.one(c, "SELECT count(v) FROM f"));
      org.junit.jupiter.api.Assertions.assertEquals(5, event(c, "RemoteFSPrefetchesSkippedForMemory") - skipped);
      JdbcTestSupport.exec(c, "SET filesystem_prefetch_max_memory_usage = 1073741824");

      // How far ahead a scan that stops early has fetched: parts of 20,000 strings (about 200 KB each).
      JdbcTestSupport.exec(c, "CREATE TABLE g (id BIGINT NOT NULL, s VARCHAR) ORDER BY id "
          + "SETTINGS storage = 's3://tables-bucket/prefetch-window', min_insert_rows_for_direct_part = 1");
      JdbcTestSupport.exec(c, "SYSTEM STOP MERGES g");
      for (int p = 0; p < 4; p++) {
        JdbcTestSupport.exec(c, "INSERT INTO g SELECT number + " + (p * 20000) + ", 'k' || CAST(MOD((number + "
            + (p * 20000) + ") * 2654435761, 1000000007) AS VARCHAR) FROM TABLE(numbers(20000))");
      }
      String first = "SELECT s FROM g LIMIT 1";
      String firstRow = JdbcTestSupport.one(c, "SELECT s FROM g WHERE id = 0");
      // {max_read_buffer_size, filesystem_prefetches_limit, parts prefetched}: the window starts with
      // one full request's worth of small parts, one part when a part is larger than that, and never
      // more than the limit.
      for (long[] t : new long[][] {{8 << 20, 200, 3}, {4096, 200, 1}, {8 << 20, 2, 2}, {8 << 20, 0, 3}}) {
        JdbcTestSupport.exec(c, "SET max_read_buffer_size = " + t[0]);
        JdbcTestSupport.exec(c, "SET filesystem_prefetches_limit = " + t[1]);
        long before = event(c, "RemoteFSPrefetches");
        long unused = event(c, "RemoteFSUnusedPrefetchedBytes");
        org.junit.jupiter.api.Assertions.assertEquals(firstRow, JdbcTestSupport.one(c, first));
        String what = "max_read_buffer_size = " + t[0] + ", filesystem_prefetches_limit = " + t[1];
        org.junit.jupiter.api.Assertions.assertEquals(t[2], event(c, "RemoteFSPrefetches") - before, what);
        org.junit.jupiter.api.Assertions.assertTrue(event(c, "RemoteFSUnusedPrefetchedBytes") > unused, what);
      }
      // A whole scan prefetches each part once, however far its window grew.
      JdbcTestSupport.exec(c, "SET max_read_buffer_size = 4096");
      long before = event(c, "RemoteFSPrefetches");
      org.junit.jupiter.api.Assertions.assertEquals("80000", JdbcTestSupport.one(c, "SELECT count(s) FROM g"));
      org.junit.jupiter.api.Assertions.assertEquals(3, event(c, "RemoteFSPrefetches") - before);
      // Parts on local disk are not prefetched, with one thread or two.
      JdbcTestSupport.exec(c, "CREATE TABLE l (id BIGINT NOT NULL) ORDER BY id SETTINGS storage = 'file:" + dir.resolve("l")
          + "', min_insert_rows_for_direct_part = 1");
      JdbcTestSupport.exec(c, "SYSTEM STOP MERGES l");
      for (int p = 0; p < 3; p++) {
        JdbcTestSupport.exec(c, "INSERT INTO l SELECT number FROM TABLE(numbers(1000))");
      }
      for (int threads : new int[] {1, 2}) {
        JdbcTestSupport.exec(c, "SET max_threads = " + threads);
        before = event(c, "RemoteFSPrefetches");
        org.junit.jupiter.api.Assertions.assertEquals("1498500", JdbcTestSupport.one(c, "SELECT sum(id) FROM l"));
        org.junit.jupiter.api.Assertions.assertEquals(before, event(c, "RemoteFSPrefetches"));
      }
    }
  }

  /** The same table life when a fifth of all S3 requests fail (503 or reset): retries keep it right. */
  @org.junit.jupiter.api.Test
  void sqlStaysRightWhenRequestsFail() throws Exception {
    java.util.Map<String, String> p = new java.util.TreeMap<>(properties());
    p.put("s3.test.failure_rate", "0.2");
    p.put("s3.retry_base_delay_ms", "5");
    p.put("s3.max_attempts", "10");
    String url = "jdbc:travertine:" + dir + ";" + String.join(";", p.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue()).toList());
    long injected = dev.travertine.io.s3.FaultInjectingHttpClient.INJECTED.get();
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url)) {
      JdbcTestSupport.exec(c, "CREATE TABLE x (id BIGINT NOT NULL, v INTEGER) ORDER BY id "
          + "SETTINGS storage = 's3://tables-bucket/faulty', min_insert_rows_for_direct_part = 1");
      for (int i = 0; i < 4; i++) {
        JdbcTestSupport.exec(c, "INSERT INTO x SELECT number + " + (i * 10000) + ", CAST(MOD(number, 10) AS INTEGER)"
            + " FROM TABLE(numbers(10000))");
      }
      JdbcTestSupport.exec(c, "OPTIMIZE TABLE x FINAL");
      JdbcTestSupport.exec(c, "SET mutations_sync = 1");
      org.junit.jupiter.api.Assertions.assertEquals(4000, JdbcTestSupport.update(c, "DELETE FROM x WHERE v = 3"));
      org.junit.jupiter.api.Assertions.assertEquals("36000, 168000, 719988000",
          JdbcTestSupport.one(c, "SELECT count(*), sum(v), sum(id) FROM x"));
      org.junit.jupiter.api.Assertions.assertEquals("12345, 5", JdbcTestSupport.one(c, "SELECT id, v FROM x WHERE id = 12345"));
    }
    org.junit.jupiter.api.Assertions.assertTrue(dev.travertine.io.s3.FaultInjectingHttpClient.INJECTED.get() > injected);
  }

  @Override
  protected String location() {
    return "s3://tables-bucket/warehouse";
  }

  /**
   * The decoded-column cache over remote parts: a hot query makes no request at all; a query that
   * also reads a column not cached yet fetches (and prefetches) only that one.
   */
  @org.junit.jupiter.api.Test
  void decodedColumnCacheServesRemotePartsWithoutRequests() throws Exception {
    String url = "jdbc:travertine:" + dir + ";" + String.join(";", properties().entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue()).toList());
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url)) {
      JdbcTestSupport.exec(c, "CREATE TABLE u (id BIGINT NOT NULL, v BIGINT, s VARCHAR) ORDER BY id SETTINGS "
          + "storage = 's3://tables-bucket/ucache', index_granularity = 1000, min_insert_rows_for_direct_part = 1");
      JdbcTestSupport.exec(c, "SYSTEM STOP MERGES u");
      for (int p = 0; p < 4; p++) {
        JdbcTestSupport.exec(c, "INSERT INTO u SELECT number + " + (p * 5000) + ", number * 2, 's' || "
            + "CAST(MOD(number, 11) AS VARCHAR) FROM TABLE(numbers(5000))");
      }
      JdbcTestSupport.exec(c, "SET max_threads = 1"); // one stream that prefetches the next parts
      String q = "SELECT sum(v) FROM u";
      String expected = JdbcTestSupport.one(c, q);
      JdbcTestSupport.exec(c, "SET use_uncompressed_cache = 1");
      org.junit.jupiter.api.Assertions.assertEquals(expected, JdbcTestSupport.one(c, q));
      long r0 = requests(c);
      long h0 = event(c, "UncompressedCacheHits");
      long p0 = event(c, "RemoteFSPrefetches");
      org.junit.jupiter.api.Assertions.assertEquals(expected, JdbcTestSupport.one(c, q));
      org.junit.jupiter.api.Assertions.assertEquals(0, requests(c) - r0, "hot: nothing fetched");
      org.junit.jupiter.api.Assertions.assertEquals(4, event(c, "UncompressedCacheHits") - h0);
      org.junit.jupiter.api.Assertions.assertEquals(p0, event(c, "RemoteFSPrefetches"), "nothing to prefetch");

      String q2 = "SELECT sum(v), min(s), count(s) FROM u WHERE s <> 'zz'";
      JdbcTestSupport.exec(c, "SET use_uncompressed_cache = 0");
      String expected2 = JdbcTestSupport.one(c, q2);
      JdbcTestSupport.exec(c, "SET use_uncompressed_cache = 1");
      long m1 = event(c, "UncompressedCacheMisses");
      long p1 = event(c, "RemoteFSPrefetches");
      org.junit.jupiter.api.Assertions.assertEquals(expected2, JdbcTestSupport.one(c, q2), "v cached, s decoded");
      org.junit.jupiter.api.Assertions.assertEquals(4, event(c, "UncompressedCacheMisses") - m1);
      org.junit.jupiter.api.Assertions.assertTrue(event(c, "RemoteFSPrefetches") > p1, "s is prefetched");
      long r2 = requests(c);
      org.junit.jupiter.api.Assertions.assertEquals(expected2, JdbcTestSupport.one(c, q2));
      org.junit.jupiter.api.Assertions.assertEquals(0, requests(c) - r2);
    }
  }

  @Override
  protected Map<String, String> properties() {
    return s3.properties();
  }
}
