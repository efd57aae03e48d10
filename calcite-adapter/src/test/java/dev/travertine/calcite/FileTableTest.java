package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static dev.travertine.calcite.JdbcTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.calcite.vectorized.VectorizedAggregate;
import dev.travertine.calcite.vectorized.VectorizedFilter;
import dev.travertine.calcite.vectorized.VectorizedScan;
import dev.travertine.io.FileIO;
import dev.travertine.io.FileIOs;
import dev.travertine.io.S3ProxyFixture;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
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
      // Embedded, without user_files_path, any path the process can read.
      Path outside = dir.resolve("elsewhere");
      try (FileIO io = FileIOs.open(outside.toString(), Map.of())) {
        PlainOrcFiles.write(io, "x.orc", 0, 10);
      }
      assertEquals("10", one(c, "SELECT count(*) FROM TABLE(file('" + outside.resolve("x.orc") + "'))"));
      assertEquals("10", one(c, "SELECT count(*) FROM TABLE(file('../elsewhere/x.orc'))"));
    }
    // With user_files_path (a server always sets it), only under it.
    try (Connection c = DriverManager.getConnection("jdbc:travertine:" + dir.resolve("confined")
        + ";user_files_path=" + dir.resolve("user_files"))) {
      assertEquals("3000", one(c, "SELECT count(*) FROM TABLE(file('logs/part-*.orc'))"));
      SQLException e = assertThrows(SQLException.class,
          () -> one(c, "SELECT count(*) FROM TABLE(file('../elsewhere/x.orc'))"));
      assertTrue(e.getMessage().contains("file() reads only under " + dir.resolve("user_files")), e.getMessage());
      e = assertThrows(SQLException.class, () -> one(c, "SELECT count(*) FROM TABLE(file('/etc/*.orc'))"));
      assertTrue(e.getMessage().contains("(user_files_path)"), e.getMessage());
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
      // the engine's operators run over the files, reading only the columns used; the same answers without them
      String plan = String.join("\n", JdbcTestSupport.rows(c, "EXPLAIN PLAN FOR SELECT dt, count(*)"
          + " FROM TABLE(file('pq/*.parquet')) WHERE id % 3 = 0 GROUP BY dt"));
      assertTrue(plan.contains("VectorizedAggregate(") && plan.contains("VectorizedFilter(")
          && plan.contains("VectorizedScan(files=[file('pq/*.parquet', 'Parquet')], project=[[id, dt]])"), plan);
      String[] queries = {
          "SELECT dt, count(*), max(name), sum(id) FROM TABLE(file('pq/*.parquet')) WHERE id % 3 = 0 GROUP BY dt"
              + " ORDER BY dt",
          "SELECT count(*) FROM TABLE(file('pq/*.parquet'))",
          "SELECT count(DISTINCT name), min(id), max(dt) FROM TABLE(file('pq/?.parquet'))",
          "SELECT id, name FROM TABLE(file('pq/*.parquet')) WHERE name LIKE 'n4999%' ORDER BY id DESC LIMIT 3",
          "SELECT c.id, c.name FROM TABLE(file('pq/a.parquet')) c JOIN TABLE(file('pq/noext.bin', 'Parquet')) o ON c.id = o.id"
              + " WHERE c.id < 5 ORDER BY 1"};
      for (String q : queries) {
        exec(c, "SET vectorized_execution = 1");
        List<String> vectorized = JdbcTestSupport.rows(c, q);
        exec(c, "SET vectorized_execution = 0");
        assertEquals(JdbcTestSupport.rows(c, q), vectorized, q);
      }
      exec(c, "SET vectorized_execution = 1");
      exec(c, "CREATE TABLE p (id BIGINT, name VARCHAR, dt DATE) ORDER BY id");
      assertEquals(50_000, update(c, "INSERT INTO p SELECT * FROM TABLE(file('pq/?.parquet'))"));
      assertEquals("50000, 5000, 1970-01-01, 1972-09-26",
          one(c, "SELECT count(*), count(*) - count(name), min(dt), max(dt) FROM p"));
      // that INSERT ran as one load through the Parquet reader (FileLoad), as its log entry and its errors show
      assertEquals("50000, 50000", one(c, "SELECT result_rows, read_rows FROM system.query_log"
          + " WHERE query LIKE 'INSERT INTO p SELECT%' AND exception IS NULL"));
      exec(c, "CREATE TABLE narrow (id BIGINT, name VARCHAR, dt SMALLINT) ORDER BY id");
      SQLException bad = assertThrows(SQLException.class,
          () -> update(c, "INSERT INTO narrow SELECT * FROM TABLE(file('pq/a.parquet'))"));
      assertTrue(bad.getMessage().contains("column dt: cannot load DATE values into SMALLINT"), bad.getMessage());
      // a column list, or anything but SELECT *, takes Calcite's path
      exec(c, "CREATE TABLE two (id BIGINT, name VARCHAR) ORDER BY id");
      assertEquals(10, update(c, "INSERT INTO two SELECT id, name FROM TABLE(file('pq/a.parquet')) WHERE id < 10"));
      SQLException e = assertThrows(SQLException.class, () -> one(c, "SELECT count(*) FROM TABLE(file('pq/noext.bin'))"));
      assertTrue(e.getMessage().contains("cannot tell the format of 'pq/noext.bin'"), e.getMessage());
      e = assertThrows(SQLException.class, () -> one(c, "SELECT count(*) FROM TABLE(file('pq/a.parquet', 'Avro'))"));
      assertTrue(e.getMessage().contains("unknown format 'Avro'"), e.getMessage());
      e = assertThrows(SQLException.class, () -> one(c, "SELECT count(*) FROM TABLE(file('pq/noext.bin', 'ORC'))"));
      assertTrue(e.getMessage().contains("noext.bin"), e.getMessage());
    }
  }

  /**
   * Two views over one file, each read twice, whose scans read the same columns in another order
   * (x: b, a; y: a, b): each use gets its own view's rows. (Their EXPLAIN texts differ by the
   * scans' projections and the row types, so they could never be taken for one shared subplan;
   * today the joins over file scans plan in Calcite's operators.)
   */
  @Test
  void sharedSubplansOverAFileTellReorderedColumnsApart() throws Exception {
    Path uf = java.nio.file.Files.createDirectories(dir.resolve("user_files/share"));
    StringBuilder csv = new StringBuilder();
    for (int i = 0; i < 500; i++) {
      csv.append(i % 7).append(',').append(i % 5).append('\n');
    }
    java.nio.file.Files.writeString(uf.resolve("ab.csv"), csv);
    String file = "TABLE(file('share/ab.csv', 'CSV', 'a Int32, b Int32'))";
    String q = "WITH x AS (SELECT b, sum(a) AS s FROM " + file + " GROUP BY b), "
        + "y AS (SELECT a, sum(b) AS s FROM " + file + " GROUP BY a) "
        + "SELECT x1.b, x1.s, x2.s, y1.s, y2.s FROM x x1 JOIN x x2 ON x1.b = x2.b "
        + "JOIN y y1 ON x1.b = y1.a JOIN y y2 ON y1.a = y2.a ORDER BY x1.b";
    try (Connection c = connect()) {
      String plan = String.join("\n", JdbcTestSupport.rows(c, "EXPLAIN PLAN FOR " + q));
      List<String> vectorized = JdbcTestSupport.rows(c, q);
      exec(c, "SET vectorized_execution = 0");
      List<String> calcite = JdbcTestSupport.rows(c, q);
      assertEquals(calcite, vectorized, plan);
      assertEquals(5, vectorized.size());
      assertTrue(plan.contains("project=[[b, a]]"), plan);
    }
  }

  @Test
  void textFilesWithInferredOrGivenColumns() throws Exception {
    Path uf = java.nio.file.Files.createDirectories(dir.resolve("user_files/text"));
    StringBuilder csv = new StringBuilder("id,name,price,day,ok\n");
    for (int i = 0; i < 3000; i++) {
      csv.append(i).append(",\"n ").append(i).append("\",").append(i / 4.0).append(",2024-01-")
          .append(String.format("%02d", 1 + i % 28)).append(',').append(i % 2 == 0).append('\n');
    }
    java.nio.file.Files.writeString(uf.resolve("a.csv"), csv);
    try (var out = new java.util.zip.GZIPOutputStream(java.nio.file.Files.newOutputStream(uf.resolve("b.csv.gz")))) {
      out.write("id,name,price,day,ok\n5000,,0.5,2025-12-31,false\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    java.nio.file.Files.writeString(uf.resolve("plain.csv"), "1,x,2024-01-01\n2,,2024-01-02\n");
    java.nio.file.Files.writeString(uf.resolve("t.tsv"), "7\tseven\\tab\n\\N\tnull id\n");
    java.nio.file.Files.writeString(uf.resolve("j.jsonl"), "{\"k\": 1, \"s\": \"a\", \"when\": \"2024-05-06 07:08:09\"}\n"
        + "{\"k\": 2.5, \"tags\": [1, 2], \"s\": null}\n");
    java.nio.file.Files.writeString(uf.resolve("bad.csv"), "id,v\n1,2\n2,x\n");
    try (Connection c = connect()) {
      assertEquals("3001, 4503500, 1124625.5, 2024-01-01, 2025-12-31, 1500, 3000",
          one(c, "SELECT count(*), sum(id), sum(price), min(\"day\"), max(\"day\"), count(*) FILTER (WHERE ok),"
              + " count(name) FROM TABLE(file('text/*.csv*'))".replace("*.csv*", "{a.csv,b.csv.gz}")));
      assertEquals("2, 3, 1, 2024-01-02",
          one(c, "SELECT count(*), sum(c1), count(c2), max(c3) FROM TABLE(file('text/plain.csv'))"));
      assertEquals("7 seven\tab;null null id;", String.join(";", JdbcTestSupport.rows(c,
          "SELECT a, b FROM TABLE(file('text/t.tsv', 'TSV', 'a Nullable(Int64), b String')) ORDER BY a NULLS LAST"))
          .replace(", ", " ") + ";");
      assertEquals("2, 3.5, 2024-05-06 07:08:09.000, [1, 2], 1",
          one(c, "SELECT count(*), sum(k), max(\"when\"), max(tags), count(s) FROM TABLE(file('text/j.jsonl'))"));
      exec(c, "CREATE TABLE loaded (id BIGINT NOT NULL, name VARCHAR, price DOUBLE, \"day\" DATE, ok BOOLEAN) ORDER BY id");
      assertEquals(3001, update(c, "INSERT INTO loaded SELECT * FROM TABLE(file('text/{a,b}.csv*', 'CSV'))"));
      assertEquals("3001, 1", one(c, "SELECT count(*), count(*) - count(name) FROM loaded"));
      SQLException e = assertThrows(SQLException.class, () -> one(c, "SELECT sum(v) FROM TABLE(file('text/bad.csv',"
          + " 'CSVWithNames', 'id INT, v INT'))"));
      assertTrue(e.getMessage().contains("bad.csv:3: column v: cannot read 'x' as INTEGER"), e.getMessage());
      e = assertThrows(SQLException.class, () -> one(c, "SELECT count(*) FROM TABLE(file('text/plain.csv', 'CSV',"
          + " 'a DECIMAL(10, 2), b BLOB'))"));
      assertTrue(e.getMessage().contains("structure: unknown type 'BLOB'"), e.getMessage());
      e = assertThrows(SQLException.class, () -> one(c, "SELECT count(*) FROM TABLE(file('text/plain.csv', 'Parquet',"
          + " 'a INT'))"));
      assertTrue(e.getMessage().contains("a structure is for text formats"), e.getMessage());
    }
  }
}
