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
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests of the command line. None of them needs the Travertine JDBC driver; the sqlline
 * round trips connect to Calcite's own {@code jdbc:calcite:} with {@code -u}.
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
        "--silent=true", "--force=false", "--maxWidth=10000",
        "-e", "SELECT 1", "--outputformat=csv"), args);
  }

  @Test
  void sqlOnATerminal(@TempDir Path cwd) {
    // -e on a terminal: quiet and strict, but sqlline takes the terminal's width
    assertEquals(List.of(
        "-d", "dev.travertine.jdbc.Driver",
        "-u", "jdbc:travertine:" + cwd.resolve("data").toAbsolutePath(),
        "--isolation=TRANSACTION_NONE", "-n", "", "-p", "",
        "--silent=true", "--force=false",
        "-e", "VALUES 1"),
        TravertineCli.sqllineArgs(List.of("-e", "VALUES 1"), cwd, true, true));
    // interactive: sqlline's own defaults (banner, prompt, history)
    assertEquals(List.of(
        "-d", "dev.travertine.jdbc.Driver",
        "-u", "jdbc:travertine:" + cwd.resolve("data").toAbsolutePath(),
        "--isolation=TRANSACTION_NONE", "-n", "", "-p", ""),
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
        "-n", "", "-p", "", "--silent=true", "--force=false", "--maxWidth=10000", "-e", "SELECT 1"), got);
    assertThrows(IllegalArgumentException.class,
        () -> TravertineCli.sqllineArgs(List.of("--user", "bob", "-e", "x"), dir, false, false));
  }

  @Test
  void otherUrlIsNotEmbedded(@TempDir Path cwd) {
    String url = "jdbc:avatica:remote:url=http://localhost:8765;serialization=PROTOBUF";
    assertEquals(List.of("--isolation=TRANSACTION_NONE", "-n", "", "-p", "", "--silent=true", "--force=false",
        "--maxWidth=10000", "-u", url, "-e", "SELECT 1"),
        TravertineCli.sqllineArgs(List.of("-u", url, "-e", "SELECT 1"), cwd, false, false));
    String other = "jdbc:h2:mem:x";
    assertEquals(List.of("-n", "", "-p", "", "--silent=true", "--force=false",
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

  // --- sqlline round trips against Calcite's own driver (no Travertine driver) -----------

  @Test
  void sqlPrintsResultsAndSucceeds() {
    Result r = run("sql", "-u", "jdbc:calcite:", "-e", "VALUES (1, 'a')", "--outputformat=csv");
    assertEquals(0, r.code(), r.err());
    assertEquals("'EXPR$0','EXPR$1'\n'1','a'\n", r.out().replace("\r\n", "\n"));
  }

  @Test
  void anyFailedCommandFailsTheRun() {
    // sqlline itself would report only the last -e command's status
    Result r = run("sql", "-u", "jdbc:calcite:", "-e", "SELECT nope", "-e", "VALUES 2",
        "--outputformat=csv");
    assertEquals(1, r.code());
    assertTrue(r.err().contains("Column 'NOPE' not found"), r.err());
    assertFalse(r.err().contains("\tat "), "no stack trace:\n" + r.err());
    assertTrue(r.out().contains("'2'"), r.out());
  }

  @Test
  void pipedScriptStopsAtTheFirstFailure() {
    InputStream script = new ByteArrayInputStream(
        "VALUES 1;\nSELECT nope;\nVALUES 3;\n".getBytes(StandardCharsets.UTF_8));
    Result r = run(script, false, "sql", "-u", "jdbc:calcite:", "--outputformat=csv");
    assertEquals(1, r.code());
    assertTrue(r.out().contains("'1'"), r.out());
    assertFalse(r.out().contains("'3'"), r.out());
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
}
