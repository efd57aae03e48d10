package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.explain;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static dev.travertine.calcite.JdbcTestSupport.rows;
import static dev.travertine.calcite.JdbcTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ALTER TABLE ADD/DROP/RENAME/MODIFY COLUMN: metadata only; old parts are converted when read. */
class AlterColumnTest {
  @TempDir Path dir;

  /** Two parts written before any ALTER (ids 0..1999, v = id % 10, s = 's' || id % 3) and buffered rows. */
  private Connection table() throws SQLException {
    Connection c = connect(dir);
    exec(c, "CREATE TABLE t (id INTEGER NOT NULL, v INTEGER, s VARCHAR) ORDER BY id "
        + "SETTINGS min_insert_rows_for_direct_part = 1, index_granularity = 1000");
    exec(c, "SYSTEM STOP MERGES t");
    for (int p = 0; p < 2; p++) {
      exec(c, "INSERT INTO t SELECT CAST(number AS INTEGER) + " + (p * 1000) + ", CAST(MOD(number, 10) AS INTEGER),"
          + " 's' || CAST(MOD(number + " + p + ", 3) AS VARCHAR) FROM TABLE(numbers(1000))");
    }
    exec(c, "ALTER TABLE t MODIFY COLUMN s VARCHAR"); // no change: nothing happens
    return c;
  }

  @Test
  void columnsChangeWithoutRewritingParts() throws Exception {
    try (Connection c = table()) {
      exec(c, "ALTER TABLE t ADD COLUMN w BIGINT DEFAULT 7, ADD COLUMN z VARCHAR NOT NULL AFTER id, "
          + "ADD COLUMN f BOOLEAN FIRST");
      assertEquals(List.of("f", "id", "z", "v", "s", "w"),
          rows(c, "SELECT name FROM system.columns WHERE \"table\" = 't' ORDER BY \"position\""));
      assertEquals("null, 5, , 5, s2, 7", one(c, "SELECT * FROM t WHERE id = 5"));
      assertEquals("2000, 14000", one(c, "SELECT count(*), sum(w) FROM t"));
      exec(c, "INSERT INTO t (id, v, s, w, z, f) VALUES (5000, 1, 'new', 1, 'zz', TRUE)");
      // Old parts read w = 7 by default, and their statistics say so: the new row's part is pruned.
      assertEquals("2000", one(c, "SELECT count(*) FROM t WHERE w = 7"));
      assertEquals("1", one(c, "SELECT count(*) FROM t WHERE w = 1"));
      exec(c, "SYSTEM FLUSH");
      assertTrue(explain(c, "SELECT id FROM t WHERE w = 1").contains("parts=[1/3]"),
          explain(c, "SELECT id FROM t WHERE w = 1"));
      exec(c, "ALTER TABLE t RENAME COLUMN v TO vv, RENAME COLUMN id TO key");
      assertEquals("5, 5", one(c, "SELECT key, vv FROM t WHERE key = 5"));
      assertTrue(one(c, "SELECT sorting_key FROM system.tables WHERE name = 't'").contains("key"));
      exec(c, "ALTER TABLE t MODIFY COLUMN vv VARCHAR");
      assertEquals("5!", one(c, "SELECT vv || '!' FROM t WHERE key = 5"));
      exec(c, "ALTER TABLE t MODIFY COLUMN w DOUBLE");
      assertEquals("14001.0", one(c, "SELECT sum(w) FROM t"));
      exec(c, "ALTER TABLE t DROP COLUMN s");
      exec(c, "ALTER TABLE t ADD COLUMN s INTEGER"); // a new column: the dropped data never comes back
      assertEquals("0", one(c, "SELECT count(s) FROM t"));
      List<String> before = rows(c, "SELECT * FROM t ORDER BY key");
      exec(c, "OPTIMIZE TABLE t FINAL"); // merged parts are written in the new schema
      assertEquals(before, rows(c, "SELECT * FROM t ORDER BY key"));
      // Mutations work on converted columns.
      exec(c, "SET mutations_sync = 1");
      assertEquals(1000, update(c, "UPDATE t SET w = w + 1, s = 3 WHERE key < 1000"));
      assertEquals("15001.0, 3000", one(c, "SELECT sum(w), sum(s) FROM t"));
    }
    try (Connection c = connect(dir)) {
      assertEquals("false, 5, , 5, 8.0, 3", one(c, "SELECT f IS NOT NULL, key, z, vv, w, s FROM t WHERE key = 5"));
      assertEquals("2001", one(c, "SELECT count(*) FROM t"));
    }
  }

