package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static dev.travertine.calcite.JdbcTestSupport.rows;
import static dev.travertine.calcite.JdbcTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** UPDATE/DELETE and ALTER TABLE mutations through JDBC: pending, applied by merges, rewritten, killed. */
class MutationTest {
  @TempDir Path dir;

  /** A table of 4 parts (ids 0..3999, v = id % 100, s = 's' || id % 7), merges and mutations stopped. */
  private Connection fourParts() throws SQLException {
    Connection c = connect(dir);
    exec(c, "CREATE TABLE t (id INTEGER NOT NULL, v INTEGER, s VARCHAR) ORDER BY id "
        + "SETTINGS min_insert_rows_for_direct_part = 1, index_granularity = 1000");
    exec(c, "SYSTEM STOP MERGES t");
    for (int p = 0; p < 4; p++) {
      exec(c, "INSERT INTO t SELECT CAST(number AS INTEGER) + " + (p * 1000) + ", CAST(MOD(number, 100) AS INTEGER),"
          + " 's' || CAST(MOD(number + " + (p * 1000) + ", 7) AS VARCHAR) FROM TABLE(numbers(1000))");
    }
    assertEquals("4", one(c, "SELECT count(*) FROM system.parts WHERE \"table\" = 't'"));
    return c;
  }

  private static String pending(Connection c) throws SQLException {
    return one(c, "SELECT count(*) FROM system.mutations WHERE \"table\" = 't' AND NOT is_done AND NOT is_killed");
  }

  @Test
  void pendingMutationsApplyOnReadThenRewriteParts() throws Exception {
    try (Connection c = fourParts()) {
      assertEquals(40, update(c, "DELETE FROM t WHERE v = 7"), "update count");
      assertEquals(990, update(c, "ALTER TABLE t UPDATE s = 'changed' WHERE id >= 3000"), "after the DELETE");
      assertEquals(4, update(c, "UPDATE t SET v = v + 1000 WHERE id < 100 AND v < 4"));
      assertEquals("3", pending(c));
      // Pending: applied on the fly by every read path.
      assertEquals("3960", one(c, "SELECT count(*) FROM t"));
      assertEquals("0", one(c, "SELECT count(*) FROM t WHERE v = 7"));
      assertEquals("1000, 1001, 1002, 1003", String.join(", ",
          rows(c, "SELECT v FROM t WHERE v >= 1000 ORDER BY v")), "pruning must not use stale statistics");
      assertEquals("990", one(c, "SELECT count(*) FROM t WHERE s = 'changed'"));
      assertEquals("3, 1003", one(c, "SELECT id, v FROM t WHERE id = 3"));
      assertEquals("0, 1000", rows(c, "SELECT id, v FROM t ORDER BY id LIMIT 1").get(0));
      assertEquals("3", one(c, "SELECT count(*) FROM system.mutations WHERE \"table\" = 't' AND parts_to_do = 4"));
      List<String> before = rows(c, "SELECT id, v, s FROM t ORDER BY id");
      // Let the worker rewrite; mutations_sync = 1 on a new mutation waits for all of them.
      exec(c, "SYSTEM START MERGES t");
      exec(c, "SET mutations_sync = 1");
      assertEquals(0, update(c, "DELETE FROM t WHERE id = -1"));
      assertEquals("0", pending(c));
      assertEquals(before, rows(c, "SELECT id, v, s FROM t ORDER BY id"));
      assertEquals("4", one(c, "SELECT count(*) FROM system.mutations WHERE \"table\" = 't' AND is_done"));
      // Every part now carries the last mutation's version.
      String last = one(c, "SELECT max(block_number) FROM system.mutations");
      assertEquals(last, one(c, "SELECT min(data_version) FROM system.parts WHERE \"table\" = 't'"));
    }
  }

