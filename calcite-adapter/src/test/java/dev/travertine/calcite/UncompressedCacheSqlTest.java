package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static dev.travertine.calcite.JdbcTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** use_uncompressed_cache and uncompressed_cache_size through JDBC: hits in system.events, no stale rows. */
class UncompressedCacheSqlTest {
  @TempDir Path dir;

  private static final String SUM = "SELECT sum(v), count(s), min(s) FROM t WHERE s <> 'x'";

  private static long event(Connection c, String name) throws SQLException {
    return Long.parseLong(one(c, "SELECT COALESCE(SUM(\"value\"), 0) FROM system.events WHERE event = '" + name
        + "'"));
  }

  private static long hits(Connection c) throws SQLException {
    return event(c, "UncompressedCacheHits");
  }

  private static long misses(Connection c) throws SQLException {
    return event(c, "UncompressedCacheMisses");
  }

  /** Four parts of 1000 rows (id, v = id * 3, s = 's' || id % 7), merges and mutations stopped. */
  private static Connection fourParts(String url) throws SQLException {
    Connection c = DriverManager.getConnection(url);
    exec(c, "CREATE TABLE t (id INTEGER NOT NULL, v BIGINT, s VARCHAR) ORDER BY id "
        + "SETTINGS min_insert_rows_for_direct_part = 1, index_granularity = 1000");
    exec(c, "SYSTEM STOP MERGES t");
    for (int p = 0; p < 4; p++) {
      exec(c, "INSERT INTO t SELECT CAST(number AS INTEGER) + " + (p * 1000) + ", (number + " + (p * 1000)
          + ") * 3, 's' || CAST(MOD(number, 7) AS VARCHAR) FROM TABLE(numbers(1000))");
    }
    return c;
  }

  @Test
  void settingDefaultsToOffAndIsPerSession() throws Exception {
    try (Connection a = DriverManager.getConnection("jdbc:travertine:" + dir);
        Connection b = DriverManager.getConnection("jdbc:travertine:" + dir)) {
      String q = "SELECT \"value\", \"default\", changed FROM system.settings WHERE name = 'use_uncompressed_cache'";
      assertEquals("0, 0, false", one(a, q));
      exec(a, "SET use_uncompressed_cache = 1");
      assertEquals("1, 0, true", one(a, q));
      assertEquals("0, 0, false", one(b, q));
    }
  }

  private static long metric(Connection c, String name) throws SQLException {
    return Long.parseLong(one(c, "SELECT \"value\" FROM system.metrics WHERE metric = '" + name + "'"));
  }

