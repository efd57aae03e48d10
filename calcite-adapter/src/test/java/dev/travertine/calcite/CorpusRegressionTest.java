package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static dev.travertine.calcite.JdbcTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Wrong results the sqllogictest corpus found, reduced to their smallest form. */
class CorpusRegressionTest {
  @TempDir Path dir;

  private static final String TAB0 = "CREATE TABLE tab0(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, "
      + "col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)";

  /** index/between/1/slt_good_0.test: an IN over an empty subquery, ORed with a true condition. */
  @Test
  void inEmptySubqueryOrTrueKeepsTheRow() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, TAB0);
      exec(c, "INSERT INTO tab0 VALUES(0,6,5.6,'jtqxx',9,5.19,'qvgba')");
      assertEquals(List.of("0"), rows(c,
          "SELECT pk FROM tab0 WHERE (col3 IN (SELECT col0 FROM tab0 WHERE col0 BETWEEN 5 AND 3)) OR col3 >= 4"));
      assertEquals(List.of(), rows(c,
          "SELECT pk FROM tab0 WHERE (col3 IN (SELECT col0 FROM tab0 WHERE col0 BETWEEN 5 AND 3)) OR col3 >= 10"));
      assertEquals(List.of("0"), rows(c,
          "SELECT pk FROM tab0 WHERE col3 NOT IN (SELECT col0 FROM tab0 WHERE col0 BETWEEN 5 AND 3)"));
    }
  }

  /** FLOAT is double precision (as in PostgreSQL and SQLite): 5.19 stored is 5.19 read and compared. */
  @Test
  void floatIsDoublePrecision() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, TAB0);
      exec(c, "INSERT INTO tab0 VALUES(0,6,5.6,'jtqxx',9,5.19,'qvgba')");
      assertEquals("0", one(c, "SELECT pk FROM tab0 WHERE col4 = 5.19"));
      assertEquals("1", one(c, "SELECT count(*) FROM tab0 WHERE col1 < 5.6000001"));
      assertEquals("0", one(c, "SELECT count(*) FROM tab0 WHERE col1 < 5.6"));
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT col4 FROM tab0")) {
        assertEquals(Types.DOUBLE, rs.getMetaData().getColumnType(1));
        rs.next();
        assertEquals(5.19, rs.getDouble(1), 0.0);
      }
      exec(c, "CREATE TABLE r(x REAL)");
      exec(c, "INSERT INTO r VALUES (1.5)");
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT x FROM r")) {
        assertEquals(Types.REAL, rs.getMetaData().getColumnType(1));
      }
    }
  }

  /** index/random/10/slt_good_0.test: unary plus is the value itself, also on text. */
  @Test
  void unaryPlusIsIdentity() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, TAB0);
      exec(c, "INSERT INTO tab0 VALUES(0,6,5.6,'jtqxx',9,5.19,NULL)");
      assertEquals("jtqxx", one(c, "SELECT + col2 FROM tab0 AS cor0 WHERE 47 * - 19 IS NOT NULL"));
      assertEquals("0", one(c, "SELECT pk FROM tab0 WHERE + col5 IS NULL"));
      assertEquals("-6", one(c, "SELECT + - col0 FROM tab0"));
      assertEquals("15", one(c, "SELECT + (col0 + + col3) FROM tab0"));
    }
  }

  /** random/expr/*.test: arithmetic on a NULL literal is NULL (Calcite 1.41 failed: "not a literal"). */
  @Test
  void arithmeticOnNullLiteralIsNull() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, TAB0);
      exec(c, "INSERT INTO tab0 VALUES(0,6,5.6,'jtqxx',9,5.19,NULL)");
      assertEquals("null", one(c, "SELECT + CAST ( NULL AS INTEGER ) / 6 * + COUNT ( * ) AS col2"));
      assertEquals("null", one(c, "SELECT - CAST ( NULL AS INTEGER ) / col4 * + 52 FROM tab0 WHERE col3 <= 81"));
      assertEquals("null", one(c, "SELECT - ( + COUNT ( * ) ) + - + 32 * - CAST ( NULL AS INTEGER ) / SUM ( 79 ) * + 54 FROM tab0"));
      assertEquals("12", one(c, "SELECT col0 * 2 FROM tab0 WHERE col0 + NULL IS NULL"));
      assertEquals("null", one(c, "SELECT - CAST ( NULL AS INTEGER ) / - 27 * - 4 AS col2"));
      assertEquals(List.of("null"), rows(c, "SELECT + CAST ( NULL AS INTEGER ) + COUNT ( * ) FROM tab0"));
      assertEquals(List.of("null"), rows(c, "SELECT - CAST ( NULL AS INTEGER ) / col0 FROM tab0"));
      assertEquals(List.of("null"), rows(c, "SELECT ALL MIN ( + - 25 ) * CAST ( NULL AS INTEGER ) AS col1 FROM tab0"));
      assertEquals(List.of("null"), rows(c, "SELECT - + AVG ( 46 ) + CAST ( NULL AS INTEGER ) FROM tab0 cor0"));
      assertEquals(List.of(), rows(c, "SELECT DISTINCT * FROM tab0 WHERE col1 * - ( - col0 ) * + - CAST ( NULL AS "
          + "INTEGER ) BETWEEN + + 72 + + ( - col1 ) * - col2 AND col1"));
      assertEquals(List.of("0"), rows(c, "SELECT pk FROM tab0 WHERE NOT (col0 + NULL > 1) IS NOT NULL"));
      assertEquals(List.of(), rows(c, "SELECT pk FROM tab0 WHERE col0 NOT IN (SELECT - CAST ( NULL AS INTEGER ) * 5 / col0 "
          + "FROM tab0)"));
      assertEquals(List.of("0"), rows(c, "SELECT pk FROM tab0 WHERE EXISTS (SELECT 1 FROM tab0 AS t WHERE t.col3 + NULL "
          + "IS NULL AND t.pk = tab0.pk)"));
      assertEquals("null, 52", one(c, "SELECT + 64 + - 34 / ( - 64 ) / CAST ( NULL AS INTEGER ) * - 74 AS col2, + 52"));
    }
  }
}
