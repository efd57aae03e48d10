package dev.travertine.server.shell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScriptSplitterTest {
  @Test
  void splitsAtSemicolonsOutsideLiteralsAndComments() throws Exception {
    List<ScriptSplitter.Statement> s = ScriptSplitter.split(
        "-- head; comment\nSELECT 'a;b', \"c;\"\"d\", `e;f` /* g; */ FROM t;\n\n  ;; VALUES 'it''s'\n");
    assertEquals(List.of(
        new ScriptSplitter.Statement("SELECT 'a;b', \"c;\"\"d\", `e;f` /* g; */ FROM t", 2, 1),
        new ScriptSplitter.Statement("VALUES 'it''s'", 4, 6)), s);
  }

  @Test
  void emptyAndCommentOnlyScriptsHaveNoStatements() throws Exception {
    assertEquals(List.of(), ScriptSplitter.split(""));
    assertEquals(List.of(), ScriptSplitter.split(" ; -- nothing\n/* at all */ ;\n"));
  }

  @Test
  void anUnclosedLiteralIdentifierOrCommentIsAnErrorAtItsStart() {
    ScriptSplitter.UnterminatedException e = assertThrows(ScriptSplitter.UnterminatedException.class,
        () -> ScriptSplitter.split("SELECT 1;\nSELECT 'abc FROM hits;\nSELECT 42;\n"));
    assertEquals(2, e.line());
    assertEquals(8, e.column());
    assertEquals("A string literal is not closed: the input ends inside it", e.getMessage());
    assertEquals(1, assertThrows(ScriptSplitter.UnterminatedException.class,
        () -> ScriptSplitter.split("SELECT \"x")).line());
    assertEquals(3, assertThrows(ScriptSplitter.UnterminatedException.class,
        () -> ScriptSplitter.split("SELECT 1\n\n/* never closed; SELECT 2")).line());
  }

  @Test
  void positionsInAStatementMapToTheScript() {
    ScriptSplitter.Statement s = new ScriptSplitter.Statement("SELECT", 4, 3);
    assertArrayEquals(new int[] {4, 13}, s.scriptPosition(1, 11));
    assertArrayEquals(new int[] {5, 7}, s.scriptPosition(2, 7));
  }

  @Test
  void aTrailingFormatClauseIsTakenOffQueriesOnly() {
    FormatClause.Split q = FormatClause.split("SELECT * FROM t FORMAT JSONEachRow");
    assertEquals("SELECT * FROM t", q.sql());
    assertEquals(OutputFormat.Kind.JSON_EACH_ROW, q.format().kind());
    assertEquals(null, FormatClause.split("INSERT INTO t FORMAT CSV").format());
    assertEquals(null, FormatClause.split("SELECT 1 INTO OUTFILE 'x.csv' FORMAT CSV").format());
    assertEquals(null, FormatClause.split("SELECT 'FORMAT CSV'").format());
    assertThrows(IllegalArgumentException.class, () -> FormatClause.split("SELECT 1 FORMAT Nope"));
  }

  @Test
  void whatAStatementDidInAFewWords() {
    assertEquals("3 rows inserted", ScriptRunner.done("insert into t values (1), (2), (3)", 3));
    assertEquals("1 row deleted", ScriptRunner.done("DELETE FROM t WHERE k = 1", 1));
    assertEquals("CREATE TABLE: ok", ScriptRunner.done("CREATE OR REPLACE TABLE t (k INT)", 0));
    assertEquals("SYSTEM STOP MERGES: ok", ScriptRunner.done("SYSTEM STOP MERGES t", 0));
    assertEquals("SYSTEM FLUSH: ok", ScriptRunner.done("SYSTEM FLUSH", 0));
    assertEquals("SET: ok", ScriptRunner.done("SET max_threads = 1", 0));
  }
}
