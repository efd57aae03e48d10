package dev.travertine.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.jline.reader.History;
import org.jline.reader.LineReader;
import sqlline.SqlLine;

import dev.travertine.server.shell.ScriptRunner;

/**
 * The command line behind {@code bin/travertine}.
 *
 * <p>{@link #main} is the only method that touches {@code System.out}/{@code System.err}
 * directly and the only one that calls {@code System.exit}; everything else goes through
 * {@link #run(String[], PrintStream, PrintStream)}, which returns the exit code.
 *
 * <p>Exit codes: 0 success, 1 a statement or command failed, 2 usage error.
 */
public final class TravertineCli {

  /** JDBC driver class of the embedded engine (calcite-adapter). */
  static final String DRIVER = "dev.travertine.jdbc.Driver";
  /** JDBC URL prefix of the embedded engine; followed by the absolute data directory. */
  static final String URL_PREFIX = "jdbc:travertine:";
  /** Data directory when {@code --data} is not given (relative to the working directory). */
  static final String DEFAULT_DATA_DIR = "data";
  /**
   * sqlline's {@code --maxWidth} when stdout is not a terminal. sqlline cuts every table row
   * to this width (and prints empty tables when it is 0, which is what it reads from a
   * missing terminal); a pipe or a file should get whole rows.
   */
  static final int NON_TERMINAL_MAX_WIDTH = 10_000;

  static final int EXIT_OK = 0;
  static final int EXIT_FAILURE = 1;
  static final int EXIT_USAGE = 2;

  /** System properties set by bin/travertine ({@code [ -t 0 ]}, {@code [ -t 1 ]}). */
  static final String STDIN_TTY_PROPERTY = "travertine.stdin.tty";
  static final String STDOUT_TTY_PROPERTY = "travertine.stdout.tty";

  /** sqlline options that take a value (sqlline 1.12, {@code SqlLine.initArgs}). */
  private static final Set<String> SQLLINE_VALUE_OPTIONS =
      Set.of("-d", "-ch", "-n", "-p", "-u", "-e", "-f", "-log", "-nn", "-ac", "-ph", "-c", "-cn");

  static final String USAGE = String.join("\n",
      "Usage: travertine <command> [options]",
      "",
      "Travertine: a MergeTree-style storage engine for Apache Calcite.",
      "",
      "Commands:",
      "  sql [--data DIR | -u URL] [sqlline options...]",
      "                 Run SQL in sqlline. Without -u the database is embedded and",
      "                 stored in DIR (default ./data): " + URL_PREFIX + "<absolute DIR>.",
      "                   -e \"SQL\"        run SQL, print the result, exit",
      "                   -f FILE         run a script (stops at the first failure), exit",
      "                   -u URL          connect to another JDBC URL instead",
      "                   --outputformat=table|vertical|csv|tsv|json|xmlattr|xmlelements",
      "                   --name=value    any other sqlline option (see !help in sqlline)",
      "  sql --host H [--port N] [--user U --password P] [sqlline options...]",
      "                 Run SQL on a Travertine server (Avatica, protobuf) at H:N (default port 8765).",
      "  server [--config FILE] [--data DIR] [--port N] [--host H]",
      "                 Start a server: the engine on DIR (default ./data) behind Avatica's",
      "                 HTTP endpoint. FILE is a properties file (host, port, data,",
      "                 serialization, log.file, auth.user.NAME, tls.keystore,",
      "                 tls.keystore.password, settings.NAME); flags override it.",
      "                 SIGTERM (Ctrl-C) stops it cleanly.",
      "  benchmark (-u URL | --data DIR | --host H [--port N] [--user U --password P])",
      "            (-q SQL ... | -f FILE) [-i N] [-c N] [-t SECONDS] [--warmup N] [--cumulative] [--json]",
      "            [--SETTING=VALUE ...]",
      "                 Run queries repeatedly (N iterations, default 100, or for SECONDS) on",
      "                 -c connections and print QPS, rows/s and MiB/s read, MiB/s received from",
      "                 parallel replicas, result rows/s and latency percentiles, per query and",
      "                 overall (like clickhouse-benchmark). --max_threads=2 and other session",
      "                 settings are SET on every connection.",
      "  load (-u URL | --data DIR | --host H [--port N] [--user U --password P])",
      "       --table T [--format csv|tsv|jsoneachrow|parquet|orc] [--header] [--max-errors N] [--delimiter C]",
      "       [--null-string S] [--batch N] FILE...",
      "                 Bulk load files (.gz and .zst are decompressed) with a progress display,",
      "                 as one insert: all rows or none. The format defaults to the first file's",
      "                 extension (else csv); Parquet and ORC columns go to the table's by name",
      "                 (over a server, one such file per load). Bad rows are reported with their line",
      "                 numbers; the first fails the load, unless --max-errors N skips up to N.",
      "                 With --header, columns are matched by name. Empty fields in NOT NULL",
      "                 columns take the column's default (SET input_format_null_as_default = 0",
      "                 refuses them).",
      "  driver-jar [FILE]",
      "                 Write one self-contained JDBC driver jar (default",
      "                 ./travertine-jdbc-<version>.jar) for GUI tools such as DBeaver or DataGrip:",
      "                 " + DRIVER + " (" + URL_PREFIX + "/path/to/data) and",
      "                 dev.travertine.jdbc.RemoteDriver (jdbc:travertine:remote:url=http://host:8765).",
      "  classpath      Print the runtime classpath, for other JVM tools",
      "                 (driver " + DRIVER + ", URL " + URL_PREFIX + "/path/to/data).",
      "  help           Print this text (also --help, -h).",
      "  --version      Print the version.",
      "",
      "Exit status: 0 success, 1 a statement or command failed, 2 usage error.",
      "");

