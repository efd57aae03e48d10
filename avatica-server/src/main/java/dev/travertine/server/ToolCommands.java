package dev.travertine.server;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The tool commands of {@link TravertineCli} besides {@code sql}: {@code load}, {@code benchmark}
 * and {@code server}, their options and the target (-u, --data, --host/--port) they share.
 */
final class ToolCommands {
  private ToolCommands() {}

  /**
   * The JDBC URL of a tool's target: {@code -u URL}, an embedded {@code --data DIR} (default
   * ./data), or a server at {@code --host/--port} (credentials in the URL).
   */
  static String targetUrl(String url, String data, String host, String port, String user, String password) {
    int targets = (url != null ? 1 : 0) + (data != null ? 1 : 0) + (host != null || port != null ? 1 : 0);
    if (targets > 1) {
      throw new IllegalArgumentException("give one of -u, --data, --host/--port");
    }
    if (host != null || port != null) {
      return dev.travertine.jdbc.RemoteDriver.PREFIX + "url=http://" + (host == null ? "127.0.0.1" : host) + ":"
          + (port == null ? "8765" : port) + ";serialization=protobuf"
          + (user == null ? "" : ";authentication=BASIC;avatica_user=" + user + ";avatica_password="
          + (password == null ? "" : password));
    }
    if (url != null) {
      return url;
    }
    return TravertineCli.URL_PREFIX + Path.of(data == null ? TravertineCli.DEFAULT_DATA_DIR : data).toAbsolutePath().normalize();
  }

  /** The -u / --data / --host / --port / --user / --password options the tools share. */
  static final class Target {
    String url;
    String data;
    String host;
    String port;
    String user;
    String password;

    /** Takes one of the target options; false if it is another option. */
    boolean accept(String option, String value) {
      switch (option) {
        case "-u" -> url = value;
        case "--data" -> data = value;
        case "--host" -> host = value;
        case "--port" -> port = value;
        case "--user" -> user = value;
        case "--password" -> password = value;
        default -> {
          return false;
        }
      }
      return true;
    }

    /** The JDBC URL (see {@link #targetUrl}). */
    String url() {
      return targetUrl(url, data, host, port, user, password);
    }

    /** The user for connection properties; null when the server URL carries the credentials. */
    String user() {
      return host != null || port != null ? null : user;
    }
  }

  /** {@code load}. */
  static int load(List<String> args, PrintStream out, PrintStream err, boolean terminal) {
    Target target = new Target();
    String url;
    String table = null;
    String format = null;
    boolean header = false;
    long maxErrors = 0;
    int batch = 100_000;
    Character delimiter = null;
    String nullString = null;
    List<Path> files = new ArrayList<>();
    try {
      for (int i = 0; i < args.size(); i++) {
        String a = args.get(i);
        if (a.equals("--header")) {
          header = true;
          continue;
        }
        if (a.equals("--delimiter") || a.equals("--null-string")) {
          if (i + 1 >= args.size()) {
            return TravertineCli.usageError(err, "load: " + a + " needs a value");
          }
          String v = args.get(++i);
          if (a.equals("--delimiter")) {
            String d = v.equals("\\t") || v.equals("tab") ? "\t" : v;
            if (d.length() != 1) {
              return TravertineCli.usageError(err, "load: --delimiter takes one character, got '" + v + "'");
            }
            delimiter = d.charAt(0);
          } else {
            nullString = v;
          }
          continue;
        }
        if (!a.startsWith("-")) {
          files.add(Path.of(a));
          continue;
        }
        if (i + 1 >= args.size()) {
          return TravertineCli.usageError(err, "load: " + a + " needs a value");
        }
        String v = args.get(++i);
        if (target.accept(a, v)) {
          continue;
        }
        switch (a) {
          case "--table" -> table = v;
          case "--format" -> format = v.toLowerCase(Locale.ROOT);
          case "--max-errors" -> maxErrors = Long.parseLong(v);
          case "--batch" -> batch = Integer.parseInt(v);
          default -> {
            return TravertineCli.usageError(err, "load: unknown option '" + a + "'");
          }
        }
      }
      url = target.url();
    } catch (IllegalArgumentException e) {
      return TravertineCli.usageError(err, "load: " + e.getMessage());
    }
    if (table == null || files.isEmpty()) {
      return TravertineCli.usageError(err, "load: give --table T and at least one file");
    }
    if (format == null) {
      format = dev.travertine.server.tools.Loader.formatOf(files.get(0).getFileName().toString());
    }
    if (List.of("jsonlines", "ndjson", "json").contains(format)) {
      format = "jsoneachrow";
    }
    if (!List.of("csv", "tsv", "jsoneachrow", "orc", "parquet").contains(format)) {
      return TravertineCli.usageError(err, "load: unsupported format '" + format + "' (csv, tsv, jsoneachrow, parquet or orc)");
    }
    for (Path f : files) {
      if (!java.nio.file.Files.isRegularFile(f)) {
        err.println("travertine: load: no such file: " + f);
        return TravertineCli.EXIT_FAILURE;
      }
    }
    try {
      return dev.travertine.server.tools.Loader.run(new dev.travertine.server.tools.Loader.Options(url,
          target.user(), target.password, table, format, header, maxErrors, batch, files, terminal, delimiter,
          nullString), out, err);
    } catch (Exception e) {
      err.println("travertine: load: " + e.getMessage());
      return TravertineCli.EXIT_FAILURE;
    }
  }

