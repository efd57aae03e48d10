package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static dev.travertine.calcite.JdbcTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.calcite.dml.TableLoad;
import dev.travertine.formats.FileLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SELECT … INTO OUTFILE: a table round-trips through Parquet and the text formats. */
class IntoOutfileTest {
  @TempDir Path dir;

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:travertine:" + dir);
  }

  private static final String COLUMNS = "id BIGINT NOT NULL, b BOOLEAN, t TINYINT, sm SMALLINT, i INTEGER, r REAL,"
      + " d DOUBLE, dc DECIMAL(12, 3), big DECIMAL(30, 4), s VARCHAR, dt DATE, ts TIMESTAMP";

  private static void fill(Connection c) throws SQLException {
    exec(c, "CREATE TABLE src (" + COLUMNS + ") ORDER BY id");
    exec(c, "INSERT INTO src VALUES (1, TRUE, -128, 32767, -2147483648, 1.5, -0.125, 12.345, CAST('-123456789012345.2345' AS DECIMAL(30, 4)),"
        + " U&'x, \"y\"\\000Atab\\0009end \\005C', DATE '2024-02-29', TIMESTAMP '2024-02-29 23:59:58.123'),"
        + " (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),"
        + " (3, FALSE, 127, -32768, 2147483647, -300, 1e-300, -0.5, 0, '', DATE '1969-12-31', TIMESTAMP '1970-01-01 00:00:00')");
    assertEquals(5000, update(c, "INSERT INTO src SELECT 10 + number, MOD(number, 2) = 0, CAST(MOD(number, 100) AS TINYINT),"
        + " CAST(number AS SMALLINT), CAST(number * 3 AS INTEGER), CAST(number AS REAL) / 4, number / 7.0,"
        + " CAST(number AS DECIMAL(12, 3)) / 8, CAST(number AS DECIMAL(30, 4)), 'v' || CAST(number AS VARCHAR),"
        + " DATE '2000-01-01' + CAST(number AS INTEGER) * INTERVAL '1' DAY,"
        + " TIMESTAMP '2000-01-01 00:00:00' + CAST(number AS INTEGER) * INTERVAL '1' SECOND FROM TABLE(numbers(5000))"));
  }

  private static final String ALL = "SELECT * FROM %s ORDER BY id";

  @Test void aTableRoundTripsThroughEveryFormat() throws Exception {
    try (Connection c = connect()) {
      fill(c);
      List<String> expected = JdbcTestSupport.rows(c, String.format(ALL, "src"));
      for (String f : List.of("out/t.parquet", "out/t.csv", "out/t.tsv.gz", "out/t.tsv.zst", "out/t.jsonl")) {
        assertEquals(5003, update(c, "SELECT * FROM src INTO OUTFILE '" + f + "'"), f);
        // and straight back through file(), columns and types inferred where the format carries no schema
        if (!f.contains(".tsv")) {
          assertEquals("5003", one(c, "SELECT count(*) FROM TABLE(file('" + f + "'))"), f);
        }
        assertTrue(Files.size(dir.resolve("user_files").resolve(f)) > 0);
      }
      // Parquet back through file() and through the loader
      assertEquals(expected, JdbcTestSupport.rows(c, String.format(ALL, "TABLE(file('out/t.parquet'))")));
      exec(c, "CREATE TABLE back (" + COLUMNS + ") ORDER BY id");
      TableLoad.load(c, new TableLoad.FilesRequest("back", FileLoad.Kind.PARQUET,
          List.of(FileLoad.Input.local(dir.resolve("user_files/out/t.parquet"))), null, null));
      assertEquals(expected, JdbcTestSupport.rows(c, String.format(ALL, "back")));
      // CSV and TSV back through the text loader
      for (String f : List.of("out/t.csv", "out/t.tsv.gz", "out/t.tsv.zst", "out/t.jsonl")) {
        exec(c, "DELETE FROM back");
        var format = f.contains(".csv") ? dev.travertine.formats.TextFormat.csv()
            : f.contains(".jsonl") ? dev.travertine.formats.TextFormat.jsonEachRow() : dev.travertine.formats.TextFormat.tsv();
        TableLoad.load(c, new TableLoad.Request("back", format, 0,
            List.of(dev.travertine.formats.BulkLoad.Source.file(dir.resolve("user_files").resolve(f))), null, null));
        assertEquals(expected, JdbcTestSupport.rows(c, String.format(ALL, "back")), f);
      }
    }
  }

  @Test void formatsHeadersAndJsonLines() throws Exception {
    try (Connection c = connect()) {
      exec(c, "CREATE TABLE t (id INTEGER NOT NULL, s VARCHAR, d DATE) ORDER BY id");
      exec(c, "INSERT INTO t VALUES (1, 'a\"b', DATE '2024-01-02'), (2, NULL, NULL)");
      assertEquals(2, update(c, "SELECT id, s AS \"name\", d FROM t ORDER BY id INTO OUTFILE 'h.txt' FORMAT CSVWithNames"));
      assertEquals("\"id\",\"name\",\"d\"\n1,\"a\"\"b\",2024-01-02\n2,,\n", Files.readString(dir.resolve("user_files/h.txt")));
      assertEquals(2, update(c, "SELECT * FROM t ORDER BY id INTO OUTFILE 'j.jsonl'"));
      assertEquals("{\"id\":1,\"s\":\"a\\\"b\",\"d\":\"2024-01-02\"}\n{\"id\":2,\"s\":null,\"d\":null}\n",
          Files.readString(dir.resolve("user_files/j.jsonl")));
      assertEquals(1, update(c, "SELECT id FROM t WHERE id = 1 INTO OUTFILE 'plain' FORMAT TabSeparated"));
      assertEquals("1\n", Files.readString(dir.resolve("user_files/plain")));
      // the clause is found only outside quotes: a string that spells it is data
      assertEquals("x INTO OUTFILE 'y'", one(c, "SELECT 'x INTO OUTFILE ''y''' FROM t WHERE id = 1"));
    }
  }

  /** Embedded, without user_files_path, a path outside the data directory's user_files is the user's to choose. */
  @Test void embeddedWritesWhereItIsTold() throws Exception {
    Path elsewhere = dir.getParent().resolve(dir.getFileName() + "-out").resolve("abs.csv");
    try (Connection c = connect()) {
      exec(c, "CREATE TABLE t (id INTEGER NOT NULL) ORDER BY id");
      exec(c, "INSERT INTO t VALUES (1), (0)");
      assertEquals(2, update(c, "SELECT * FROM t ORDER BY id INTO OUTFILE '" + elsewhere + "'"));
      assertEquals("0\n1\n", Files.readString(elsewhere));
    } finally {
      Files.deleteIfExists(elsewhere);
      Files.deleteIfExists(elsewhere.getParent());
    }
  }

  /** With user_files_path (a server always has it), INTO OUTFILE writes only there. */
  @Test void refusalsLeaveNothingBehind() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:travertine:" + dir + ";user_files_path="
        + dir.resolve("user_files"))) {
      exec(c, "CREATE TABLE t (id INTEGER NOT NULL) ORDER BY id");
      exec(c, "INSERT INTO t VALUES (1), (0)");
      SQLException e = assertThrows(SQLException.class, () -> update(c, "SELECT * FROM t INTO OUTFILE '../escape.csv'"));
      assertTrue(e.getMessage().contains("INTO OUTFILE writes only under"), e.getMessage());
      assertFalse(Files.exists(dir.resolve("escape.csv")));
      e = assertThrows(SQLException.class, () -> update(c, "SELECT * FROM t INTO OUTFILE '/tmp/abs.csv'"));
      assertTrue(e.getMessage().contains("INTO OUTFILE writes only under"), e.getMessage());
      assertEquals(2, update(c, "SELECT * FROM t INTO OUTFILE 'once.csv'"));
      e = assertThrows(SQLException.class, () -> update(c, "SELECT * FROM t INTO OUTFILE 'once.csv'"));
      assertTrue(e.getMessage().contains("once.csv already exists (add TRUNCATE to replace it)"), e.getMessage());
      assertEquals(1, update(c, "SELECT * FROM t WHERE id = 1 INTO OUTFILE 'once.csv' TRUNCATE"));
      assertEquals("1\n", Files.readString(dir.resolve("user_files/once.csv")));
      e = assertThrows(SQLException.class, () -> update(c, "SELECT * FROM t INTO OUTFILE 'x.avro' FORMAT Avro"));
      assertTrue(e.getMessage().contains("unknown format 'Avro'"), e.getMessage());
      // a query that fails half-way publishes nothing
      e = assertThrows(SQLException.class, () -> update(c, "SELECT 10 / id FROM t INTO OUTFILE 'div.csv'"));
      assertFalse(Files.exists(dir.resolve("user_files/div.csv")));
      try (var s = Files.list(dir.resolve("user_files"))) {
        assertEquals(List.of("once.csv"), s.map(p -> p.getFileName().toString()).sorted().toList());
      }
      exec(c, "SET readonly = 1");
      e = assertThrows(SQLException.class, () -> update(c, "SELECT * FROM t INTO OUTFILE 'ro.csv'"));
      assertTrue(e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("readonly"), e.getMessage());
      assertFalse(Files.exists(dir.resolve("user_files/ro.csv")));
    }
  }
}
