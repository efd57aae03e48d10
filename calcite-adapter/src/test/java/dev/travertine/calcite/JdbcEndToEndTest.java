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
    }
  }
}
