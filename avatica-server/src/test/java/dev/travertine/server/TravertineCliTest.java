package dev.travertine.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests of the command line, in this JVM: argument translation, and scripts against Calcite's
 * own {@code jdbc:calcite:} or an embedded database in a temporary directory.
 */
class TravertineCliTest {

  /** Result of one {@link TravertineCli#run} call. */
  private record Result(int code, String out, String err) {}

  private static Result run(String... args) {
    return run(new ByteArrayInputStream(new byte[0]), false, args);
  }

  private static Result run(InputStream stdin, boolean stdinIsTerminal, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code = TravertineCli.run(args, stdin, o, e, stdinIsTerminal, false);
    }
    return new Result(code, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  // --- --version, help, unknown commands -------------------------------------------------

  @Test
  void versionPrintsTheFilteredProjectVersion() {
    Result r = run("--version");
    assertEquals(0, r.code());
    assertTrue(r.out().matches("travertine \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\R"), r.out());
    assertEquals("", r.err());
  }

  @Test
  void helpListsTheSubcommands() {
    for (String[] args : new String[][] {{"help"}, {"--help"}, {"-h"}, {}}) {
      Result r = run(args);
      assertEquals(0, r.code(), List.of(args).toString());
      assertTrue(r.out().startsWith("Usage: travertine <command>"), r.out());
      for (String command : List.of("sql", "classpath", "help", "--version")) {
        assertTrue(r.out().contains("\n  " + command + " "), command + " in\n" + r.out());
      }
      assertTrue(r.out().contains("dev.travertine.jdbc.Driver"), r.out());
      assertEquals("", r.err());
    }
  }

  @Test
  void sqlHelpIsOurUsageNotAnError() {
    Result r = run("sql", "--help");
    assertEquals(0, r.code());
    assertTrue(r.out().startsWith("Usage: travertine"), r.out());
  }

  @Test
  void everySubcommandHasHelp() {
    for (String command : List.of("server", "benchmark", "load")) {
      for (String flag : List.of("--help", "-h")) {
        Result r = run(command, flag);
        assertEquals(0, r.code(), command + " " + flag + ": " + r.err());
        assertTrue(r.out().startsWith("Usage: travertine\n  " + command + " "), r.out());
        assertEquals("", r.err());
      }
    }
    assertTrue(run("load", "--help").out().contains("--max-errors N"));
    assertTrue(!run("load", "--help").out().contains("benchmark"), "only the command's own lines");
  }

  @Test
  void unknownCommandIsAUsageError() {
    Result r = run("frobnicate", "x");
    assertEquals(2, r.code());
    assertEquals("", r.out());
    assertTrue(r.err().contains("unknown command 'frobnicate'"), r.err());
  }

  @Test
  void classpathPrintsTheJvmClasspath() {
    Result r = run("classpath");
    assertEquals(0, r.code());
    assertEquals(System.getProperty("java.class.path") + System.lineSeparator(), r.out());
    assertEquals(2, run("classpath", "extra").code());
  }

  // --- sql argument translation (pure) ---------------------------------------------------

  @Test
  void sqlWithDataAndCommandInAPipe(@TempDir Path cwd) {
    List<String> args = TravertineCli.sqllineArgs(
        List.of("--data", "D", "-e", "SELECT 1", "--outputformat=csv"), cwd, false, false);
    assertEquals(List.of(
        "-d", "dev.travertine.jdbc.Driver",
        "-u", "jdbc:travertine:" + cwd.resolve("D").toAbsolutePath(),
        "--isolation=TRANSACTION_NONE",
        "-n", "", "-p", "",
        "--maxWidth=10000",
        "-e", "SELECT 1", "--outputformat=csv"), args);
  }

  @Test
  void sqlOnATerminal(@TempDir Path cwd) {
    // -e on a terminal: the script runner takes it
    assertEquals(List.of(
        "-d", "dev.travertine.jdbc.Driver",
        "-u", "jdbc:travertine:" + cwd.resolve("data").toAbsolutePath(),
        "--isolation=TRANSACTION_NONE", "-n", "", "-p", "",
        "-e", "VALUES 1"),
        TravertineCli.sqllineArgs(List.of("-e", "VALUES 1"), cwd, true, true));
    // interactive: sqlline's own defaults (banner, prompt, history); NULL shown as NULL
    assertEquals(List.of(
        "-d", "dev.travertine.jdbc.Driver",
        "-u", "jdbc:travertine:" + cwd.resolve("data").toAbsolutePath(),
        "--isolation=TRANSACTION_NONE", "-n", "", "-p", "", "--nullValue=NULL"),
        TravertineCli.sqllineArgs(List.of(), cwd, true, true));
  }

  @Test
  void dataDirectoryForms(@TempDir Path cwd) {
    String abs = cwd.resolve("elsewhere").toAbsolutePath().toString();
    assertEquals("jdbc:travertine:" + abs, url(List.of("--data=" + abs), cwd));
    assertEquals("jdbc:travertine:" + abs, url(List.of("--data", abs), cwd));
    assertEquals("jdbc:travertine:" + cwd.resolve("a/b").toAbsolutePath(),
        url(List.of("--data", "a/./x/../b"), cwd));
    assertEquals("jdbc:travertine:" + cwd.resolve("data").toAbsolutePath(), url(List.of(), cwd));
  }

  private static String url(List<String> sqlArgs, Path cwd) {
    List<String> args = TravertineCli.sqllineArgs(sqlArgs, cwd, true, true);
    return args.get(args.indexOf("-u") + 1);
  }

  @Test
  void hostAndPortShortcutsBuildAServerUrl(@TempDir Path dir) {
    List<String> got = TravertineCli.sqllineArgs(
        List.of("--host", "127.0.0.1", "--port", "9000", "--user", "bob", "--password", "pw", "-e", "SELECT 1"),
        dir, false, false);
    assertEquals(List.of("-u", "jdbc:travertine:remote:url=http://127.0.0.1:9000;serialization=protobuf;"
        + "authentication=BASIC;avatica_user=bob;avatica_password=pw", "--isolation=TRANSACTION_NONE",
        "-n", "", "-p", "", "--maxWidth=10000", "-e", "SELECT 1"), got);
    assertThrows(IllegalArgumentException.class,
        () -> TravertineCli.sqllineArgs(List.of("--user", "bob", "-e", "x"), dir, false, false));
  }

  @Test
  void otherUrlIsNotEmbedded(@TempDir Path cwd) {
    String url = "jdbc:avatica:remote:url=http://localhost:8765;serialization=PROTOBUF";
    assertEquals(List.of("--isolation=TRANSACTION_NONE", "-n", "", "-p", "",
        "--maxWidth=10000", "-u", url, "-e", "SELECT 1"),
        TravertineCli.sqllineArgs(List.of("-u", url, "-e", "SELECT 1"), cwd, false, false));
    String other = "jdbc:h2:mem:x";
    assertEquals(List.of("-n", "", "-p", "",
        "--maxWidth=10000", "-u", other, "-e", "SELECT 1"),
        TravertineCli.sqllineArgs(List.of("-u", other, "-e", "SELECT 1"), cwd, false, false));
  }

  @Test
  void givenOptionsReplaceTheDefaults(@TempDir Path cwd) {
    List<String> args = TravertineCli.sqllineArgs(List.of(
        "-d", "my.Driver", "-n", "me", "--maxWidth=120", "--force=true",
        "--isolation=TRANSACTION_SERIALIZABLE", "--silent=false", "-f", "x.sql"),
        cwd, false, false);
    assertEquals(List.of(
        "-u", "jdbc:travertine:" + cwd.resolve("data").toAbsolutePath(),
        "-d", "my.Driver", "-n", "me", "--maxWidth=120", "--force=true",
        "--isolation=TRANSACTION_SERIALIZABLE", "-f", "x.sql"), args);
  }

  @Test
  void usageErrors(@TempDir Path cwd) {
    assertThrows(IllegalArgumentException.class,
        () -> TravertineCli.sqllineArgs(List.of("--data"), cwd, true, true));
    assertThrows(IllegalArgumentException.class,
        () -> TravertineCli.sqllineArgs(List.of("--data", "-e", "SELECT 1"), cwd, true, true));
    assertThrows(IllegalArgumentException.class,
        () -> TravertineCli.sqllineArgs(List.of("-e"), cwd, true, true));
    assertThrows(IllegalArgumentException.class,
        () -> TravertineCli.sqllineArgs(List.of("--data", "d", "-u", "jdbc:x:"), cwd, true, true));

    Result r = run("sql", "--data", "d", "-u", "jdbc:calcite:", "-e", "SELECT 1");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("--data and -u"), r.err());
  }