  @Test
  void rowsInsertedAfterAMutationAreNotAffected() throws Exception {
    try (Connection c = fourParts()) {
      update(c, "ALTER TABLE t UPDATE v = 0 WHERE v > 50");
      update(c, "DELETE FROM t WHERE id >= 3500");
      exec(c, "INSERT INTO t VALUES (5000, 99, 'new'), (3600, 98, 'again')");
      assertEquals("5000, 99", one(c, "SELECT id, v FROM t WHERE id = 5000"));
      assertEquals("3600, 98", one(c, "SELECT id, v FROM t WHERE id >= 3500 AND id < 5000"));
      exec(c, "SET mutations_sync = 1");
      exec(c, "SYSTEM START MERGES t");
      exec(c, "OPTIMIZE TABLE t FINAL");
      update(c, "DELETE FROM t WHERE id = -1");
      assertEquals("5000, 99", one(c, "SELECT id, v FROM t WHERE id = 5000"));
      assertEquals("3600, 98", one(c, "SELECT id, v FROM t WHERE id >= 3500 AND id < 5000"));
      assertEquals("0", one(c, "SELECT count(*) FROM t WHERE v > 50 AND id < 3500"));
    }
  }

  @Test
  void mergesApplyPendingMutations() throws Exception {
    try (Connection c = fourParts()) {
      update(c, "DELETE FROM t WHERE MOD(id, 2) = 0"); // row-wise condition (no engine predicate)
      update(c, "UPDATE t SET s = UPPER(s) || CAST(id AS VARCHAR) WHERE id < 10");
      exec(c, "OPTIMIZE TABLE t FINAL"); // merges run though background work is stopped
      assertEquals("1", one(c, "SELECT count(*) FROM system.parts WHERE \"table\" = 't'"));
      assertEquals("0", pending(c), "the merged part includes both mutations");
      assertEquals("2000", one(c, "SELECT count(*) FROM t"));
      assertEquals("1, S11, 3, S33", String.join(", ", rows(c, "SELECT id, s FROM t WHERE id < 5 ORDER BY id")));
    }
  }

  @Test
  void mutationThatMatchesNoRowsOnlyReversionsParts() throws Exception {
    try (Connection c = fourParts()) {
      exec(c, "SET mutations_sync = 1");
      List<String> files = partFiles();
      assertEquals(0, update(c, "DELETE FROM t WHERE id > 100000"));
      assertEquals(files, partFiles(), "no part was rewritten: same files");
      assertTrue(one(c, "SELECT min(data_version) FROM system.parts WHERE \"table\" = 't'").compareTo("4") > 0);
      assertEquals(1000, update(c, "DELETE FROM t WHERE id < 1000"));
      assertEquals("3", one(c, "SELECT count(*) FROM system.parts WHERE \"table\" = 't'"), "emptied part is gone");
      assertEquals("3000", one(c, "SELECT count(*) FROM t"));
    }
  }