  @Test
  void readsOldPartsAfterARestart() throws Exception {
    try (Connection c = table()) {
      exec(c, "INSERT INTO t VALUES (3000, 1, 'buffered')"); // in the WAL-backed buffer
      exec(c, "ALTER TABLE t ADD COLUMN d DATE DEFAULT DATE '2024-01-02', RENAME COLUMN s TO label");
    }
    try (Connection c = connect(dir)) {
      assertEquals("1, 2024-01-02, s2", one(c, "SELECT v, d, label FROM t WHERE id = 1001"));
      assertEquals("1, 2024-01-02, buffered", one(c, "SELECT v, d, label FROM t WHERE id = 3000"));
      assertEquals("2001", one(c, "SELECT count(*) FROM t WHERE d = DATE '2024-01-02'"));
    }
  }

  @Test
  void badAltersFailClearlyAndChangeNothing() throws Exception {
    try (Connection c = table()) {
      List<String> columns = rows(c, "SELECT name, type FROM system.columns WHERE \"table\" = 't' ORDER BY \"position\"");
      List<String> data = rows(c, "SELECT * FROM t ORDER BY id");
      String[][] cases = {
          {"ALTER TABLE t DROP COLUMN id", "Cannot DROP column id"},
          {"ALTER TABLE t MODIFY COLUMN id BIGINT", "Cannot MODIFY column id"},
          {"ALTER TABLE t DROP COLUMN nope", "Unknown column: nope"},
          {"ALTER TABLE t ADD COLUMN v INTEGER", "Column v already exists"},
          {"ALTER TABLE t RENAME COLUMN v TO s", "Column s already exists"},
          {"ALTER TABLE t MODIFY COLUMN v INTEGER NOT NULL", "Cannot MODIFY column v to NOT NULL"},
          {"ALTER TABLE t MODIFY COLUMN v DATE", "Cannot MODIFY column v"},
          {"ALTER TABLE t ADD COLUMN w INTEGER DEFAULT v + 1", "must be a constant"},
          {"ALTER TABLE t ADD COLUMN w INTEGER DEFAULT 'abc'", "Cannot use"},
          {"ALTER TABLE t ADD COLUMN w INTEGER, DROP COLUMN id", "Cannot DROP column id"},
          {"ALTER TABLE nope ADD COLUMN w INTEGER", "nope"},
      };
      for (String[] k : cases) {
        SQLException e = assertThrows(SQLException.class, () -> exec(c, k[0]), k[0]);
        assertTrue(e.getMessage().contains(k[1]), k[0] + " -> " + e.getMessage());
      }
      // Not while mutations are unfinished: their text names the columns.
      update(c, "DELETE FROM t WHERE v = 1");
      SQLException e = assertThrows(SQLException.class, () -> exec(c, "ALTER TABLE t RENAME COLUMN v TO x"));
      assertTrue(e.getMessage().contains("mutations are unfinished"), e.getMessage());
      exec(c, "KILL MUTATION WHERE \"table\" = 't'");
      assertEquals(columns, rows(c, "SELECT name, type FROM system.columns WHERE \"table\" = 't' ORDER BY \"position\""));
      assertEquals(data, rows(c, "SELECT * FROM t ORDER BY id"));
      exec(c, "ALTER TABLE t DROP COLUMN IF EXISTS nope, ADD COLUMN IF NOT EXISTS v INTEGER");
      assertEquals(columns, rows(c, "SELECT name, type FROM system.columns WHERE \"table\" = 't' ORDER BY \"position\""));
    }
  }
}
