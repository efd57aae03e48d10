package dev.travertine.calcite.codegen;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Generated code is compiled once per shape: queries that differ only in their literals share it. */
class CodeCompilerTest {
  @TempDir Path dir;
  private long untemplatedBefore;

  @BeforeEach
  void countFallbacks() {
    untemplatedBefore = CodeCompiler.INSTANCE.untemplated();
  }

  @AfterEach
  void everyTemplateCompiled() {
    assertEquals(untemplatedBefore, CodeCompiler.INSTANCE.untemplated(), "no code fell back to compiling as written");
  }

  @Test
  void queriesDifferingInLiteralsCompileOnceAndKeepTheirOwnValues() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE t(k INTEGER PRIMARY KEY, a INTEGER, b BIGINT, x DOUBLE, s VARCHAR(10))");
      exec(c, "INSERT INTO t VALUES(1, 2, 10, 1.5, 'p'), (2, -3, 20, 2.5, 'q'), (3, NULL, 30, NULL, NULL)");
      String shape = "SELECT k, a * %d + %d, b - %d, x * %s, s || '%s' FROM t WHERE k > 0 ORDER BY k";
      assertEquals(List.of("1, 84, 9, 2.25, px", "2, -121, 19, 3.75, qx", "3, null, 29, null, null"),
          rows(c, String.format(shape, 41, 2, 1, "1.5", "x")));
      long before = CodeCompiler.INSTANCE.compilations();
      assertEquals(List.of("1, 39, 3, 3.0, pyz", "2, -46, 13, 5.0, qyz", "3, null, 23, null, null"),
          rows(c, String.format(shape, 17, 5, 7, "2.0", "yz")));
      assertEquals(before, CodeCompiler.INSTANCE.compilations(), "the second query reused the first one's class");
    }
  }

  @Test
  void constantsCalciteHoistsIntoInnerClassesAreTakenOutToo() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE t(k INTEGER PRIMARY KEY, a INTEGER)");
      exec(c, "INSERT INTO t VALUES(1, 2), (2, 2), (3, -1)");
      assertEquals(List.of("-3584", "7168"), rows(c, "SELECT DISTINCT 56 * 64 * a AS v FROM t ORDER BY v"));
      long before = CodeCompiler.INSTANCE.compilations();
      assertEquals(List.of("-15", "30"), rows(c, "SELECT DISTINCT 3 * 5 * a AS v FROM t ORDER BY v"));
      assertEquals(before, CodeCompiler.INSTANCE.compilations());
      // a division by zero in a branch no row takes is still not evaluated
      assertEquals(List.of("1", "2", "3"), rows(c, "SELECT CASE WHEN a > 5 THEN 7 / 0 ELSE k END FROM t ORDER BY k"));
    }
  }

  /** Calcite's nested record classes (grouping keys, accumulators) keep their literals; the rest is still shared. */
  @Test
  void aggregatesWithRecordClassesShareTheirCodeToo() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE t(k INTEGER PRIMARY KEY, a INTEGER)");
      exec(c, "INSERT INTO t VALUES(1, 2), (2, 2), (3, -1)");
      String shape = "SELECT a * %d AS g, COUNT(*) * %d, SUM(k + %d) FROM t GROUP BY a * %1$d ORDER BY g";
      assertEquals(List.of("-7, 5, 4", "14, 10, 5"), rows(c, String.format(shape, 7, 5, 1)));
      long before = CodeCompiler.INSTANCE.compilations();
      assertEquals(List.of("-3, 3, 13", "6, 6, 23"), rows(c, String.format(shape, 3, 3, 10)));
      assertEquals(before, CodeCompiler.INSTANCE.compilations());
      assertEquals(List.of("2, 3"), rows(c, "SELECT DISTINCT 49 + 25 - 72, COUNT(*) FROM t"));
      before = CodeCompiler.INSTANCE.compilations();
      assertEquals(List.of("7, 3"), rows(c, "SELECT DISTINCT 4 + 5 - 2, COUNT(*) FROM t"));
      assertEquals(before, CodeCompiler.INSTANCE.compilations());
    }
  }

  /**
   * Two inner classes each with a constant of the same (value-derived) name, beside one of
   * another name: each keeps a field of its own (random/expr/slt_good_18).
   */
  @Test
  void sameNamedConstantsOfInnerClassesStayApart() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE t(k INTEGER PRIMARY KEY)");
      assertEquals(List.of("null"), rows(c,
          "SELECT ALL + CASE + - AVG ( DISTINCT + 8 ) WHEN 87 * + 87 THEN COUNT ( * ) + - 0 END - - 40"));
      exec(c, "INSERT INTO t VALUES(1)");
      assertEquals(List.of("null"), rows(c,
          "SELECT ALL + CASE + - AVG ( DISTINCT + 8 ) WHEN 87 * + 87 THEN COUNT ( * ) + - 0 END - - 40 FROM t"));
      assertEquals(List.of("41"), rows(c,
          "SELECT ALL + CASE + - AVG ( DISTINCT + 8 ) WHEN -8 THEN COUNT ( * ) + - 0 END - - 40 FROM t"));
    }
  }
}
