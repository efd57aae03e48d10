package dev.travertine.server.shell;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs SQL scripts ({@code -e}, {@code -f}, piped input) on one connection and writes their
 * results: the shell's non-interactive half (the interactive one is sqlline).
 *
 * <p>The whole input is split first, so a script that ends inside a string literal, quoted
 * identifier or comment runs nothing and fails. Statements run in order; the first failure
 * stops the script (unless {@code --force=true}) and makes the exit status 1. An error is one
 * line on stderr that names the line and column in the script. Results go to stdout; what a
 * statement without a result did ({@code 1000000 rows inserted}, {@code CREATE TABLE: ok}) goes
 * to stderr with its elapsed time, unless {@code --silent=true}.
 */
public final class ScriptRunner {
  /** The options the runner takes; see {@link #parse}. */
  public record Options(String url, String driver, String user, String password,
      List<Source> sources, OutputFormat format, boolean force, boolean silent,
      boolean verbose, String nullValue) {}

  /** One piece of SQL to run: text given inline (-e) or a file (-f). */
  public record Source(String name, String text, Path file) {}

  private final PrintStream out;
  private final PrintStream err;
  private final boolean stdoutIsTerminal;

  public ScriptRunner(PrintStream out, PrintStream err, boolean stdoutIsTerminal) {
    this.out = out;
    this.err = err;
    this.stdoutIsTerminal = stdoutIsTerminal;
  }

  /** sqlline properties a script accepts and has no use for (display of the interactive shell). */
  private static final List<String> IGNORED = List.of("isolation", "maxwidth", "maxcolumnwidth",
      "color", "incremental", "incrementalbuffermaxrows", "fastconnect", "autocommit", "showwarnings",
      "shownestederrs", "showtime", "headerinterval", "timeout", "trimscripts", "truncatecolumns",
      "autosave", "historyfile", "maxhistoryrows", "maxhistoryfilerows", "prompt", "rightprompt");