  @Test
  void scriptDetection() {
    assertTrue(TravertineCli.isScript(List.of("--data", "d", "-e", "SELECT 1")));
    assertTrue(TravertineCli.isScript(List.of("-f", "x.sql")));
    assertFalse(TravertineCli.isScript(List.of("--data", "d", "--outputformat=csv")));
    assertFalse(TravertineCli.isScript(List.of("-n", "-e"))); // "-e" is the user name
  }

  // --- scripts (-e, -f, piped SQL) ---------------------------------------------------------

  @Test
  void sqlPrintsResultsAndSucceeds() {
    Result r = run("sql", "-u", "jdbc:calcite:", "-e", "VALUES (1, 'a')", "--outputformat=csv");
    assertEquals(0, r.code(), r.err());
    assertEquals("EXPR$0,EXPR$1\n1,a\n", r.out());
  }

  @Test
  void anyFailedCommandFailsTheRun() {
    Result r = run("sql", "-u", "jdbc:calcite:", "-e", "SELECT nope", "-e", "VALUES 2",
        "--outputformat=csv");
    assertEquals(1, r.code());
    assertTrue(r.err().contains("Column 'NOPE' not found"), r.err());
    assertFalse(r.err().contains("\tat "), "no stack trace:\n" + r.err());
    assertFalse(r.out().contains("2"), "nothing runs after a failure: " + r.out());
    Result forced = run("sql", "-u", "jdbc:calcite:", "-e", "SELECT nope", "-e", "VALUES 2",
        "--outputformat=csv", "--force=true");
    assertEquals(1, forced.code(), "--force runs on, and the run still failed");
    assertEquals("EXPR$0\n2\n", forced.out());
  }

