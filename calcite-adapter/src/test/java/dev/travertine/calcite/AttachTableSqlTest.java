package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ATTACH TABLE … FROM through JDBC, two databases on one shared directory: what the attaching
 * node sees and refuses, and the clear errors of bad attaches.
 */
class AttachTableSqlTest {
  @TempDir Path dir;

  @Test
  void anAttachedTableFollowsItsWriterAndRefusesChanges() throws Exception {
    try (Connection w = JdbcTestSupport.connect(dir.resolve("w"));
         Connection r = JdbcTestSupport.connect(dir.resolve("r"))) {
      exec(w, "CREATE TABLE ev (id BIGINT NOT NULL, name VARCHAR) ORDER BY id SETTINGS storage = '"
          + dir.resolve("shared").toUri() + "'");
      exec(w, "INSERT INTO ev VALUES (1, 'a'), (2, 'b')");
      exec(w, "SYSTEM FLUSH TABLE ev");
      String location = one(w, "SELECT data_path FROM system.tables WHERE name = 'ev'");
      exec(r, "ATTACH TABLE copy FROM '" + location + "'");
      exec(r, "ATTACH TABLE IF NOT EXISTS copy FROM '" + location + "'");
      assertEquals("2, b", one(r, "SELECT count(*), max(name) FROM copy"));
      assertEquals("id, BIGINT, false; name, VARCHAR, true", String.join("; ", JdbcTestSupport.rows(r,
          "SELECT name, type, is_nullable FROM system.columns WHERE \"table\" = 'copy' ORDER BY \"position\"")));

      exec(w, "INSERT INTO ev VALUES (3, 'c')");
      exec(w, "SYSTEM FLUSH TABLE ev");
      exec(w, "OPTIMIZE TABLE ev FINAL");
      exec(w, "DELETE FROM ev WHERE id = 1");
      assertEquals("2, c", one(r, "SELECT count(*), max(name) FROM copy"), "the writer's commits and its mutation");

      for (String change : new String[] {"INSERT INTO copy VALUES (9, 'z')", "DELETE FROM copy WHERE id = 2",
          "UPDATE copy SET name = 'q'", "TRUNCATE TABLE copy", "OPTIMIZE TABLE copy FINAL",
          "ALTER TABLE copy ADD COLUMN x INTEGER"}) {
        SQLException e = assertThrows(SQLException.class, () -> exec(r, change), change);
        assertEquals("25006", e.getSQLState(), change + ": " + e.getMessage());
        assertTrue(e.getMessage().contains("Table copy is attached read-only from " + location), e.getMessage());
      }
      assertEquals("2", one(w, "SELECT count(*) FROM ev"));

      SQLException again = assertThrows(SQLException.class,
          () -> exec(r, "ATTACH TABLE copy FROM '" + location + "'"));
      assertTrue(again.getMessage().contains("Table copy already exists"), again.getMessage());
      SQLException own = assertThrows(SQLException.class,
          () -> exec(w, "ATTACH TABLE ev2 FROM '" + location + "'"));
      assertTrue(own.getMessage().contains("it is this node's own table ev"), own.getMessage());

      exec(r, "DROP TABLE copy");
      assertEquals("2", one(w, "SELECT count(*) FROM ev"), "dropping the attached table deletes nothing");
    }
  }

  @Test
  void attachingWhatIsNoTableIsAClearError() throws Exception {
    Files.createDirectories(dir.resolve("nothing"));
    try (Connection r = JdbcTestSupport.connect(dir.resolve("r"))) {
      SQLException e = assertThrows(SQLException.class,
          () -> exec(r, "ATTACH TABLE x FROM '" + dir.resolve("nothing").toUri() + "'"));
      assertTrue(e.getMessage().contains("No Travertine table at "), e.getMessage());
      SQLException syntax = assertThrows(SQLException.class, () -> exec(r, "ATTACH TABLE x"));
      assertEquals("42000", syntax.getSQLState(), syntax.getMessage());
      assertEquals("0", one(r, "SELECT count(*) FROM system.tables"));
    }
  }
}