  private List<String> partFiles() throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.toString().endsWith(".orc")).map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void killedMutationStopsApplying() throws Exception {
    try (Connection c = fourParts()) {
      update(c, "DELETE FROM t WHERE v = 1");
      assertEquals("3960", one(c, "SELECT count(*) FROM t"));
      String id = one(c, "SELECT mutation_id FROM system.mutations WHERE \"table\" = 't'");
      exec(c, "KILL MUTATION WHERE mutation_id = '" + id + "'");
      assertEquals("true, false", one(c, "SELECT is_killed, is_done FROM system.mutations"));
      assertEquals("0", pending(c));
      assertEquals("4000", one(c, "SELECT count(*) FROM t"));
      SQLException e = assertThrows(SQLException.class,
          () -> exec(c, "KILL MUTATION WHERE mutation_id = 'mutation_999.txt'"));
      assertTrue(e.getMessage().contains("No unfinished mutation matches"), e.getMessage());
    }
  }

  @Test
  void preparedDeleteWithParameters() throws Exception {
    try (Connection c = fourParts(); PreparedStatement ps = c.prepareStatement(
        "DELETE FROM t WHERE id BETWEEN ? AND ? AND s = ?")) {
      ps.setInt(1, 10);
      ps.setInt(2, 20);
      ps.setString(3, "s3");
      assertEquals(2, ps.executeUpdate()); // 10 and 17
      ps.setInt(1, 0);
      ps.setInt(2, 6);
      ps.setString(3, "s0");
      assertEquals(1, ps.executeUpdate());
      assertEquals("3997", one(c, "SELECT count(*) FROM t"));
      assertEquals("DELETE WHERE id BETWEEN ASYMMETRIC 10 AND 20 AND s = 's3'",
          rows(c, "SELECT command FROM system.mutations ORDER BY block_number").get(0));
    }
  }

  @Test
  void badMutationsFailClearlyAndChangeNothing() throws Exception {
    try (Connection c = fourParts()) {
      List<String> before = rows(c, "SELECT id, v, s FROM t ORDER BY id");
      String[][] cases = {
          {"UPDATE t SET nope = 1", "Unknown column nope"},
          {"DELETE FROM t WHERE nope = 1", "Column 'nope' not found"},
          {"UPDATE t SET v = 'abc'", "Cannot assign"},
          {"UPDATE t SET id = 5 WHERE id = 1", "Cannot UPDATE key column id"},
          {"ALTER TABLE t UPDATE id = 5 WHERE id = 1", "Cannot UPDATE key column id"},
          {"DELETE FROM t WHERE v", "must be boolean"},
          {"DELETE FROM t WHERE id IN (SELECT id FROM t)", "Subqueries are not supported"},
          {"DELETE FROM nosuch WHERE id = 1", "nosuch"},
      };
      for (String[] k : cases) {
        SQLException e = assertThrows(SQLException.class, () -> exec(c, k[0]), k[0]);
        assertTrue(e.getMessage().contains(k[1]), k[0] + " -> " + e.getMessage());
      }
      assertEquals("0", one(c, "SELECT count(*) FROM system.mutations"));
      assertEquals(before, rows(c, "SELECT id, v, s FROM t ORDER BY id"));
    }
  }

  @Test
  void aColumnAssignedTwiceTakesTheLastValue() throws Exception {
    try (Connection c = fourParts()) {
      assertEquals(4000, update(c, "UPDATE t SET v = 3, V = 4, v = 5"));
      assertEquals("4000", one(c, "SELECT count(*) FROM t WHERE v = 5"));
    }
  }

  @Test
  void tooManyUnfinishedMutationsAreRefused() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE m (id INTEGER, v INTEGER) ORDER BY id SETTINGS number_of_mutations_to_throw = 2");
      exec(c, "SYSTEM STOP MERGES m");
      exec(c, "INSERT INTO m VALUES (1, 1), (2, 2)");
      update(c, "UPDATE m SET v = v + 1");
      update(c, "UPDATE m SET v = v + 1");
      SQLException e = assertThrows(SQLException.class, () -> exec(c, "UPDATE m SET v = v + 1"));
      assertTrue(e.getMessage().contains("Too many unfinished mutations (2)"), e.getMessage());
      assertEquals("1, 3 | 2, 4", String.join(" | ", rows(c, "SELECT id, v FROM m ORDER BY id")));
    }
  }

  @Test
  void unfinishedMutationsSurviveARestartAndContinue() throws Exception {
    try (Connection c = fourParts()) {
      update(c, "DELETE FROM t WHERE v < 10");
      update(c, "UPDATE t SET s = 'x' WHERE v = 10");
      assertEquals("2", pending(c));
    }
    try (Connection c = connect(dir)) {
      // STOP MERGES is not persistent: the worker continues after the restart.
      exec(c, "SET mutations_sync = 1");
      update(c, "DELETE FROM t WHERE id = -1");
      assertEquals("0", pending(c));
      assertEquals("3600", one(c, "SELECT count(*) FROM t"));
      assertEquals("40", one(c, "SELECT count(*) FROM t WHERE s = 'x'"));
      assertFalse(rows(c, "SELECT command FROM system.mutations").isEmpty());
    }
  }
}
