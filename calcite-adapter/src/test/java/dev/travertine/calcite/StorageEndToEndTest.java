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
    return connect(dir);
  }

  private Connection connect(Path data) throws SQLException {
    StringBuilder url = new StringBuilder("jdbc:travertine:" + data);
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

  /**
   * A second node attaches the table from this storage (ATTACH TABLE … FROM its data_path): it
   * sees the writer's inserts, merges, mutations and ALTER, refuses changes, and says so when the
   * writer dropped the table.
   */
  @Test
  void anotherNodeAttachesTheTableFromThisStorage() throws Exception {
    String loc = location() + "/attach" + System.nanoTime();
    try (Connection w = connect(dir.resolve("writer")); Connection r = connect(dir.resolve("reader"))) {
      exec(w, "CREATE TABLE ev (id BIGINT NOT NULL, s VARCHAR) ORDER BY id SETTINGS storage = '" + loc + "'");
      exec(w, "INSERT INTO ev SELECT number, 's' || CAST(MOD(number, 3) AS VARCHAR) FROM TABLE(numbers(3000))");
      exec(w, "SYSTEM FLUSH TABLE ev"); // rows in the writer's insert buffer are not on the storage yet
      String path = one(w, "SELECT data_path FROM system.tables WHERE name = 'ev'");
      assertTrue(path.contains("/tables/"), path);
      exec(r, "ATTACH TABLE ev FROM '" + path + "'");
      assertEquals("3000, 4498500", one(r, "SELECT count(*), sum(id) FROM ev"));
      exec(w, "INSERT INTO ev SELECT number + 3000, 's9' FROM TABLE(numbers(1000))");
      exec(w, "OPTIMIZE TABLE ev FINAL"); // flushes the buffer too
      exec(w, "SET mutations_sync = 1");
      exec(w, "DELETE FROM ev WHERE s = 's0'");
      exec(w, "ALTER TABLE ev ADD COLUMN extra INTEGER DEFAULT 7");
      assertEquals(one(w, "SELECT count(*), sum(id), sum(extra) FROM ev"),
          one(r, "SELECT count(*), sum(id), sum(extra) FROM ev"));
      SQLException refused = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
          () -> exec(r, "INSERT INTO ev (id) VALUES (-1)"));
      assertEquals("25006", refused.getSQLState(), refused.getMessage());
      exec(w, "DROP TABLE ev");
      SQLException gone = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
          () -> one(r, "SELECT count(*) FROM ev"));
      assertTrue(gone.getMessage().contains("dropped by the node that writes it"), gone.getMessage());
      exec(r, "DROP TABLE ev");
    }
  }

  /**
   * CHECK TABLE finds a flipped byte, a truncated file and a deleted file, moves each part aside
   * (system.detached_parts) and leaves the rest readable; a file lost while the server was down
   * is found when the table opens.
   */
  @Test
  void checkTableFindsBrokenPartsAndMovesThemAside() throws Exception {
    String loc = location() + "/check" + System.nanoTime();
    String[] files = new String[5];
    java.util.List<String> parts;
    try (Connection c = connect()) {
      exec(c, "CREATE TABLE ck (id BIGINT NOT NULL, s VARCHAR) ORDER BY id SETTINGS storage = '" + loc
          + "', index_granularity = 1000, min_insert_rows_for_direct_part = 1");
      exec(c, "SYSTEM STOP MERGES ck");
      for (int i = 0; i < 5; i++) {
        exec(c, "INSERT INTO ck SELECT number + " + (i * 10000) + ", 's' || CAST(number AS VARCHAR) "
            + "FROM TABLE(numbers(10000))");
      }
      assertEquals("5, 0", one(c, "SELECT count(*), sum(CASE WHEN is_passed THEN 0 ELSE 1 END) "
          + "FROM TABLE(check_table('ck'))"), "the table function behind CHECK TABLE");
      parts = rows(c, "SELECT name FROM system.parts WHERE \"table\" = 'ck' ORDER BY min_block");
      assertEquals(5, parts.size());
      try (FileIO io = FileIOs.open(loc, properties())) {
        for (dev.travertine.io.FileInfo f : io.list("tables")) {
          for (int i = 0; i < 5; i++) {
            if (f.path().endsWith("/parts/" + parts.get(i) + ".orc")) {
              files[i] = f.path();
            }
          }
        }
        byte[] data = io.readAll(files[0]);
        data[data.length / 2] ^= 0x5a;
        io.writeAtomic(files[0], data);
        byte[] whole = io.readAll(files[1]);
        io.writeAtomic(files[1], java.util.Arrays.copyOf(whole, whole.length - 100));
        assertTrue(io.delete(files[2]));
      }
      java.util.List<String> check = rows(c, "CHECK TABLE ck");
      assertEquals(5, check.size(), check.toString());
      String all = String.join("\n", check);
      assertTrue(all.contains("checksum mismatch"), all);
      assertTrue(all.contains("bytes, the part was written with"), all);
      assertTrue(all.contains("is missing"), all);
      assertEquals(3, check.stream().filter(r -> r.contains("moved aside")).count(), all);
      assertEquals(2, check.stream().filter(r -> r.contains(", true, ")).count(), all);
      // The rest stays readable: parts 4 and 5 (ids 30000..49999).
      assertEquals("20000, 799990000", one(c, "SELECT count(*), sum(id) FROM ck"));
      assertEquals("3", one(c, "SELECT count(*) FROM system.detached_parts WHERE \"table\" = 'ck' "
          + "AND reason = 'broken'"));
      assertEquals("broken_" + parts.get(2) + ", null", one(c, "SELECT name, path FROM system.detached_parts "
          + "WHERE \"table\" = 'ck' AND message LIKE '%missing%'"));
      assertEquals(java.util.List.of("parts/" + parts.get(3) + ".orc, true, null",
          "parts/" + parts.get(4) + ".orc, true, null"), rows(c, "CHECK TABLE ck"));
    }
    try (FileIO io = FileIOs.open(loc, properties())) {
      assertTrue(io.delete(files[4]), "lost while the server was down");
      long copies = 0;
      for (dev.travertine.io.FileInfo f : io.list("tables")) {
        if (f.path().contains("/detached/") && f.path().endsWith(".orc")) {
          copies++;
        }
      }
      assertEquals(2, copies, "the corrupt and the truncated file are kept in detached/");
    }
    try (Connection c = connect()) {
      assertEquals("10000, 349995000", one(c, "SELECT count(*), sum(id) FROM ck"), "part 4 only");
      assertEquals("broken-on-start_" + parts.get(4), one(c, "SELECT name FROM system.detached_parts "
          + "WHERE \"table\" = 'ck' AND reason = 'broken-on-start'"));
      assertEquals(1, rows(c, "CHECK TABLE ck").size());
      exec(c, "DROP TABLE ck");
    }
    try (FileIO io = FileIOs.open(loc, properties())) {
      assertFalse(io.list("tables").iterator().hasNext(), "DROP TABLE removed the detached parts too");
    }
  }
}
