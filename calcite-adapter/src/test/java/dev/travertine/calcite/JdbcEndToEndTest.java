package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.explain;
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

/** End-to-end through JDBC: DDL, inserts, queries, pruning and persistence. */
class JdbcEndToEndTest {
  @TempDir Path dir;

  @Test
  void createInsertSelect() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE t (id BIGINT NOT NULL, grp INTEGER, name VARCHAR(20), d DATE) "
          + "ENGINE = MergeTree PARTITION BY grp ORDER BY id");
      assertEquals(3, update(c, "INSERT INTO t VALUES (3, 1, 'c', DATE '2024-01-03'), (1, 1, 'a', NULL), "
          + "(2, 2, NULL, DATE '2024-01-02')"));
      assertEquals(List.of("1, a", "2, null", "3, c"), rows(c, "SELECT id, name FROM t ORDER BY id"));
      assertEquals("3", one(c, "SELECT count(*) FROM t"));
      assertEquals("2, 2024-01-02", one(c, "SELECT id, d FROM t WHERE id = 2"));
      assertEquals("1", one(c, "SELECT count(*) FROM t WHERE name IS NULL"));
      assertEquals(List.of("1, 2", "2, 1"), rows(c, "SELECT grp, count(*) FROM t GROUP BY grp ORDER BY grp"));
    }
  }

  @Test
  void everyTypeRoundTripsWithNulls() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE types (k INTEGER PRIMARY KEY, b BOOLEAN, ti TINYINT, si SMALLINT, i INTEGER, "
          + "bi BIGINT, r REAL, f FLOAT, d DOUBLE, dc DECIMAL(10, 3), vc VARCHAR(10), ch CHAR(3), tx TEXT, "
          + "dt DATE, ts TIMESTAMP)");
      exec(c, "INSERT INTO types VALUES (1, TRUE, -1, -300, 70000, 5000000000, 1.5, 2.25, 3.125, 12.345, 'héllo', "
          + "'ab', 'text', DATE '1969-12-31', TIMESTAMP '2024-02-29 12:34:56.789')");
      exec(c, "INSERT INTO types (k) VALUES (2)");
      String expected = "1, true, -1, -300, 70000, 5000000000, 1.5, 2.25, 3.125, 12.345, héllo, ab , text, "
          + "1969-12-31, 2024-02-29 12:34:56.789";
      String nulls = "2, null, null, null, null, null, null, null, null, null, null, null, null, null, null";
      assertEquals(List.of(expected, nulls), rows(c, "SELECT * FROM types ORDER BY k"));
      exec(c, "SYSTEM FLUSH");
      assertEquals(List.of(expected, nulls), rows(c, "SELECT * FROM types ORDER BY k"), "after flush to a part");
      assertEquals("1", one(c, "SELECT k FROM types WHERE ts = TIMESTAMP '2024-02-29 12:34:56.789'"));
      assertEquals("1", one(c, "SELECT k FROM types WHERE dc = 12.345 AND dt < DATE '1970-01-01'"));
      assertEquals("2", one(c, "SELECT k FROM types WHERE b IS NULL"));
    }
  }

  @Test
  void dataSurvivesReopenAndDropRemovesFiles() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE p (id BIGINT, v VARCHAR) ORDER BY id");
      exec(c, "INSERT INTO p SELECT number, 'v' || CAST(number AS VARCHAR) FROM TABLE(numbers(100000))");
      exec(c, "INSERT INTO p VALUES (-1, 'buffered')");
      exec(c, "CREATE VIEW pv AS SELECT id FROM p WHERE id < 10");
    }
    try (Connection c = connect(dir)) {
      assertEquals("100001", one(c, "SELECT count(*) FROM p"));
      assertEquals("buffered", one(c, "SELECT v FROM p WHERE id = -1"));
      assertEquals("11", one(c, "SELECT count(*) FROM pv"));
      exec(c, "DROP VIEW pv");
      exec(c, "DROP TABLE p");
      assertThrows(SQLException.class, () -> rows(c, "SELECT * FROM p"));
    }
    try (Stream<Path> s = Files.walk(dir.resolve("tables"))) {
      assertEquals(0, s.filter(Files::isRegularFile).count(), "no files left after DROP");
    }
  }

  @Test
  void pointQueryReadsFewGranulesAndExplainShowsIt() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE big (k BIGINT NOT NULL, g INTEGER, s VARCHAR) PARTITION BY g ORDER BY k");
      exec(c, "INSERT INTO big SELECT number, CAST(MOD(number, 4) AS INTEGER), 'x' FROM TABLE(numbers(200000))");
      String plan = explain(c, "SELECT s FROM big WHERE k = 12345");
      assertTrue(plan.contains("TravertineTableScan"), plan);
      assertTrue(plan.contains("filter=[k = 12345]"), plan);
      assertTrue(plan.contains("parts=[4/4]") || plan.matches("(?s).*parts=\\[\\d/4\\].*"), plan);
      long granules = Long.parseLong(plan.replaceAll("(?s).*granules=\\[(\\d+)/\\d+\\].*", "$1"));
      assertTrue(granules <= 4, plan);
      assertEquals("x", one(c, "SELECT s FROM big WHERE k = 12345"));
      String partPlan = explain(c, "SELECT count(*) FROM big WHERE g = 2");
      assertTrue(partPlan.contains("parts=[1/4]"), partPlan);
      assertEquals("50000", one(c, "SELECT count(*) FROM big WHERE g = 2"));
      assertEquals(List.of("0", "1", "2"), rows(c, "SELECT k FROM big ORDER BY k LIMIT 3"));
      String sortPlan = explain(c, "SELECT k FROM big ORDER BY k LIMIT 3");
      assertFalse(sortPlan.contains("EnumerableSort"), sortPlan);
      assertTrue(sortPlan.contains("order=[[k]]"), sortPlan);
      assertEquals(List.of("199999"), rows(c, "SELECT max(k) FROM big"));
      assertEquals("100000", one(c, "SELECT count(*) FROM big WHERE k BETWEEN 50000 AND 149999"));
      assertEquals("3", one(c, "SELECT count(*) FROM big WHERE k IN (1, 2, 3, -5)"));
    }
  }

  @Test
  void optimizeMergesPartsAndSystemPartsShowsThem() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE m (k BIGINT) ORDER BY k SETTINGS min_insert_rows_for_direct_part = 1");
      exec(c, "SYSTEM STOP MERGES m");
      for (int i = 0; i < 5; i++) {
        exec(c, "INSERT INTO m VALUES (" + (10 - i) + "), (" + (20 + i) + ")");
      }
      assertEquals("5", one(c, "SELECT count(*) FROM system.parts WHERE \"table\" = 'm'"));
      exec(c, "OPTIMIZE TABLE m FINAL");
      assertEquals("1, 10, 1", one(c, "SELECT count(*), sum(\"rows\"), max(level) FROM system.parts WHERE \"table\" = 'm'"));
      assertEquals(List.of("6", "7", "8", "9", "10", "20"), rows(c, "SELECT k FROM m ORDER BY k LIMIT 6"));
    }
  }

  @Test
  void settingsAreValidated() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "SET max_threads = 1");
      assertEquals("1, true", one(c, "SELECT \"value\", changed FROM system.settings WHERE name = 'max_threads'"));
      exec(c, "RESET max_threads");
      assertEquals("false", one(c, "SELECT changed FROM system.settings WHERE name = 'max_threads'"));
      SQLException e = assertThrows(SQLException.class, () -> exec(c, "SET no_such_setting = 1"));
      assertTrue(e.getMessage().contains("Unknown setting: no_such_setting"), e.getMessage());
      e = assertThrows(SQLException.class, () -> exec(c, "SET max_threads = 'lots'"));
      assertTrue(e.getMessage().contains("Invalid value for setting max_threads"), e.getMessage());
      e = assertThrows(SQLException.class, () -> exec(c, "CREATE TABLE bad (a INT) SETTINGS index_granularity = 0"));
      assertTrue(e.getMessage().contains("index_granularity"), e.getMessage());
      e = assertThrows(SQLException.class, () -> exec(c, "CREATE TABLE bad (a INT) ENGINE = Log"));
      assertTrue(e.getMessage().contains("Unknown table engine: Log"), e.getMessage());
      assertEquals(0, rows(c, "SELECT * FROM system.tables").size(), "nothing created by failed DDL");
    }
  }

  @Test
  void badInputGetsClearErrorsAndChangesNothing() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE e (a INTEGER NOT NULL, b VARCHAR) ORDER BY a");
      exec(c, "INSERT INTO e VALUES (1, 'x')");
      SQLException ex = assertThrows(SQLException.class, () -> exec(c, "CREATE TABLE e (a INTEGER)"));
      assertTrue(ex.getMessage().contains("already exists"), ex.getMessage());
      ex = assertThrows(SQLException.class, () -> rows(c, "SELECT * FROM nope"));
      assertTrue(ex.getMessage().contains("Object 'nope' not found"), ex.getMessage());
      ex = assertThrows(SQLException.class, () -> rows(c, "SELECT zzz FROM e"));
      assertTrue(ex.getMessage().contains("Column 'zzz' not found"), ex.getMessage());
      ex = assertThrows(SQLException.class, () -> exec(c, "INSERT INTO e VALUES ('notanumber', 'y')"));
      ex = assertThrows(SQLException.class, () -> exec(c, "INSERT INTO e VALUES (2, 'y'), (NULL, 'z')"));
      ex = assertThrows(SQLException.class, () -> exec(c, "ALTER TABLE e DELETE WHERE zzz = 1"));
      assertTrue(ex.getMessage().contains("Column 'zzz' not found"), ex.getMessage());
      ex = assertThrows(SQLException.class, () -> exec(c, "UPDATE e SET a = 2 WHERE a = 1"));
      assertTrue(ex.getMessage().contains("Cannot UPDATE key column a"), ex.getMessage());
      assertEquals(List.of("1, x"), rows(c, "SELECT * FROM e"));
      assertEquals(List.of("1, x"), rows(c, "SELECT * FROM e;  "), "a trailing semicolon is accepted");
    }
  }

  @Test
  void identifiersKeepCaseAndMatchCaseInsensitively() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE Hits (SearchPhrase VARCHAR, CounterID INTEGER)");
      exec(c, "INSERT INTO hits (searchphrase, counterid) VALUES ('q', 7)");
      assertEquals("q, 7", one(c, "SELECT SEARCHPHRASE, \"CounterID\" FROM HITS"));
      assertEquals("Hits", one(c, "SELECT name FROM system.tables"));
      assertEquals(List.of("SearchPhrase", "CounterID"),
          rows(c, "SELECT name FROM system.columns ORDER BY \"position\""));
    }
  }

  @Test
  void preparedBatchIsOneInsert() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE b (k INTEGER, v VARCHAR) ORDER BY k");
      long before = Long.parseLong(one(c, "SELECT COALESCE(SUM(\"value\"), 0) FROM system.events WHERE event = 'InsertQuery'"));
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO b VALUES (?, ?)")) {
        for (int i = 0; i < 1000; i++) {
          ps.setInt(1, i);
          ps.setString(2, "v" + i);
          ps.addBatch();
        }
        int[] counts = ps.executeBatch();
        assertEquals(1000, counts.length);
      }
      long after = Long.parseLong(one(c, "SELECT COALESCE(SUM(\"value\"), 0) FROM system.events WHERE event = 'InsertQuery'"));
      assertEquals(1, after - before, "a batch is one insert, not one per row");
      assertEquals("1000, 499500", one(c, "SELECT count(*), sum(k) FROM b"));
    }
  }

  @Test
  void createTableAsSelectIndexesTruncateAndDefaults() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE src (a INTEGER, b VARCHAR DEFAULT 'dflt')");
      exec(c, "INSERT INTO src (a) VALUES (1), (2)");
      assertEquals(List.of("1, dflt", "2, dflt"), rows(c, "SELECT * FROM src ORDER BY a"));
      exec(c, "CREATE TABLE copy ORDER BY a AS SELECT a, b FROM src");
      assertEquals("2", one(c, "SELECT count(*) FROM copy"));
      exec(c, "CREATE INDEX copy_b ON copy (b)");
      exec(c, "CREATE UNIQUE INDEX copy_a ON copy (a DESC)");
      exec(c, "DROP INDEX copy_b");
      assertThrows(SQLException.class, () -> exec(c, "DROP INDEX copy_b"));
      exec(c, "TRUNCATE TABLE copy");
      assertEquals("0", one(c, "SELECT count(*) FROM copy"));
    }
  }

  @Test
  void joinsSubqueriesAndWindows() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE l (k INTEGER, v INTEGER) ORDER BY k");
      exec(c, "CREATE TABLE r (k INTEGER, w VARCHAR) ORDER BY k");
      exec(c, "INSERT INTO l VALUES (1, 10), (2, 20), (3, 30)");
      exec(c, "INSERT INTO r VALUES (1, 'a'), (3, 'c')");
      assertEquals(List.of("1, 10, a", "3, 30, c"),
          rows(c, "SELECT l.k, v, w FROM l JOIN r ON l.k = r.k ORDER BY l.k"));
      assertEquals("2", one(c, "SELECT k FROM l WHERE k NOT IN (SELECT k FROM r)"));
      assertEquals(List.of("1, 10", "2, 30", "3, 60"),
          rows(c, "SELECT k, sum(v) OVER (ORDER BY k) FROM l ORDER BY k"));
      assertEquals(List.of("1", "2", "3"), rows(c, "SELECT k FROM l UNION SELECT k FROM r ORDER BY 1"));
    }
  }

  @Test
  void reusedPlansSeeNewDataAndDdl() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE pc (k INTEGER, v VARCHAR) ORDER BY k");
      exec(c, "INSERT INTO pc VALUES (1, 'a')");
      String q = "SELECT * FROM pc WHERE k >= 1";
      assertEquals(List.of("1, a"), rows(c, q));
      exec(c, "INSERT INTO pc VALUES (2, 'b')");
      assertEquals(List.of("1, a", "2, b"), rows(c, q), "same plan, new data");
      exec(c, "DROP TABLE pc");
      exec(c, "CREATE TABLE pc (k INTEGER, v VARCHAR, w INTEGER) ORDER BY k");
      exec(c, "INSERT INTO pc VALUES (3, 'c', 30)");
      assertEquals(List.of("3, c, 30"), rows(c, q), "DDL invalidates the plan");
      exec(c, "DROP TABLE pc");
      SQLException e = assertThrows(SQLException.class, () -> rows(c, q));
      assertTrue(e.getMessage().contains("Object 'pc' not found"), e.getMessage());
    }
  }
}
