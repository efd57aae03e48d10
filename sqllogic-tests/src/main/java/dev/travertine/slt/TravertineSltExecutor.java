package dev.travertine.slt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import net.hydromatic.sqllogictest.ISqlTestOperation;
import net.hydromatic.sqllogictest.OptionsParser;
import net.hydromatic.sqllogictest.SltSqlStatement;
import net.hydromatic.sqllogictest.SltTestFile;
import net.hydromatic.sqllogictest.SqlTestQuery;
import net.hydromatic.sqllogictest.TestStatistics;
import net.hydromatic.sqllogictest.executors.JdbcExecutor;

/**
 * Runs sqllogictest files on Travertine: each file on a fresh embedded database in a temporary
 * directory, or on a running server (its user tables and views dropped before and after).
 *
 * <p>{@link #run} replaces the library's loop, whose quirks the issue lists: a failing
 * {@code statement ok} stops the file and counts every query not run as failed (with the
 * statement's error as the cause); a {@code statement error} that succeeds is counted, not
 * printed; DROP VIEW is sent as written (the library adds CASCADE). Results are compared
 * with the library's own {@link #validate} (value formatting, sorting, hashes).
 */
public final class TravertineSltExecutor extends JdbcExecutor {
  private final Path dir;

  private TravertineSltExecutor(OptionsParser.SuppliedOptions options, String url, Path dir) {
    super(options, url, "", "");
    this.dir = dir;
  }

