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

/** file() and s3() over plain ORC and Parquet files written by their own writers, with globs. */
class FileTableTest {
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

  @Test
  void parquetFilesLocalAndOnS3() throws Exception {
    try (FileIO io = FileIOs.open(dir.resolve("user_files").toString(), Map.of())) {
      PlainParquetFiles.write(io, "pq/a.parquet", 0, 30_000);
      PlainParquetFiles.write(io, "pq/b.parquet", 30_000, 20_000);
      PlainParquetFiles.write(io, "pq/noext.bin", 0, 10);
    }
    try (FileIO io = FileIOs.open("s3://files-bucket/pq", s3.properties())) {
      PlainParquetFiles.write(io, "2024/x.parquet", 0, 1000);
      PlainParquetFiles.write(io, "2025/y.parquet", 1000, 1000);
    }
    try (Connection c = connect()) {
      assertEquals("50000, 1249975000, 45000",
          one(c, "SELECT count(*), sum(id), count(name) FROM TABLE(file('pq/*.parquet'))"));
      assertEquals("n1234, 1970-08-23", one(c, "SELECT name, dt FROM TABLE(file('pq/*.parquet')) WHERE id = 1234"));
      assertEquals("10", one(c, "SELECT count(*) FROM TABLE(file('pq/noext.bin', 'Parquet'))"));
      assertEquals("2000, 1999000", one(c, "SELECT count(*), sum(id) FROM TABLE(s3('s3://files-bucket/pq/**.parquet'))"));
      exec(c, "CREATE TABLE p (id BIGINT, name VARCHAR, dt DATE) ORDER BY id");
      assertEquals(50_000, update(c, "INSERT INTO p SELECT * FROM TABLE(file('pq/?.parquet'))"));
      assertEquals("50000, 5000, 1970-01-01, 1972-09-26",
          one(c, "SELECT count(*), count(*) - count(name), min(dt), max(dt) FROM p"));
      SQLException e = assertThrows(SQLException.class, () -> one(c, "SELECT count(*) FROM TABLE(file('pq/noext.bin'))"));
      assertTrue(e.getMessage().contains("cannot tell the format of 'pq/noext.bin'"), e.getMessage());
      e = assertThrows(SQLException.class, () -> one(c, "SELECT count(*) FROM TABLE(file('pq/a.parquet', 'Avro'))"));
      assertTrue(e.getMessage().contains("unknown format 'Avro'"), e.getMessage());
      e = assertThrows(SQLException.class, () -> one(c, "SELECT count(*) FROM TABLE(file('pq/noext.bin', 'ORC'))"));
      assertTrue(e.getMessage().contains("noext.bin"), e.getMessage());
    }
  }
}