  private TravertineCli() {}

  public static void main(String[] args) {
    // The CLI's own default: keep slf4j-simple at WARN so query output is not mixed with
    // INFO lines from the engine. -Dorg.slf4j.simpleLogger.defaultLogLevel=... overrides.
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    // Avatica's remote driver logs a failed connect at WARN before it throws; the shell says it once.
    if (System.getProperty("org.slf4j.simpleLogger.log.org.apache.calcite.avatica.remote.Driver") == null) {
      System.setProperty("org.slf4j.simpleLogger.log.org.apache.calcite.avatica.remote.Driver", "error");
    }
    int code = run(args, System.out, System.err);
    System.out.flush();
    System.err.flush();
    System.exit(code);
  }

  /** Runs one command; returns the process exit code. Never calls {@code System.exit}. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, System.in, out, err,
        isTerminal(STDIN_TTY_PROPERTY), isTerminal(STDOUT_TTY_PROPERTY));
  }

  static int run(String[] args, InputStream in, PrintStream out, PrintStream err,
      boolean stdinIsTerminal, boolean stdoutIsTerminal) {
    if (args.length == 0) {
      out.print(USAGE);
      return EXIT_OK;
    }
    String command = args[0];
    List<String> rest = List.of(args).subList(1, args.length);
    if ((rest.contains("--help") || rest.contains("-h")) && !command.equals("sql")) {
      String help = commandUsage(command);
      if (help != null) {
        out.print(help);
        return EXIT_OK;
      }
    }
    switch (command) {
      case "help":
      case "--help":
      case "-h":
        out.print(USAGE);
        return EXIT_OK;
      case "--version":
      case "version":
        out.println("travertine " + version());
        return EXIT_OK;
      case "classpath":
        if (!rest.isEmpty()) {
          return usageError(err, "classpath takes no arguments");
        }
        out.println(System.getProperty("java.class.path"));
        return EXIT_OK;
      case "driver-jar":
        return driverJar(rest, out, err);
      case "sql":
        return sql(rest, in, out, err, stdinIsTerminal, stdoutIsTerminal);
      case "server":
        return ToolCommands.server(rest, out, err);
      case "benchmark":
        return ToolCommands.benchmark(rest, out, err);
      case "load":
        return ToolCommands.load(rest, out, err, stdoutIsTerminal);
      default:
        return usageError(err, "unknown command '" + command + "'");
    }
  }

  /** {@code driver-jar [FILE]}: one jar with both JDBC drivers, for GUI tools. */
  private static int driverJar(List<String> args, PrintStream out, PrintStream err) {
    if (args.size() > 1 || (!args.isEmpty() && args.get(0).startsWith("-"))) {
      return usageError(err, "driver-jar takes one optional argument, the jar to write");
    }
    Path target = Path.of(args.isEmpty() ? "travertine-jdbc-" + version() + ".jar" : args.get(0))
        .toAbsolutePath();
    try {
      var w = dev.travertine.server.tools.DriverJar.write(
          dev.travertine.server.tools.DriverJar.elements(System.getProperty("java.class.path")), target, version());
      out.printf(Locale.ROOT, "wrote %s (%d MiB, %d entries from %d classpath elements)%n", target,
          w.bytes() >> 20, w.entries(), w.sources());
      out.println("drivers: " + DRIVER + " (" + URL_PREFIX + "/path/to/data) and "
          + dev.travertine.jdbc.RemoteDriver.class.getName() + " (" + dev.travertine.jdbc.RemoteDriver.PREFIX
          + "url=http://host:8765)");
      return EXIT_OK;
    } catch (IOException e) {
      err.println("travertine: driver-jar: cannot write " + target + ": " + e.getMessage());
      return EXIT_FAILURE;
    }
  }

