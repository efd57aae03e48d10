package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.explain;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static dev.travertine.calcite.JdbcTestSupport.rows;
import static dev.travertine.calcite.JdbcTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.io.FileIO;
import dev.travertine.io.FileIOs;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same SQL life of a table (create, insert, merge, query, mutate, alter, restart, drop) on
 * each storage: local disk, S3 (S3Proxy) and HDFS (MiniDFSCluster), run by the subclasses.
 */
abstract class StorageEndToEndTest {
  @TempDir Path dir;

  /** Where the table lives ({@code storage} setting). */
  protected abstract String location();

  /** Storage properties for the connection URL (s3.*, hadoop.*). */
  protected abstract Map<String, String> properties();

  private Connection connect() throws SQLException {
    StringBuilder url = new StringBuilder("jdbc:travertine:" + dir);
    properties().forEach((k, v) -> url.append(';').append(k).append('=').append(v));
    return DriverManager.getConnection(url.toString());
  }

  @Test
  void tableLifeOnThisStorage() throws Exception {
    String loc = location() + "/" + getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT)
        + System.nanoTime();
    try (Connection c = connect()) {
      exec(c, "CREATE TABLE r (id BIGINT NOT NULL, g INTEGER, s VARCHAR) ORDER BY id PARTITION BY g "
          + "SETTINGS storage = '" + loc + "', index_granularity = 1000, min_insert_rows_for_direct_part = 100");
      assertTrue(one(c, "SELECT settings FROM system.tables WHERE name = 'r'").contains(loc));
      for (int i = 0; i < 3; i++) {
        exec(c, "INSERT INTO r SELECT number + " + (i * 20000) + ", CAST(MOD(number, 2) AS INTEGER), 's' || "
            + "CAST(MOD(number, 7) AS VARCHAR) FROM TABLE(numbers(20000))");
      }
      exec(c, "INSERT INTO r VALUES (100000, 1, 'buffered')");
      assertEquals("60001", one(c, "SELECT count(*) FROM r"));
      exec(c, "OPTIMIZE TABLE r FINAL");
      assertEquals("2", one(c, "SELECT count(*) FROM system.parts WHERE \"table\" = 'r'"));
      assertEquals("60001, 1800070000", one(c, "SELECT count(*), sum(id) FROM r"));
      assertEquals("12345, s4", one(c, "SELECT id, s FROM r WHERE id = 12345"));
      assertTrue(explain(c, "SELECT s FROM r WHERE id = 12345").contains("granules=[2/61]"),
          explain(c, "SELECT s FROM r WHERE id = 12345"));
      assertEquals("1, 30001", one(c, "SELECT g, count(*) FROM r WHERE g = 1 GROUP BY g"));
      exec(c, "SET mutations_sync = 1");
      assertEquals(3 * 2858, update(c, "DELETE FROM r WHERE s = 's0'"));
      assertEquals(1, update(c, "UPDATE r SET s = 'updated' WHERE id = 100000"));
      exec(c, "ALTER TABLE r ADD COLUMN extra INTEGER DEFAULT 5");
      assertEquals("51427, 257135, 1", one(c, "SELECT count(*), sum(extra), "
          + "sum(CASE WHEN s = 'updated' THEN 1 ELSE 0 END) FROM r"));
    }
    try (Connection c = connect()) {
      assertEquals("51427, 257135", one(c, "SELECT count(*), sum(extra) FROM r"), "after a restart");
      exec(c, "DROP TABLE r");
    }
    try (FileIO io = FileIOs.open(loc, properties())) {
      assertFalse(io.list("tables").iterator().hasNext(), "DROP TABLE removed the table's objects");
    }
  }
}