  /**
   * Reads the (sqlline-style) arguments that {@code travertine sql} produced for a script.
   *
   * @throws IllegalArgumentException on an option a script does not take
   */
  public static Options parse(List<String> args) {
    String url = null;
    String driver = null;
    String user = null;
    String password = null;
    List<Source> sources = new ArrayList<>();
    String formatName = "table";
    boolean showHeader = true;
    boolean force = false;
    boolean silent = false;
    boolean verbose = false;
    String nullValue = "NULL";
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.startsWith("--")) {
        boolean negated = a.startsWith("--no-");
        String body = negated ? a.substring(5) : a.substring(2);
        int eq = body.indexOf('=');
        String name = (eq < 0 ? body : body.substring(0, eq)).toLowerCase(Locale.ROOT);
        String value = eq < 0 ? (negated ? "false" : "true") : body.substring(eq + 1);
        switch (name) {
          case "outputformat" -> formatName = value;
          case "showheader" -> showHeader = Boolean.parseBoolean(value);
          case "force" -> force = Boolean.parseBoolean(value);
          case "silent" -> silent = Boolean.parseBoolean(value);
          case "verbose" -> verbose = Boolean.parseBoolean(value);
          case "nullvalue" -> nullValue = value;
          default -> {
            if (!IGNORED.contains(name)) {
              throw new IllegalArgumentException("option " + a + " is for the interactive shell; "
                  + "scripts (-e, -f, piped SQL) take --outputformat, --showHeader, --force, --silent, "
                  + "--verbose and --nullValue");
            }
          }
        }
        continue;
      }
      if (i + 1 >= args.size()) {
        throw new IllegalArgumentException(a + " needs a value");
      }
      String v = args.get(++i);
      switch (a) {
        case "-u" -> url = v;
        case "-d" -> driver = v;
        case "-n" -> user = v;
        case "-p" -> password = v;
        case "-e" -> sources.add(new Source("-e", v, null));
        case "-f" -> sources.add(new Source(v, null, Path.of(v)));
        default -> throw new IllegalArgumentException("option " + a + " is for the interactive shell");
      }
    }
    if (url == null) {
      throw new IllegalArgumentException("no database to connect to");
    }
    OutputFormat format = OutputFormat.byShellName(formatName, showHeader);
    if (format == null) {
      throw new IllegalArgumentException("unknown --outputformat '" + formatName + "'; scripts write "
          + OutputFormat.SHELL_NAMES + " or a ClickHouse format: " + OutputFormat.CLICKHOUSE_NAMES);
    }
    return new Options(url, driver, user, password, List.copyOf(sources), format, force, silent,
        verbose, nullValue);
  }

  /** Runs every source in order on one connection; returns the exit status (0 or 1). */
  public int run(Options options) {
    // Split everything first: nothing runs when any part of the input cannot be read or split.
    List<List<ScriptSplitter.Statement>> scripts = new ArrayList<>();
    for (Source source : options.sources()) {
      String text;
      try {
        text = source.file() == null ? source.text() : Files.readString(source.file(), StandardCharsets.UTF_8);
      } catch (NoSuchFileException e) {
        err.println("Error: no such file: " + source.file());
        return 1;
      } catch (IOException e) {
        err.println("Error: cannot read " + source.file() + ": " + e.getMessage());
        return 1;
      }
      try {
        scripts.add(ScriptSplitter.split(text));
      } catch (ScriptSplitter.UnterminatedException e) {
        err.println("Error" + where(source, e.line(), e.column()) + ": " + e.getMessage()
            + "; nothing was run");
        return 1;
      }
    }
    if (options.driver() != null) {
      try {
        Class.forName(options.driver());
      } catch (ClassNotFoundException e) {
        err.println("Error: JDBC driver class not found: " + options.driver());
        return 1;
      }
    }
    Properties props = new Properties();
    if (options.user() != null && !options.user().isEmpty()) {
      props.setProperty("user", options.user());
    }
    if (options.password() != null && !options.password().isEmpty()) {
      props.setProperty("password", options.password());
    }
    int status = 0;
    Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
    try (Connection c = DriverManager.getConnection(options.url(), props)) {
      for (int s = 0; s < scripts.size(); s++) {
        Source source = options.sources().get(s);
        for (ScriptSplitter.Statement statement : scripts.get(s)) {
          if (!execute(c, source, statement, options, w)) {
            status = 1;
            if (!options.force()) {
              return status;
            }
          }
        }
      }
    } catch (SQLException | RuntimeException e) {
      // Avatica's remote driver throws a RuntimeException when the server cannot be reached.
      Throwable root = e;
      while (!(root instanceof SQLException) && root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      err.println("Error: cannot connect to " + redacted(options.url()) + ": " + ErrorText.message(root, options.verbose()));
      return 1;
    }
    return status;
  }

  /** A URL without its password. */
  static String redacted(String url) {
    return url.replaceAll("(?i)(avatica_password|password)=[^;]*", "$1=***");
  }

  /** Runs one statement; false when it failed (the error is printed). */
  private boolean execute(Connection c, Source source, ScriptSplitter.Statement statement,
      Options options, Writer w) {
    String sql = statement.sql();
    if (sql.startsWith("!")) {
      err.println("Error" + where(source, statement.line(), statement.column())
          + ": sqlline commands (" + sql.split("\\s")[0] + ") work in the interactive shell only");
      return false;
    }
    OutputFormat format = options.format();
    try {
      FormatClause.Split split = FormatClause.split(sql);
      if (split.format() != null) {
        sql = split.sql();
        format = split.format();
      }
    } catch (IllegalArgumentException e) {
      err.println("Error" + where(source, statement.line(), statement.column()) + ": " + e.getMessage());
      return false;
    }
    long start = System.nanoTime();
    try (Statement st = c.createStatement()) {
      if (st.execute(sql)) {
        long rows;
        try (ResultSet rs = st.getResultSet()) {
          if (format.kind() == OutputFormat.Kind.PARQUET) {
            if (stdoutIsTerminal) {
              err.println("Error" + where(source, statement.line(), statement.column()) + ": FORMAT Parquet is binary:"
                  + " redirect the output to a file (> out.parquet), or write it with INTO OUTFILE 'out.parquet'");
              return false;
            }
            w.flush();
            rows = ParquetResult.write(rs, out);
            out.flush();
          } else {
            rows = new ResultWriter(format, w, options.nullValue()).write(rs, start);
          }
        } finally {
          w.flush();
        }
        if (stdoutIsTerminal && !options.silent()) {
          err.println(rows + (rows == 1 ? " row" : " rows") + " in set" + elapsed(start));
        }
      } else if (!options.silent()) {
        err.println(done(sql, st.getUpdateCount()) + elapsed(start));
      }
      return true;
    } catch (SQLException | RuntimeException e) {
      flushQuietly(w);
      err.println(ErrorText.describe(e, statement, options.sources().size() > 1 || statement.line() > 1
          || statement.column() > 1, where(source, 0, 0), options.verbose()));
      return false;
    } catch (IOException e) {
      err.println("Error: cannot write the result: " + e.getMessage());
      return false;
    }
  }

  private static void flushQuietly(Writer w) {
    try {
      w.flush();
    } catch (IOException ignored) {
      // stdout is gone; the error itself goes to stderr
    }
  }

  /** " in FILE at line L, column C" (the file only when it is one; the position when known). */
  private static String where(Source source, int line, int column) {
    StringBuilder b = new StringBuilder();
    if (source.file() != null) {
      b.append(" in ").append(source.name());
    }
    if (line > 0) {
      b.append(" at line ").append(line).append(", column ").append(column);
    }
    return b.toString();
  }

  private static String elapsed(long startNanos) {
    return String.format(Locale.ROOT, " (%.3f s)", (System.nanoTime() - startNanos) / 1e9);
  }

  private static final Pattern WORDS = Pattern.compile("(?is)^\\s*([A-Za-z]+)(?:\\s+([A-Za-z]+))?(?:\\s+([A-Za-z]+))?");
  private static final List<String> OBJECTS = List.of("TABLE", "VIEW", "INDEX", "DATABASE", "SCHEMA",
      "MERGES", "FLUSH", "QUERY", "MUTATION");

  /** What a statement without a result did, in a few words. */
  static String done(String sql, long updateCount) {
    Matcher m = WORDS.matcher(sql.replaceFirst("(?is)^\\s*CREATE\\s+OR\\s+REPLACE\\b", "CREATE"));
    String verb = m.find() ? m.group(1).toUpperCase(Locale.ROOT) : "";
    String second = m.group(2) == null ? "" : m.group(2).toUpperCase(Locale.ROOT);
    String rows = updateCount == 1 ? "1 row" : updateCount + " rows";
    switch (verb) {
      case "INSERT":
        return rows + " inserted";
      case "DELETE":
        return rows + " deleted";
      case "UPDATE":
        return rows + " updated";
      default:
        break;
    }
    String third = m.group(3) == null ? "" : m.group(3).toUpperCase(Locale.ROOT);
    String what = verb.equals("SYSTEM") && (second.equals("STOP") || second.equals("START")) && !third.isEmpty()
        ? verb + " " + second + " " + third
        : OBJECTS.contains(second) || verb.equals("SYSTEM") && !second.isEmpty() ? verb + " " + second : verb;
    return what + ": ok";
  }
}