  @Test
  void pipedScriptStopsAtTheFirstFailure() {
    Result r = run(stdin("VALUES 1;\nSELECT nope;\nVALUES 3;\n"), false, "sql", "-u", "jdbc:calcite:",
        "--outputformat=csv");
    assertEquals(1, r.code());
    assertEquals("EXPR$0\n1\n", r.out());
    assertTrue(r.err().startsWith("Error at line 2, column 8: Column 'NOPE' not found in any table"), r.err());
  }

  /** An unterminated literal, identifier or comment at the end of -e, -f or piped input runs nothing and fails. */
  @Test
  void anUnterminatedScriptRunsNothing(@TempDir Path dir) throws Exception {
    String data = dir.resolve("d").toString();
    String script = "CREATE TABLE a (k INTEGER) ORDER BY k;\nSELECT 'abc FROM a;\nSELECT 42;\n";
    Path file = Files.writeString(dir.resolve("bad.sql"), script);
    List<Result> results = List.of(
        run("sql", "--data", data, "-e", script),
        run("sql", "--data", data, "-f", file.toString()),
        run(stdin(script), false, "sql", "--data", data));
    for (Result r : results) {
      assertEquals(1, r.code(), r.err());
      assertEquals("", r.out());
      assertTrue(r.err().contains("at line 2, column 8: A string literal is not closed"), r.err());
      assertTrue(r.err().contains("nothing was run"), r.err());
    }
    assertTrue(results.get(1).err().contains(" in " + file), results.get(1).err());
    for (String bad : List.of("SELECT \"abc", "SELECT 1 /* a comment", "SELECT `x")) {
      Result r = run("sql", "--data", data, "-e", bad);
      assertEquals(1, r.code(), bad);
      assertTrue(r.err().contains("is not closed"), r.err());
    }
    Result r = run("sql", "--data", data, "--outputformat=csv", "--showHeader=false", "-e",
        "SELECT count(*) FROM system.tables WHERE name = 'a'");
    assertEquals("0\n", r.out(), "the CREATE before the broken statement did not run: " + r.err());
  }