  /** The usage lines of one command (from {@link #USAGE}), or null for an unknown one. */
  static String commandUsage(String command) {
    StringBuilder b = new StringBuilder();
    boolean in = false;
    for (String line : USAGE.split("\n")) {
      boolean starts = line.startsWith("  ") && !line.startsWith("   ");
      if (starts) {
        in = line.substring(2).startsWith(command + " ") || line.substring(2).equals(command);
      } else if (!line.startsWith("   ")) {
        in = false;
      }
      if (in) {
        b.append(line).append('\n');
      }
    }
    return b.length() == 0 ? null : "Usage: travertine\n" + b;
  }

  static int usageError(PrintStream err, String message) {
    err.println("travertine: " + message);
    err.println("Run 'travertine help' for usage.");
    return EXIT_USAGE;
  }

  /** The project version, from a resource filtered by Maven. */
  static String version() {
    return dev.travertine.jdbc.Version.get();
  }

  private static boolean isTerminal(String property) {
    String value = System.getProperty(property);
    if (value != null) {
      return Boolean.parseBoolean(value);
    }
    // Not started by bin/travertine: System.console() is non-null only when both stdin
    // and stdout are terminals (Java 17).
    return System.console() != null;
  }

  // ---------------------------------------------------------------------------------------
  // sql