  /**
   * Integers narrower than BIGINT are kept at their width: 2 bytes a SMALLINT value, 4 an INTEGER,
   * where Hive's vectors take 8 and a null flag. Queries over them (the vectorized engine's narrow
   * loops, Calcite's operators, an ordered read) answer as without the cache.
   */
  @Test
  void narrowIntegersAreCachedAtTheirWidth() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:travertine:" + dir)) {
      exec(c, "CREATE TABLE n (id INTEGER NOT NULL, sm SMALLINT NOT NULL, b BOOLEAN) ORDER BY id "
          + "SETTINGS index_granularity = 8192");
      exec(c, "INSERT INTO n SELECT CAST(number AS INTEGER), CAST(MOD(number, 1000) - 500 AS SMALLINT), "
          + "CASE WHEN MOD(number, 5) = 0 THEN NULL ELSE MOD(number, 3) = 0 END FROM TABLE(numbers(100000))");
      exec(c, "OPTIMIZE TABLE n FINAL");
      String[] queries = {"SELECT count(*), sum(sm), avg(CAST(sm AS DOUBLE)), min(id), max(id) FROM n WHERE sm <> 0",
          "SELECT count(*) FROM n WHERE sm BETWEEN -10 AND 10 AND b", "SELECT b, count(*), sum(id) FROM n GROUP BY b ORDER BY b",
          "SELECT id, sm FROM n WHERE id > 99990 ORDER BY id", "SELECT sm, count(*) FROM n GROUP BY sm ORDER BY 2 DESC, 1 LIMIT 3"};
      String[] cold = new String[queries.length];
      for (int q = 0; q < queries.length; q++) {
        cold[q] = JdbcTestSupport.rows(c, queries[q]).toString();
      }
      assertEquals(0, metric(c, "UncompressedCacheBytes"));
      exec(c, "SET use_uncompressed_cache = 1");
      for (int round = 0; round < 2; round++) {
        for (int q = 0; q < queries.length; q++) {
          assertEquals(cold[q], JdbcTestSupport.rows(c, queries[q]).toString(), "round " + round + ": " + queries[q]);
        }
      }
      exec(c, "SET vectorized_execution = 0");
      for (int q = 0; q < queries.length; q++) {
        assertEquals(cold[q], JdbcTestSupport.rows(c, queries[q]).toString(), "Calcite's operators: " + queries[q]);
      }
      long bytes = metric(c, "UncompressedCacheBytes");
      assertEquals(3, metric(c, "UncompressedCacheCells"), "one part of one stripe, three columns");
      // id 4 + sm 2 + b 1 (and b's null flags 1) bytes a row, plus small per-batch headers
      assertTrue(bytes >= 100000L * 8 && bytes < 100000L * 9, "cached bytes: " + bytes);
    }
  }

  @Test
  void hotQueriesHitAndMutationsOrMergesNeverServeStaleRows() throws Exception {
    try (Connection c = fourParts("jdbc:travertine:" + dir)) {
      String cold = one(c, SUM);
      assertEquals(0, hits(c) + misses(c), "off by default");
      exec(c, "SET use_uncompressed_cache = 1");
      assertEquals(cold, one(c, SUM));
      assertEquals(0, hits(c));
      assertEquals(8, misses(c), "4 parts x (v, s)");
      assertEquals(cold, one(c, SUM));
      assertEquals(8, hits(c));
      exec(c, "SET vectorized_execution = 0");
      assertEquals(cold, one(c, SUM), "Calcite's row operators over the same scan");
      assertEquals(16, hits(c));
      exec(c, "RESET vectorized_execution");

      // A pending mutation: its parts neither use nor fill the cache, and the rows are the updated ones.
      assertEquals(10, update(c, "UPDATE t SET v = 0 WHERE id < 10"));
      assertEquals("1", one(c, "SELECT count(*) FROM system.mutations WHERE NOT is_done"));
      String updated = one(c, SUM);
      assertEquals(cold.replaceFirst("^\\d+", Long.toString(Long.parseLong(cold.split(", ")[0]) - 135)), updated);
      assertEquals(16, hits(c), "no part without pending mutations is left");
      assertEquals(8, misses(c));

      // Rewritten: part 0 is a new file (decoded again), the others keep theirs under a new version.
      exec(c, "SET mutations_sync = 1"); // merges stay stopped: this thread rewrites the parts
      update(c, "DELETE FROM t WHERE id = -1");
      assertEquals("0", one(c, "SELECT count(*) FROM system.mutations WHERE NOT is_done"));
      assertEquals(updated, one(c, SUM));
      assertEquals(16 + 6, hits(c));
      assertEquals(8 + 2, misses(c));

      // A merge replaces all four parts by one.
      exec(c, "OPTIMIZE TABLE t FINAL");
      assertEquals("1", one(c, "SELECT count(*) FROM system.parts WHERE \"table\" = 't' AND active"));
      assertEquals(updated, one(c, SUM));
      assertEquals(12, misses(c));
      assertEquals(updated, one(c, SUM));
      assertEquals(24, hits(c));

      exec(c, "SET use_uncompressed_cache = 0");
      assertEquals(updated, one(c, SUM));
      assertEquals(24, hits(c), "off: no hits");
      assertEquals(12, misses(c));
    }
  }

  /** ClickHouse's SYSTEM DROP UNCOMPRESSED CACHE: the next query decodes again and answers the same. */
  @Test
  void systemDropUncompressedCacheEmptiesIt() throws Exception {
    try (Connection c = fourParts("jdbc:travertine:" + dir)) {
      exec(c, "SET use_uncompressed_cache = 1");
      String cold = one(c, SUM);
      assertEquals(8, misses(c), "4 parts x (v, s)");
      assertEquals(8, metric(c, "UncompressedCacheCells"));
      assertTrue(metric(c, "UncompressedCacheBytes") > 0);
      exec(c, "SYSTEM DROP UNCOMPRESSED CACHE");
      assertEquals(0, metric(c, "UncompressedCacheCells"));
      assertEquals(0, metric(c, "UncompressedCacheBytes"));
      assertEquals(cold, one(c, SUM));
      assertEquals(0, hits(c), "every column was decoded again");
      assertEquals(16, misses(c));
      assertEquals(cold, one(c, SUM));
      assertEquals(8, hits(c));
      exec(c, "system drop uncompressed cache");
      assertEquals(0, metric(c, "UncompressedCacheCells"));

      SQLException e = assertThrows(SQLException.class, () -> exec(c, "SYSTEM DROP MARK CACHE"));
      assertTrue(e.getMessage().contains("SYSTEM DROP UNCOMPRESSED CACHE"), e.getMessage());
      assertEquals(cold, one(c, SUM), "the session goes on");
    }
  }

  @Test
  void alteredColumnsAreReadAsTheyAreNow() throws Exception {
    try (Connection c = fourParts("jdbc:travertine:" + dir)) {
      exec(c, "SET use_uncompressed_cache = 1");
      String q = "SELECT count(*), sum(w) FROM t WHERE v = 300";
      exec(c, "ALTER TABLE t ADD COLUMN w BIGINT DEFAULT 7");
      assertEquals("1, 7", one(c, q));
      assertEquals("1, 7", one(c, q));
      long h = hits(c);
      assertTrue(h >= 2, "v and w of the part holding v = 300 (others are pruned): " + h);
      exec(c, "ALTER TABLE t DROP COLUMN w");
      exec(c, "ALTER TABLE t ADD COLUMN w BIGINT DEFAULT 8"); // a new column (storage name): the 7s never come back
      exec(c, "ALTER TABLE t MODIFY COLUMN v VARCHAR"); // the same files, read as strings now
      String q2 = "SELECT count(*), sum(w) FROM t WHERE v = '300'";
      assertEquals("1, 8", one(c, q2));
      assertEquals("1, 8", one(c, q2));
      assertEquals("4000, 32000", one(c, "SELECT count(v), sum(w) FROM t WHERE v <> 'x'"));
      exec(c, "SET use_uncompressed_cache = 0");
      assertEquals("1, 8", one(c, q2));
    }
  }

  @Test
  void sizeComesFromTheUrlAndZeroMeansNoCache() throws Exception {
    try (Connection c = fourParts("jdbc:travertine:" + dir + ";uncompressed_cache_size=0")) {
      exec(c, "SET use_uncompressed_cache = 1");
      String r = one(c, SUM);
      assertEquals(r, one(c, SUM));
      assertEquals(0, hits(c) + misses(c));
    }
    SQLException e = assertThrows(SQLException.class,
        () -> DriverManager.getConnection("jdbc:travertine:" + dir.resolve("other") + ";uncompressed_cache_size=1G"));
    assertTrue(e.getMessage().contains("Invalid uncompressed_cache_size: '1G'"), e.getMessage());
  }
}