  /** A statement that does not parse fails the run, names its line and column in the script, and stops it. */
  @Test
  void aSyntaxErrorNamesItsPlaceAndStopsTheScript(@TempDir Path dir) throws Exception {
    String data = dir.resolve("d").toString();
    Path file = Files.writeString(dir.resolve("s.sql"),
        "-- a comment; with a semicolon\nSELECT 1 AS first;\n\n  SELECT (1 +\n  FROM t1;\nSELECT 42 AS answer;\n");
    Result r = run("sql", "--data", data, "--outputformat=csv", "-f", file.toString());
    assertEquals(1, r.code());
    assertEquals("first\n1\n", r.out());
    assertTrue(r.err().startsWith("Error in " + file + " at line 4, column 13: "), r.err());
    assertTrue(r.err().contains("(code 62, SQLSTATE 42000)"), r.err());
    assertEquals(1, r.err().lines().count(), "one line: " + r.err());
    Result typo = run("sql", "--data", data, "-e", "SELEC * FROM t1");
    assertEquals(1, typo.code());
    assertTrue(typo.err().startsWith("Error at line 1, column 1: Syntax error: a statement cannot start with 'SELEC'"),
        typo.err());
  }

  /** Results in every format: NULL one way per format, CSV quoted as RFC 4180, JSON null; FORMAT clauses. */
  @Test
  void outputFormats(@TempDir Path dir) {
    String data = dir.resolve("d").toString();
    Result setup = run("sql", "--data", data, "-e",
        "CREATE TABLE f (k INTEGER NOT NULL, s VARCHAR, d DATE, x DOUBLE, b BOOLEAN) ORDER BY k;"
        + "INSERT INTO f VALUES (1, 'a,b', DATE '2024-01-01', 1.5E0, TRUE), (2, NULL, NULL, NULL, NULL),"
        + " (3, 'q\"u''o\nte\t\\', NULL, 2E0, FALSE), (4, '', NULL, NULL, NULL)");
    assertEquals(0, setup.code(), setup.err());
    assertEquals("CREATE TABLE: ok\n4 rows inserted\n", setup.err().replaceAll(" \\([0-9.]+ s\\)", ""));
    String q = "SELECT * FROM f ORDER BY k";
    assertEquals("k,s,d,x,b\n1,\"a,b\",2024-01-01,1.5,true\n2,,,,\n3,\"q\"\"u'o\nte\t\\\",,2.0,false\n4,\"\",,,\n",
        out(data, "--outputformat=csv", "-e", q));
    assertEquals("1\ta,b\t2024-01-01\t1.5\ttrue\n2\t\\N\t\\N\t\\N\t\\N\n3\tq\"u'o\\nte\\t\\\\\t\\N\t2.0\tfalse\n"
        + "4\t\t\\N\t\\N\t\\N\n", out(data, "--outputformat=tsv", "--showHeader=false", "-e", q));
    assertEquals("{\"k\":2,\"s\":null,\"d\":null,\"x\":null,\"b\":null}\n",
        out(data, "-e", "SELECT * FROM f WHERE k = 2 FORMAT JSONEachRow"));
    assertEquals("{\"k\":3,\"s\":\"q\\\"u'o\\nte\\t\\\\\"}\n",
        out(data, "-e", "SELECT k, s FROM f WHERE k = 3 FORMAT JSONEachRow;"));
    String table = out(data, "-e", "SELECT k, s, x FROM f ORDER BY k");
    assertTrue(table.contains("| 2 | NULL  | NULL |"), table);
    assertTrue(table.contains("| 3 | q\"u'o |  2.0 |\n|   | te\\t\\ |      |\n"),
        "a line break spans lines, a tab is escaped, numbers are right-aligned:\n" + table);
    String json = out(data, "-e", "SELECT k, d FROM f WHERE k <= 2 ORDER BY k FORMAT JSON");
    assertTrue(json.contains("\"rows\": 2"), json);
    assertTrue(json.contains("{\"k\":2,\"d\":null}"), json);
    assertTrue(json.contains("\"type\": \"DATE\""), json);
    assertEquals("k\tx\nINTEGER\tDOUBLE\n1\t1.5\n",
        out(data, "-e", "SELECT k, x FROM f WHERE k = 1 FORMAT TabSeparatedWithNamesAndTypes"));
    assertEquals("1,a,b\n".replace("a,b", "\"a,b\""), out(data, "-e", "SELECT k, s FROM f WHERE k = 1 FORMAT CSV"));
    Result unknown = run("sql", "--data", data, "-e", "SELECT 1 FORMAT Parquetish");
    assertEquals(1, unknown.code());
    assertTrue(unknown.err().contains("Unknown output format 'Parquetish'"), unknown.err());
    Result badOption = run("sql", "--data", data, "--outputformat=xmlattr", "-e", "SELECT 1");
    assertEquals(2, badOption.code());
    assertTrue(badOption.err().contains("unknown --outputformat 'xmlattr'"), badOption.err());
    Result bang = run("sql", "--data", data, "-e", "!tables");
    assertEquals(1, bang.code());
    assertTrue(bang.err().contains("work in the interactive shell only"), bang.err());
  }

