package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.exec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What generic JDBC clients see in DatabaseMetaData: user tables as TABLE, system tables as
 * SYSTEM TABLE (a client that lists TABLEs to drop them, like the sqllogictest library's
 * JdbcExecutor, leaves the system tables alone).
 */
class JdbcMetadataTest {
  @TempDir Path dir;

  private static List<String> tables(DatabaseMetaData md, String... types) throws Exception {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = md.getTables(null, null, "%", types.length == 0 ? null : types)) {
      while (rs.next()) {
        out.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME") + ":" + rs.getString("TABLE_TYPE"));
      }
    }
    return out;
  }

  @Test void systemTablesAreSystemTables() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE mine (k BIGINT) ORDER BY k");
      DatabaseMetaData md = c.getMetaData();
      assertEquals(List.of("main.mine:TABLE"), tables(md, "TABLE"));
      List<String> system = tables(md, "SYSTEM TABLE");
      assertTrue(system.contains("system.parts:SYSTEM TABLE") && system.contains("system.settings:SYSTEM TABLE"),
          system.toString());
      assertTrue(system.stream().allMatch(t -> t.startsWith("system.") || t.startsWith("metadata.")), system.toString());
      List<String> all = tables(md);
      assertTrue(all.contains("main.mine:TABLE") && all.contains("system.clusters:SYSTEM TABLE"), all.toString());
    }
  }

  /** getTables follows DDL on the same connection and on others: a dropped table is gone at once. */
  @Test void metadataFollowsDdl() throws Exception {
    try (Connection c = connect(dir); Connection other = connect(dir)) {
      DatabaseMetaData md = c.getMetaData();
      assertEquals(List.of(), tables(md, "TABLE"));
      exec(c, "CREATE TABLE t1 (k BIGINT) ORDER BY k");
      assertEquals(List.of("main.t1:TABLE"), tables(md, "TABLE"));
      exec(c, "DROP TABLE t1");
      assertEquals(List.of(), tables(md, "TABLE"), "dropped on this connection");
      exec(other, "CREATE TABLE Later (k BIGINT) ORDER BY k");
      assertEquals(List.of("main.Later:TABLE"), tables(md, "TABLE"), "created on another one");
      assertEquals("0", JdbcTestSupport.one(c, "SELECT count(*) FROM later"), "found ignoring case");
      exec(other, "DROP TABLE Later");
      assertEquals(List.of(), tables(md, "TABLE"), "dropped on another one");
    }
  }
}