  private static int sql(List<String> args, InputStream stdin, PrintStream out,
      PrintStream err, boolean stdinIsTerminal, boolean stdoutIsTerminal) {
    if (args.contains("--help") || args.contains("-h")) {
      // sqlline would print its own usage and report an argument error.
      out.print(USAGE);
      return EXIT_OK;
    }
    final List<String> sqllineArgs;
    try {
      sqllineArgs = new ArrayList<>(
          sqllineArgs(args, Path.of(""), stdinIsTerminal, stdoutIsTerminal));
    } catch (IllegalArgumentException e) {
      return usageError(err, "sql: " + e.getMessage());
    }
    boolean script = isScript(args);
    if (script || !stdinIsTerminal) {
      // -e, -f or SQL piped in: our script runner (sqlline would drop an unterminated statement
      // silently and carry on after a failed one when reading a pipe).
      final ScriptRunner.Options options;
      try {
        List<String> runnerArgs = new ArrayList<>(sqllineArgs);
        if (!script) {
          String text = new String(stdin.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
          runnerArgs.addAll(List.of("-e", text));
        }
        options = ScriptRunner.parse(runnerArgs);
      } catch (IllegalArgumentException e) {
        return usageError(err, "sql: " + e.getMessage());
      } catch (IOException e) {
        err.println("travertine: sql: cannot read standard input: " + e.getMessage());
        return EXIT_FAILURE;
      }
      int status = new ScriptRunner(out, err, stdoutIsTerminal).run(options);
      out.flush();
      err.flush();
      return status;
    }
    try {
      return runSqlline(sqllineArgs, out, err);
    } catch (IOException e) {
      err.println("travertine: sql: " + e);
      return EXIT_FAILURE;
    }
  }

  /** The interactive shell: sqlline on the system terminal. */
  private static int runSqlline(List<String> sqllineArgs, PrintStream out, PrintStream err)
      throws IOException {
    InteractiveSqlLine sqlline = new InteractiveSqlLine();
    sqlline.setOutputStream(out);
    sqlline.setErrorStream(err);
    final SqlLine.Status status;
    try {
      status = sqlline.begin(sqllineArgs.toArray(new String[0]), null, true);
    } finally {
      out.flush();
      err.flush();
    }
    switch (status) {
      case OK:
        return EXIT_OK;
      case ARGS:
        return EXIT_USAGE;
      default:
        return EXIT_FAILURE;
    }
  }

  /** Whether the {@code sql} arguments ask sqlline to run commands and exit (-e or -f). */
  static boolean isScript(List<String> args) {
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals("-e") || a.equals("-f")) {
        return true;
      }
      if (SQLLINE_VALUE_OPTIONS.contains(a)) {
        i++;
      }
    }
    return false;
  }

  /**
   * Translates the arguments of {@code travertine sql} into sqlline's arguments.
   *
   * <p>{@code --data DIR} (or {@code --data=DIR}) is ours: it becomes
   * {@code -d dev.travertine.jdbc.Driver -u jdbc:travertine:<absolute DIR>}; without
   * {@code -u} (or sqlline's {@code -c}/{@code -cn}) the default DIR is {@code ./data},
   * and the embedded connection gets {@code --isolation=TRANSACTION_NONE} (sqlline's default,
   * REPEATABLE_READ, is not supported by Calcite and costs an error line per run).
   * Unless {@code -n} or {@code -p} is given, user and password are empty (sqlline would
   * otherwise prompt for them). Non-interactive runs ({@code -e}, {@code -f}, or stdin not a
   * terminal, for which {@code run} then appends {@code -f <temporary copy of stdin>}) get
   * {@code --silent=true} (no banner, no "1 row selected" lines; note that
   * sqlline 1.12 treats any {@code --silent=…} as true, so {@code --silent=false} is
   * dropped) and {@code --force=false} (a script stops at its first failure, whatever
   * ~/.sqlline/sqlline.properties says). When stdout is not a terminal,
   * {@code --maxWidth=10000}. Defaults the caller already gave are not added; all other
   * arguments pass through unchanged, after the defaults, in their order.
   *
   * @param args arguments after {@code sql}
   * @param workingDir directory a relative {@code --data} is resolved against
   * @throws IllegalArgumentException on a usage error
   */
  static List<String> sqllineArgs(List<String> args, Path workingDir,
      boolean stdinIsTerminal, boolean stdoutIsTerminal) {
    String dataDir = null;
    boolean hasUrl = false;
    boolean hasDriver = false;
    boolean hasCredentials = false;
    boolean script = false;
    boolean maxWidthGiven = false;
    boolean isolationGiven = false;
    boolean nullValueGiven = false;
    List<String> passThrough = new ArrayList<>();
    boolean remote = false;
    String host = null;
    String port = null;
    String user = null;
    String password = null;
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals("--host") || a.equals("--port") || a.equals("--user") || a.equals("--password")) {
        if (i + 1 >= args.size()) {
          throw new IllegalArgumentException(a + " needs a value");
        }
        String v = args.get(++i);
        switch (a) {
          case "--host" -> host = v;
          case "--port" -> port = v;
          case "--user" -> user = v;
          default -> password = v;
        }
        continue;
      }
      if (a.equals("--data")) {
        if (i + 1 >= args.size() || args.get(i + 1).startsWith("-")) {
          throw new IllegalArgumentException("--data needs a directory");
        }
        dataDir = args.get(++i);
        continue;
      }
      if (a.startsWith("--data=")) {
        dataDir = a.substring("--data=".length());
        if (dataDir.isEmpty()) {
          throw new IllegalArgumentException("--data needs a directory");
        }
        continue;
      }
      if (a.startsWith("--")) {
        String name = propertyName(a);
        switch (name) {
          case "silent":
            if (a.startsWith("--no-") || a.toLowerCase(Locale.ROOT).equals("--silent=false")) {
              continue; // not silent is sqlline's default; it would read this as silent
            }
            break;
          case "maxwidth":
            maxWidthGiven = true;
            break;
          case "isolation":
            isolationGiven = true;
            break;
          case "nullvalue":
            nullValueGiven = true;
            break;
          default:
            break;
        }
        passThrough.add(a);
        continue;
      }
      if (SQLLINE_VALUE_OPTIONS.contains(a)) {
        if (i + 1 >= args.size()) {
          throw new IllegalArgumentException(a + " needs a value");
        }
        switch (a) {
          case "-u": case "-c": case "-cn":
            hasUrl = true;
            remote |= a.equals("-u") && dev.travertine.jdbc.RemoteDriver.isRemote(args.get(i + 1));
            break;
          case "-d": hasDriver = true; break;
          case "-n": case "-p": hasCredentials = true; break;
          case "-e": case "-f": script = true; break;
          default: break;
        }
        passThrough.add(a);
        passThrough.add(args.get(++i));
        continue;
      }
      passThrough.add(a); // sqlline properties files, or options sqlline will reject
    }

    List<String> result = new ArrayList<>();
    if (host != null || port != null) {
      if (hasUrl) {
        throw new IllegalArgumentException("--host/--port and -u exclude each other");
      }
      result.addAll(List.of("-u", ToolCommands.targetUrl(null, null, host, port, user, password)));
      hasUrl = true;
      remote = true;
    } else if (user != null || password != null) {
      throw new IllegalArgumentException("--user/--password need --host or --port");
    }
    if (remote && !isolationGiven) {
      // A Travertine server answers sqlline's REPEATABLE_READ request with an error line.
      result.add("--isolation=TRANSACTION_NONE");
    }
    if (hasUrl) {
      if (dataDir != null) {
        throw new IllegalArgumentException("--data and -u (or -c/-cn) exclude each other");
      }
    } else {
      Path dir = workingDir.resolve(dataDir == null ? DEFAULT_DATA_DIR : dataDir)
          .toAbsolutePath().normalize();
      if (!hasDriver) {
        result.addAll(List.of("-d", DRIVER));
      }
      result.addAll(List.of("-u", URL_PREFIX + dir));
      if (!isolationGiven) {
        // sqlline asks for TRANSACTION_REPEATABLE_READ on connect and prints an error line
        // on every run when the driver (Calcite's) does not support it.
        result.add("--isolation=TRANSACTION_NONE");
      }
    }
    if (!hasCredentials) {
      result.addAll(List.of("-n", "", "-p", ""));
    }
    if (!script && stdinIsTerminal && !nullValueGiven) {
      result.add("--nullValue=NULL"); // sqlline's default prints NULL blank for some types
    }
    if (!stdoutIsTerminal && !maxWidthGiven) {
      result.add("--maxWidth=" + NON_TERMINAL_MAX_WIDTH);
    }
    result.addAll(passThrough);
    return result;
  }

  /** {@code --no-foo}, {@code --foo}, {@code --foo=bar} → {@code foo} (lower case). */
  private static String propertyName(String arg) {
    String s = arg.startsWith("--no-") ? arg.substring("--no-".length()) : arg.substring(2);
    int eq = s.indexOf('=');
    return (eq < 0 ? s : s.substring(0, eq)).toLowerCase(Locale.ROOT);
  }

  /**
   * The interactive shell's sqlline: SQL errors as one line (the engine's words, code and
   * SQLSTATE) instead of a stack trace, and a usable width on terminals that report none.
   */
  static final class InteractiveSqlLine extends SqlLine {
    @Override
    public LineReader getConsoleReader(InputStream inputStream, History fileHistory)
        throws IOException {
      LineReader reader = super.getConsoleReader(inputStream, fileHistory);
      // A terminal that reports no width (a pty nobody sized) leaves maxWidth at 0, and
      // sqlline then prints empty tables. Arguments (--maxWidth) are applied after this.
      if (getOpts().getMaxWidth() <= 0 && reader.getTerminal().getWidth() <= 0) {
        getOpts().set("maxWidth", String.valueOf(NON_TERMINAL_MAX_WIDTH), true);
      }
      return reader;
    }

    @Override
    public void handleException(Throwable e) {
      Throwable t = e;
      while (t instanceof InvocationTargetException && t.getCause() != null) {
        t = t.getCause();
      }
      // sqlline.WrappedSqlException: a SQLException thrown while printing rows
      if (!(t instanceof SQLException) && t.getCause() instanceof SQLException
          && t.getClass().getName().startsWith("sqlline.")) {
        t = t.getCause();
      }
      if (t instanceof SQLWarning) {
        super.handleException(e);
        return;
      }
      if (t instanceof SQLException && !getOpts().getVerbose()) {
        for (SQLException s = (SQLException) t; s != null; s = s.getNextException()) {
          error(String.format(Locale.ROOT, "Error: %s (code %d, SQLSTATE %s)",
              dev.travertine.server.shell.ErrorText.message(s, false), s.getErrorCode(),
              s.getSQLState() == null ? "" : s.getSQLState().trim()));
          if (!getOpts().getShowNestedErrs() || s.getNextException() == s) {
            break;
          }
        }
        return;
      }
      super.handleException(e);
    }
  }
}