  @Test
  void aServerThatIsNotThereIsOneLine() {
    Result r = run("sql", "--port", "1", "-e", "SELECT 1");
    assertEquals(1, r.code());
    assertTrue(r.err().startsWith("Error: cannot connect to "), r.err());
    assertFalse(r.err().contains("\tat "), r.err());
  }

  private static String out(String data, String... args) {
    List<String> all = new java.util.ArrayList<>(List.of("sql", "--data", data));
    all.addAll(List.of(args));
    Result r = run(all.toArray(new String[0]));
    assertEquals(0, r.code(), r.err());
    return r.out();
  }

  private static InputStream stdin(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Settings on benchmark's command line are SET on its connections: a limit they set fails the run. */
  @Test
  void benchmarkTakesSessionSettings(@TempDir Path dir) throws Exception {
    String data = dir.resolve("d").toString();
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:travertine:" + data);
        java.sql.Statement st = c.createStatement()) {
      st.execute("CREATE TABLE b (k BIGINT) ORDER BY k");
      st.execute("INSERT INTO b SELECT number FROM TABLE(numbers(5000))");
    }
    String q = "SELECT count(*) FROM b WHERE k > 10";
    Result ok = run("benchmark", "--data", data, "-q", q, "-i", "3", "--max_threads=1", "--max_rows_to_read=100000");
    assertEquals(0, ok.code(), ok.err());
    assertTrue(ok.out().contains("queries: 3,"), ok.out());
    Result limited = run("benchmark", "--data", data, "-q", q, "-i", "3", "--warmup", "0", "--max_rows_to_read=10");
    assertEquals(1, limited.code(), limited.out());
    assertTrue(limited.err().contains("max_rows_to_read"), limited.err());
    Result unknown = run("benchmark", "--data", data, "-q", q, "--no_such_setting=1");
    assertEquals(2, unknown.code());
    assertTrue(unknown.err().contains("--no_such_setting=1: not an option, or unknown setting: no_such_setting"),
        unknown.err());
    Result bad = run("benchmark", "--data", data, "-q", q, "--max_threads=lots");
    assertEquals(2, bad.code(), bad.out());
    assertTrue(bad.err().contains("invalid value for setting max_threads: 'lots'"), bad.err());
  }

  /** FORMAT Parquet writes a Parquet file to a redirected output, and refuses a terminal. */
  @Test
  void formatParquetGoesToARedirectedOutput(@TempDir Path dir) throws Exception {
    String[] args = {"sql", "--data", dir.resolve("db").toString(), "-e",
        "SELECT number AS n, 'v' || CAST(number AS VARCHAR) AS s, DATE '2024-02-29' AS d FROM TABLE(numbers(3))"
            + " FORMAT Parquet"};
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code = TravertineCli.run(args, new ByteArrayInputStream(new byte[0]), o, e, false, false);
    }
    assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
    Path file = dir.resolve("out.parquet");
    Files.write(file, out.toByteArray());
    try (var f = dev.travertine.formats.parquet.ParquetFileBatches.open(
        new dev.travertine.io.local.LocalFileIO(dir, false).newInputFile("out.parquet"), "out")) {
      assertEquals(3, f.totalRows());
      assertEquals(List.of("n", "s", "d"), f.schema().columns().stream().map(c -> c.name()).toList());
      assertEquals(dev.travertine.vector.TypeKind.DATE, f.schema().column(2).type().kind());
    }
    try (PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      err.reset();
      assertEquals(1, TravertineCli.run(args, new ByteArrayInputStream(new byte[0]), o, e, false, true));
      assertTrue(err.toString(StandardCharsets.UTF_8).contains("FORMAT Parquet is binary: redirect the output"),
          err.toString(StandardCharsets.UTF_8));
    }
  }
}
