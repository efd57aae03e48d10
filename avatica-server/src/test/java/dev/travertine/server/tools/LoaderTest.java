package dev.travertine.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoaderTest {
  @TempDir Path dir;

  private List<String> rows(String url, String sql) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3));
      }
    }
    return out;
  }

  @Test
  void loadsCsvAndReportsBadRowsByLine() throws Exception {
    String url = "jdbc:travertine:" + dir.resolve("db");
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE l (k INT, v VARCHAR, d DATE) ORDER BY k");
    }
    Path csv = dir.resolve("in.csv");
    Files.writeString(csv, "k,v,d\n1,one,2024-01-01\n2,\"two, \"\"quoted\"\"\",2024-01-02\n"
        + "3,\"multi\nline\",2024-01-03\nx,bad,2024-01-04\n5,,2024-13-01\n6,,\n");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    int rc = Loader.run(new Loader.Options(url, null, null, "l", "csv", true, 5, 2, List.of(csv), false), ps, ps);
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, text);
    assertTrue(text.contains("in.csv:6: column k: cannot read 'x' as INTEGER"), text);
    assertTrue(text.contains("in.csv:7: column d: cannot read '2024-13-01' as DATE"), text);
    assertTrue(text.contains("loaded 4 rows into l (2 bad rows skipped)"), text);
    assertEquals(List.of("1|one|2024-01-01", "2|two, \"quoted\"|2024-01-02", "3|multi\nline|2024-01-03",
        "6|null|null"), rows(url, "SELECT k, v, d FROM l ORDER BY k"));

    // Without --max-errors the first bad row fails the load, and nothing of it is loaded.
    bytes.reset();
    rc = Loader.run(new Loader.Options(url, null, null, "l", "csv", true, 0, 100, List.of(csv), false), ps, ps);
    assertEquals(1, rc);
    text = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("stopped: " + csv + ":6: column k: cannot read 'x' as INTEGER; nothing was loaded"), text);
    assertEquals(text.indexOf("cannot read 'x'"), text.lastIndexOf("cannot read 'x'"), "the bad row once: " + text);
    assertEquals(4, rows(url, "SELECT k, v, d FROM l").size());

    // One row is "1 row".
    bytes.reset();
    Path one = Files.writeString(dir.resolve("one.csv"), "7,seven,2024-01-07\n");
    rc = Loader.run(new Loader.Options(url, null, null, "l", "csv", false, 0, 100, List.of(one), false), ps, ps);
    assertEquals(0, rc);
    text = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("loaded 1 row into l\n"), text);
    assertTrue(text.contains("1 row, "), text);
  }

  @Test
  void loadsOrcFiles() throws Exception {
    String url = "jdbc:travertine:" + dir.resolve("db2");
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE o (k BIGINT, v VARCHAR, d DATE) ORDER BY k");
    }
    Path file = dir.resolve("in.orc");
    org.apache.orc.TypeDescription schema = org.apache.orc.TypeDescription.fromString(
        "struct<k:bigint,v:string,d:date>");
    try (org.apache.orc.Writer w = org.apache.orc.OrcFile.createWriter(new org.apache.hadoop.fs.Path(file.toUri()),
        org.apache.orc.OrcFile.writerOptions(new org.apache.hadoop.conf.Configuration(false)).setSchema(schema))) {
      var batch = schema.createRowBatch();
      for (int i = 0; i < 3000; i++) {
        int r = batch.size++;
        ((org.apache.hadoop.hive.ql.exec.vector.LongColumnVector) batch.cols[0]).vector[r] = i;
        ((org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector) batch.cols[1]).setVal(r,
            ("v" + i).getBytes(StandardCharsets.UTF_8));
        ((org.apache.hadoop.hive.ql.exec.vector.LongColumnVector) batch.cols[2]).vector[r] = 19723 + i % 10;
        if (batch.size == batch.getMaxSize()) {
          w.addRowBatch(batch);
          batch.reset();
        }
      }
      w.addRowBatch(batch);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    int rc = Loader.run(new Loader.Options(url, null, null, "o", "orc", false, 0, 1000, List.of(file), false), ps, ps);
    assertEquals(0, rc, bytes.toString(StandardCharsets.UTF_8));
    assertEquals(List.of("3000|4498500|2024-01-01"), rows(url, "SELECT count(*), sum(k), min(d) FROM o"));
  }
}
