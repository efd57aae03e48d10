package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static dev.travertine.calcite.JdbcTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.io.FileIO;
import dev.travertine.io.FileIOs;
import dev.travertine.io.S3ProxyFixture;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** file() and s3() over plain ORC files written by ORC's own writer, with globs. */
class OrcFilesTableTest {
  @TempDir Path dir;
  private static S3ProxyFixture s3;

  @BeforeAll
  static void start() throws Exception {
    s3 = new S3ProxyFixture("files-bucket");
  }

  @AfterAll
  static void stop() throws Exception {
    s3.close();
  }

  private Connection connect() throws SQLException {
    StringBuilder url = new StringBuilder("jdbc:travertine:" + dir);
    s3.properties().forEach((k, v) -> url.append(';').append(k).append('=').append(v));
    return DriverManager.getConnection(url.toString());
  }

  @Test
  void localFilesUnderUserFiles() throws Exception {
    try (FileIO io = FileIOs.open(dir.resolve("user_files").toString(), Map.of())) {
      for (int i = 0; i < 3; i++) {
        PlainOrcFiles.write(io, "logs/part-" + i + ".orc", i * 1000L, 1000);
      }
      PlainOrcFiles.write(io, "logs/other.txt.orc", 99_000, 5);
    }
    try (Connection c = connect()) {
      assertEquals("3000, 4498500", one(c, "SELECT count(*), sum(id) FROM TABLE(file('logs/part-*.orc'))"));
      assertEquals("n1234", one(c, "SELECT name FROM TABLE(file('logs/part-?.orc')) WHERE id = 1234"));
      exec(c, "CREATE TABLE t (id BIGINT, name VARCHAR) ORDER BY id");
      assertEquals(3005, update(c, "INSERT INTO t SELECT * FROM TABLE(file('logs/*.orc'))"));
      assertEquals("3005", one(c, "SELECT count(*) FROM t"));
      SQLException e = assertThrows(SQLException.class,
          () -> one(c, "SELECT count(*) FROM TABLE(file('logs/nothing-*.orc'))"));
      assertTrue(e.getMessage().contains("No files match logs/nothing-*.orc"), e.getMessage());
      e = assertThrows(SQLException.class, () -> one(c, "SELECT count(*) FROM TABLE(file('../../etc/*.orc'))"));
      assertTrue(e.getMessage().contains("file() reads only under"), e.getMessage());
    }
  }

  @Test
  void s3FilesWithGlobs() throws Exception {
    try (FileIO io = FileIOs.open("s3://files-bucket/events", s3.properties())) {
      PlainOrcFiles.write(io, "2024-01/a.orc", 0, 500);
      PlainOrcFiles.write(io, "2024-02/b.orc", 500, 500);
      PlainOrcFiles.write(io, "2025-01/c.orc", 1000, 500);
    }
    try (Connection c = connect()) {
      assertEquals("1500", one(c, "SELECT count(*) FROM TABLE(s3('s3://files-bucket/events/**.orc'))"));
      assertEquals("1000, 499500",
          one(c, "SELECT count(*), sum(id) FROM TABLE(s3('s3://files-bucket/events/2024-*/*.orc'))"));
      assertEquals("1000", one(c, "SELECT count(*) FROM TABLE(s3('s3://files-bucket/events/{2024-01,2025-01}/*.orc'))"));
      SQLException e = assertThrows(SQLException.class,
          () -> one(c, "SELECT count(*) FROM TABLE(s3('hdfs://x/y/*.orc'))"));
      assertTrue(e.getMessage().contains("s3() needs a s3:// location"), e.getMessage());
    }
  }
}
