package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The remote-read settings: their defaults, SET per session, and bad values. */
class RemoteReadSettingsTest {
  @TempDir Path dir;

  private static String setting(Connection c, String name) throws SQLException {
    return one(c, "SELECT \"value\", \"default\", changed FROM system.settings WHERE name = '" + name + "'");
  }

  @Test
  void defaultsAndSessionChanges() throws Exception {
    try (Connection a = connect(dir); Connection b = connect(dir)) {
      assertEquals("1, 1, false", setting(a, "remote_filesystem_read_prefetch"));
      assertEquals("1048576, 1048576, false", setting(a, "remote_read_min_bytes_for_seek"));
      assertEquals("8388608, 8388608, false", setting(a, "remote_read_max_coalesced_bytes"));
      assertEquals("1073741824, 1073741824, false", setting(a, "filesystem_prefetch_max_memory_usage"));
      assertEquals("200, 200, false", setting(a, "filesystem_prefetches_limit"));
      assertEquals("", one(a, "SELECT \"value\" FROM system.merge_tree_settings WHERE name = 'storage'"));
      assertEquals("0, 0, false", setting(a, "enable_filesystem_cache"));
      assertEquals("8388608, 8388608, false", setting(a, "max_read_buffer_size"));
      exec(a, "SET remote_filesystem_read_prefetch = 0");
      exec(a, "SET remote_read_min_bytes_for_seek = 65536");
      assertEquals("0, 1, true", setting(a, "remote_filesystem_read_prefetch"));
      assertEquals("65536, 1048576, true", setting(a, "remote_read_min_bytes_for_seek"));
      assertEquals("1, 1, false", setting(b, "remote_filesystem_read_prefetch"), "other sessions unchanged");
      SQLException e = assertThrows(SQLException.class, () -> exec(a, "SET remote_read_max_coalesced_bytes = 10"));
      assertTrue(e.getMessage().contains("must be between 4096"), e.getMessage());
      e = assertThrows(SQLException.class, () -> exec(a, "SET filesystem_prefetches_limit = -1"));
      assertTrue(e.getMessage().contains("filesystem_prefetches_limit"), e.getMessage());
      assertEquals("200, 200, false", setting(a, "filesystem_prefetches_limit"), "unchanged by the bad value");
      e = assertThrows(SQLException.class, () -> exec(a, "CREATE TABLE t (a INTEGER) SETTINGS storage = 'ftp://x'"));
      assertTrue(e.getMessage().contains("expected s3://bucket/prefix"), e.getMessage());
    }
  }
}