  /**
   * An executor on a fresh embedded database (deleted when the file is done). It is scratch, so
   * nothing is forced to disk ({@code storage.fsync=false}): with forcing, the corpus's thousands
   * of CREATE/INSERT/DELETE statements per file spend about half the run waiting for the disk.
   */
  public static TravertineSltExecutor embedded(OptionsParser.SuppliedOptions options) {
    try {
      Path dir = Files.createTempDirectory("travertine-slt");
      return new TravertineSltExecutor(options, "jdbc:travertine:" + dir + ";storage.fsync=false", dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An executor on a running server, e.g. {@code jdbc:avatica:remote:url=http://127.0.0.1:8765}. */
  public static TravertineSltExecutor remote(OptionsParser.SuppliedOptions options, String url) {
    return new TravertineSltExecutor(options, url, null);
  }

  /** Registers the embedded executor under the name "travertine" (for the library's own Main). */
  public static void register(OptionsParser parser) {
    parser.registerExecutor("travertine", () -> embedded(parser.getOptions()));
  }

  /**
   * Parses one corpus file ({@code select1.test}, {@code index/between/1/slt_good_0.test}).
   *
   * <p>The library reads {@code onlyif sqlite # empty RHS} as a condition on a database named
   * "sqlite # empty RHS" and so runs SQLite-only queries everywhere (evidence/in1.test, in2.test);
   * the file is read through a class loader that drops such comments from condition lines.
   */
  public static SltTestFile load(String file, OptionsParser.SuppliedOptions options) throws IOException {
    Thread t = Thread.currentThread();
    ClassLoader saved = t.getContextClassLoader();
    t.setContextClassLoader(new ConditionCommentsStripped(TravertineSltExecutor.class.getClassLoader()));
    try {
      SltTestFile test = new SltTestFile("test/" + file);
      test.parse(options);
      return test;
    } finally {
      t.setContextClassLoader(saved);
    }
  }

  /** Serves corpus files with "# comment" removed from skipif/onlyif lines. */
  private static final class ConditionCommentsStripped extends ClassLoader {
    ConditionCommentsStripped(ClassLoader parent) {
      super(parent);
    }

    @Override public java.io.InputStream getResourceAsStream(String name) {
      java.io.InputStream in = super.getResourceAsStream(name);
      if (in == null || !name.startsWith("test/")) {
        return in;
      }
      try (in) {
        String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        String fixed = CONDITION_COMMENT.matcher(text).replaceAll("$1");
        return new java.io.ByteArrayInputStream(fixed.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static final java.util.regex.Pattern CONDITION_COMMENT =
      java.util.regex.Pattern.compile("(?m)^((?:skipif|onlyif)[ \\t]+\\S+)[ \\t]+#[^\\n]*$");

  /**
   * Runs one parsed file and says what it did. With {@code sampleEvery} n > 1 every statement
   * runs but only every n-th query (the first, the n+1-th, …); the others are not counted.
   */
  public FileResult run(String file, SltTestFile test, int sampleEvery) throws SQLException {
    return run(file, test, sampleEvery, null);
  }

  /** As {@link #run(String, SltTestFile, int)}, printing the first failures in full to {@code verbose}. */
  public FileResult run(String file, SltTestFile test, int sampleEvery, java.io.PrintStream verbose)
      throws SQLException {
    long t0 = System.nanoTime();
    FileResult.Builder out = new FileResult.Builder(file);
    try {
      return run(test, sampleEvery, out, t0);
    } finally {
      if (verbose != null && !out.details.isEmpty()) {
        synchronized (verbose) {
          verbose.println("--- failures in " + file + " (first " + out.details.size() + "):");
          out.details.forEach(verbose::println);
        }
      }
    }
  }

  private FileResult run(SltTestFile test, int sampleEvery, FileResult.Builder out, long t0) throws SQLException {
    establishConnection();
    try {
      dropAllViews();
      dropAllTables();
      List<ISqlTestOperation> ops = test.fileContents;
      int seen = 0;
      for (int i = 0; i < ops.size(); i++) {
        ISqlTestOperation op = ops.get(i);
        if (op instanceof SltSqlStatement st) {
          String error = execute(st.statement);
          if (error == null && !st.shouldPass) {
            out.statementErrorsMissed++;
          } else if (error != null && st.shouldPass) {
            String cause = FileResult.cause(error);
            out.aborted = "statement failed: " + FileResult.clean(st.statement) + ": " + cause;
            cause = "statement failed: " + cause;
            for (int j = i + 1; j < ops.size(); j++) {
              if (ops.get(j) instanceof SqlTestQuery q && seen++ % sampleEvery == 0) {
                out.fail(cause, q.getQuery(), -1);
              }
            }
            break;
          }
        } else if (op instanceof SqlTestQuery q && seen++ % sampleEvery == 0) {
          query(q, out);
        }
      }
    } finally {
      try {
        dropAllViews();
        dropAllTables();
      } finally {
        closeConnection();
      }
    }
    return out.build((System.nanoTime() - t0) / 1_000_000);
  }

  private String execute(String sql) {
    try (Statement s = getConnection().createStatement()) {
      s.execute(sql);
      return null;
    } catch (SQLException | RuntimeException e) {
      return message(e);
    }
  }

  private void query(SqlTestQuery q, FileResult.Builder out) {
    Capture capture = new Capture(options);
    long t0 = System.nanoTime();
    String error;
    try (Statement s = getConnection().createStatement(); ResultSet rs = s.executeQuery(q.getQuery())) {
      validate(q, rs, q.outputDescription, capture);
      error = capture.error;
    } catch (Throwable e) { // assertion errors and stack overflows of deep expressions included
      error = message(e);
    }
    double ms = (System.nanoTime() - t0) / 1e6;
    if (error == null) {
      out.pass(ms);
    } else {
      out.fail(error, q.getQuery(), ms);
    }
  }

  private static String message(Throwable e) {
    String m = e.getMessage();
    Throwable c = e;
    // Calcite wraps: the innermost message names the problem.
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
      if (c.getMessage() != null) {
        m = c.getMessage();
      }
    }
    return m == null ? e.getClass().getSimpleName() : m;
  }

  /** Keeps the failure the library's {@link #validate} reports instead of collecting it. */
  private static final class Capture extends TestStatistics {
    String error;

    Capture(OptionsParser.SuppliedOptions options) {
      super(false, options.verbosity);
    }

    @Override public boolean addFailure(FailedTestDescription failure) {
      error = failure.error == null ? "failed" : failure.error;
      return false;
    }
  }

  /** Drops only the user's tables (the library would try the system tables too). */
  @Override public void dropAllTables() throws SQLException {
    dropAll("SELECT name FROM system.tables", "DROP TABLE ");
  }

  @Override public void dropAllViews() throws SQLException {
    dropAll("SELECT name FROM system.views", "DROP VIEW ");
  }

  private void dropAll(String list, String drop) throws SQLException {
    List<String> names = new ArrayList<>();
    Connection c = getConnection();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(list)) {
      while (rs.next()) {
        names.add(rs.getString(1));
      }
    }
    for (String n : names) {
      try (Statement s = c.createStatement()) {
        s.execute(drop + "\"" + n.replace("\"", "\"\"") + "\"");
      }
    }
  }

  @Override public void closeConnection() throws SQLException {
    super.closeConnection();
    if (dir == null) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