  /** {@code benchmark}. */
  static int benchmark(List<String> args, PrintStream out, PrintStream err) {
    Target target = new Target();
    List<String> queries = new ArrayList<>();
    long iterations = -1;
    int concurrency = 1;
    double seconds = -1;
    int warmup = 1;
    boolean json = false;
    java.util.Map<String, String> settings = new java.util.LinkedHashMap<>();
    try {
      for (int i = 0; i < args.size(); i++) {
        String a = args.get(i);
        if (a.equals("--json")) {
          json = true;
          continue;
        }
        if (a.equals("--cumulative")) {
          continue; // the report covers the whole run: it is cumulative
        }
        if (a.startsWith("--") && a.indexOf('=') > 2) { // a session setting, as clickhouse-benchmark takes them
          String name = a.substring(2, a.indexOf('='));
          String value = a.substring(a.indexOf('=') + 1);
          try {
            dev.travertine.mergetree.settings.Setting setting = dev.travertine.mergetree.settings.Settings.require(name,
                dev.travertine.mergetree.settings.Setting.Scope.SESSION);
            setting.normalize(value);
            name = setting.name();
          } catch (IllegalArgumentException e) {
            return TravertineCli.usageError(err, "benchmark: " + a + ": not an option, or " + Character.toLowerCase(
                e.getMessage().charAt(0)) + e.getMessage().substring(1));
          }
          settings.put(name, value);
          continue;
        }
        if (i + 1 >= args.size()) {
          return TravertineCli.usageError(err, "benchmark: " + a + " needs a value");
        }
        String v = args.get(++i);
        if (target.accept(a, v)) {
          continue;
        }
        switch (a) {
          case "-q" -> queries.add(v);
          case "-f" -> queries.addAll(dev.travertine.server.tools.Benchmark.splitQueries(
              java.nio.file.Files.readString(Path.of(v))));
          case "-i" -> iterations = Long.parseLong(v);
          case "-c" -> concurrency = Integer.parseInt(v);
          case "-t" -> seconds = Double.parseDouble(v);
          case "--warmup" -> warmup = Integer.parseInt(v);
          default -> {
            return TravertineCli.usageError(err, "benchmark: unknown option '" + a + "'");
          }
        }
      }
    } catch (NumberFormatException e) {
      return TravertineCli.usageError(err, "benchmark: not a number: " + e.getMessage());
    } catch (IOException e) {
      err.println("travertine: benchmark: cannot read queries: " + e.getMessage());
      return TravertineCli.EXIT_FAILURE;
    }
    if (queries.isEmpty()) {
      return TravertineCli.usageError(err, "benchmark: give queries with -q SQL or -f FILE");
    }
    if (concurrency < 1) {
      return TravertineCli.usageError(err, "benchmark: -c must be at least 1");
    }
    String url;
    try {
      url = target.url();
    } catch (IllegalArgumentException e) {
      return TravertineCli.usageError(err, "benchmark: " + e.getMessage());
    }
    if (iterations < 0 && seconds < 0) {
      iterations = 100;
    }
    try {
      return dev.travertine.server.tools.Benchmark.run(new dev.travertine.server.tools.Benchmark.Options(
          url, target.user(), target.password, queries, iterations, concurrency, seconds, warmup, json, settings), out,
          err);
    } catch (Exception e) {
      Throwable c = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null ? e.getCause() : e;
      err.println("travertine: benchmark: " + c.getMessage());
      return TravertineCli.EXIT_FAILURE;
    }
  }

  /** {@code server}: runs until SIGTERM/Ctrl-C. */
  static int server(List<String> args, PrintStream out, PrintStream err) {
    Path config = null;
    java.util.Map<String, String> overrides = new java.util.HashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      String key = switch (a) {
        case "--config" -> "config";
        case "--data" -> "data";
        case "--port" -> "port";
        case "--host" -> "host";
        case "--serialization" -> "serialization";
        default -> null;
      };
      if (key == null) {
        return TravertineCli.usageError(err, "server: unknown option '" + a + "'");
      }
      if (i + 1 >= args.size()) {
        return TravertineCli.usageError(err, "server: " + a + " needs a value");
      }
      String v = args.get(++i);
      if (key.equals("config")) {
        config = Path.of(v);
      } else {
        overrides.put(key, v);
      }
    }
    ServerConfig cfg;
    try {
      cfg = ServerConfig.load(config, overrides);
    } catch (IOException | IllegalArgumentException e) {
      err.println("travertine: server: " + e.getMessage());
      return TravertineCli.EXIT_USAGE;
    }
    try {
      java.nio.file.Files.createDirectories(cfg.dataDir());
      if (cfg.logFile().getParent() != null) {
        java.nio.file.Files.createDirectories(cfg.logFile().getParent());
      }
    } catch (IOException e) {
      err.println("travertine: server: " + e.getMessage());
      return TravertineCli.EXIT_FAILURE;
    }
    // slf4j-simple reads these when the first logger is created, which is after this point.
    System.setProperty("org.slf4j.simpleLogger.logFile", cfg.logFile().toString());
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "info");
    System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
    TravertineServer server;
    try {
      server = TravertineServer.start(cfg);
    } catch (Exception e) {
      err.println("travertine: server: cannot start: " + e.getMessage());
      return TravertineCli.EXIT_FAILURE;
    }
    Thread hook = new Thread(server::close, "travertine-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    int exchange = server.exchangePort();
    out.println("travertine " + TravertineCli.version() + " server on port " + server.port()
        + (exchange >= 0 ? ", exchange on port " + exchange : "") + ", data " + cfg.dataDir()
        + ", log " + cfg.logFile() + "; connect with: bin/travertine sql -u \"" + server.jdbcUrl() + "\""
        + "; web console: " + server.httpUrl() + "play");
    out.flush();
    try {
      server.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return TravertineCli.EXIT_OK;
  }
}
