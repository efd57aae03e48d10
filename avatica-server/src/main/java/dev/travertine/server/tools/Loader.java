package dev.travertine.server.tools;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code travertine load}: bulk loads files into a table. Embedded, the engine's parallel loader
 * reads them into parts and commits them as one insert; through a server, they go as one HTTP
 * insert ({@link HttpLoad}); through any other JDBC URL, as JDBC batches (one insert per batch),
 * each field converted to its column's type on the client so that bad rows are reported with
 * their line numbers. Progress shows as a bar on a terminal, periodic lines otherwise
 * ({@link LoadProgress}).
 */
public final class Loader {
  /** What to load. */
  public record Options(String url, String user, String password, String table, String format, boolean header,
      long maxErrors, int batchSize, List<Path> files, boolean terminal, Character delimiter, String nullString) {
    public Options(String url, String user, String password, String table, String format, boolean header,
        long maxErrors, int batchSize, List<Path> files, boolean terminal) {
      this(url, user, password, table, format, header, maxErrors, batchSize, files, terminal, null, null);
    }
  }

  /** A bad row. */
  static final class BadRow extends Exception {
    BadRow(String message) {
      super(message);
    }
  }

  private Loader() {}

  /** The format a file name's extension names ({@code .gz}/{@code .zst} looked through), else csv. */
  public static String formatOf(String fileName) {
    dev.travertine.formats.FileFormat f = dev.travertine.formats.FileFormat.ofExtension(fileName);
    return f == null ? "csv" : f.name().toLowerCase(Locale.ROOT);
  }

  static boolean binary(String format) {
    return format.equals("parquet") || format.equals("orc");
  }

  public static int run(Options o, PrintStream out, PrintStream err) throws Exception {
    if (dev.travertine.jdbc.RemoteDriver.isRemote(o.url())) {
      return HttpLoad.run(o, out, err);
    }
    if (o.url().startsWith(dev.travertine.jdbc.Driver.PREFIX)) {
      return binary(o.format()) ? runEmbeddedFiles(o, out, err) : runEmbedded(o, out, err);
    }
    if (binary(o.format())) {
      throw new IllegalArgumentException(o.format() + " files load embedded (--data) or through a Travertine server");
    }
    java.util.Properties p = new java.util.Properties();
    if (o.user() != null) {
      p.setProperty("user", o.user());
      p.setProperty("password", o.password() == null ? "" : o.password());
    }
    long totalBytes = 0;
    for (Path f : o.files()) {
      totalBytes += Files.size(f);
    }
    try (Connection c = DriverManager.getConnection(o.url(), p)) {
      int[] types;
      String[] names;
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT * FROM " + quote(o.table()) + " WHERE 1 = 0")) {
        ResultSetMetaData md = rs.getMetaData();
        types = new int[md.getColumnCount()];
        names = new String[types.length];
        for (int i = 0; i < types.length; i++) {
          types[i] = md.getColumnType(i + 1);
          names[i] = md.getColumnName(i + 1);
        }
      }
      String sql = "INSERT INTO " + quote(o.table()) + " VALUES (" + "?, ".repeat(types.length - 1) + "?)";
      LoadProgress progress = new LoadProgress(totalBytes, o.terminal(), err);
      long loaded = 0;
      long errors = 0;
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        int inBatch = 0;
        long earlierFiles = 0; // bytes of the files already loaded, for progress
        for (Path f : o.files()) {
          long size = Files.size(f);
          try (Records records = open(o, f)) {
            List<String> rec;
            while ((rec = records.next()) != null) {
              try {
                bind(ps, rec, types, names);
              } catch (BadRow e) {
                errors++;
                err.printf(Locale.ROOT, "%s%s%s: %s%n", o.terminal() ? "\r" : "", f, records.where(), e.getMessage());
                if (errors > o.maxErrors()) {
                  if (inBatch > 0) {
                    ps.executeBatch();
                    loaded += inBatch;
                  }
                  err.printf(Locale.ROOT, "stopped after %d bad row(s) (--max-errors %d); %d rows were loaded%n",
                      errors, o.maxErrors(), loaded);
                  return 1;
                }
                continue;
              }
              ps.addBatch();
              if (++inBatch == o.batchSize()) {
                ps.executeBatch();
                loaded += inBatch;
                inBatch = 0;
              }
              progress.update(loaded + inBatch, earlierFiles + records.bytesRead());
            }
          }
          earlierFiles += size;
        }
        if (inBatch > 0) {
          ps.executeBatch();
          loaded += inBatch;
        }
      }
      progress.done(loaded);
      out.printf(Locale.ROOT, "loaded %s into %s%s%n", rows(loaded), o.table(),
          errors > 0 ? " (" + rows(errors).replace("row", "bad row") + " skipped)" : "");
      return 0;
    }
  }


  /**
   * Embedded CSV and TSV: the engine's parallel loader reads the files itself, straight into
   * parts, and commits them all at once (or nothing, on a bad row beyond --max-errors).
   */
  private static int runEmbedded(Options o, PrintStream out, PrintStream err) throws Exception {
    java.util.Properties p = new java.util.Properties();
    if (o.user() != null) {
      p.setProperty("user", o.user());
      p.setProperty("password", o.password() == null ? "" : o.password());
    }
    dev.travertine.formats.TextFormat f = dev.travertine.formats.TextFormat.named(o.format()).withHeader(o.header());
    if (o.delimiter() != null) {
      f = f.withDelimiter(o.delimiter());
    }
    if (o.nullString() != null) {
      f = f.withNullString(o.nullString());
    }
    long totalBytes = 0;
    List<dev.travertine.formats.BulkLoad.Source> sources = new ArrayList<>();
    for (Path file : o.files()) {
      totalBytes += Files.size(file);
      sources.add(dev.travertine.formats.BulkLoad.Source.file(file));
    }
    LoadProgress progress = new LoadProgress(totalBytes, o.terminal(), err);
    try (Connection c = DriverManager.getConnection(o.url(), p)) {
      dev.travertine.formats.BulkLoad.Result r;
      try {
        r = dev.travertine.calcite.dml.TableLoad.load(c, new dev.travertine.calcite.dml.TableLoad.Request(o.table(), f,
            o.maxErrors(), sources, progress::update, "LOAD " + o.files().size() + " file(s) INTO " + o.table()
            + " FORMAT " + f.kind()));
      } catch (dev.travertine.formats.BulkLoad.BadInputException e) {
        stopped(e, o.terminal(), err);
        return 1;
      }
      progress.done(r.rows());
      for (var bad : r.samples()) {
        err.println(bad);
      }
      out.printf(Locale.ROOT, "loaded %s into %s%s%n", rows(r.rows()), o.table(),
          r.badRows() > 0 ? " (" + rows(r.badRows()).replace("row", "bad row") + " skipped)" : "");
      return 0;
    }
  }

  /** "1 row", "2 rows" (with thousands separators). */
  static String rows(long n) {
    return String.format(Locale.ROOT, "%,d %s", n, n == 1 ? "row" : "rows");
  }

  /**
   * A load that stopped at bad input: each bad row once (the exception's message already names the
   * one that stopped it), then what happened.
   */
  private static void stopped(dev.travertine.formats.BulkLoad.BadInputException e, boolean terminal, PrintStream err) {
    if (terminal) {
      err.print("\r");
    }
    String message = String.valueOf(e.getMessage());
    for (var bad : e.badRows()) {
      if (!message.contains(String.valueOf(bad))) {
        err.println(bad);
      }
    }
    err.println("stopped: " + message);
  }

  /** Embedded Parquet or ORC: the engine reads the files' row groups or stripes in parallel, one commit. */
  private static int runEmbeddedFiles(Options o, PrintStream out, PrintStream err) throws Exception {
    java.util.Properties p = new java.util.Properties();
    if (o.user() != null) {
      p.setProperty("user", o.user());
      p.setProperty("password", o.password() == null ? "" : o.password());
    }
    List<dev.travertine.formats.FileLoad.Input> inputs = new ArrayList<>();
    long totalBytes = 0;
    for (Path file : o.files()) {
      inputs.add(dev.travertine.formats.FileLoad.Input.local(file));
      totalBytes += Files.size(file);
    }
    var kind = o.format().equals("parquet") ? dev.travertine.formats.FileLoad.Kind.PARQUET
        : dev.travertine.formats.FileLoad.Kind.ORC;
    LoadProgress progress = new LoadProgress(totalBytes, o.terminal(), err);
    try (Connection c = DriverManager.getConnection(o.url(), p)) {
      dev.travertine.formats.BulkLoad.Result r;
      try {
        r = dev.travertine.calcite.dml.TableLoad.load(c, new dev.travertine.calcite.dml.TableLoad.FilesRequest(o.table(),
            kind, inputs, progress::update, "LOAD " + o.files().size() + " file(s) INTO " + o.table() + " FORMAT "
            + kind, o.maxErrors()));
      } catch (dev.travertine.formats.BulkLoad.BadInputException e) {
        stopped(e, o.terminal(), err);
        return 1;
      }
      progress.done(r.rows());
      for (var bad : r.samples()) {
        err.println(bad);
      }
      out.printf(Locale.ROOT, "loaded %s into %s%s%n", rows(r.rows()), o.table(),
          r.badRows() > 0 ? " (" + rows(r.badRows()).replace("row", "bad row") + " skipped)" : "");
      return 0;
    }
  }

  static String quote(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  /** Converts the fields of one record to the column types. */
  static void bind(PreparedStatement ps, List<String> rec, int[] types, String[] names)
      throws BadRow, SQLException {
    if (rec.size() != types.length) {
      throw new BadRow("expected " + types.length + " fields, found " + rec.size());
    }
    for (int i = 0; i < types.length; i++) {
      String v = rec.get(i);
      if (v == null) {
        ps.setNull(i + 1, types[i]);
        continue;
      }
      try {
        switch (types[i]) {
          case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> ps.setLong(i + 1, Long.parseLong(v.trim()));
          case Types.REAL, Types.FLOAT, Types.DOUBLE -> ps.setDouble(i + 1, Double.parseDouble(v.trim()));
          case Types.DECIMAL, Types.NUMERIC -> ps.setBigDecimal(i + 1, new BigDecimal(v.trim()));
          case Types.BOOLEAN -> ps.setBoolean(i + 1, switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true", "1", "t", "yes" -> true;
            case "false", "0", "f", "no" -> false;
            default -> throw new IllegalArgumentException("not a boolean: '" + v + "'");
          });
          case Types.DATE -> ps.setDate(i + 1, java.sql.Date.valueOf(java.time.LocalDate.parse(v.trim())));
          case Types.TIMESTAMP -> ps.setTimestamp(i + 1, java.sql.Timestamp.valueOf(v.trim().replace('T', ' ')));
          default -> ps.setString(i + 1, v);
        }
      } catch (IllegalArgumentException | java.time.DateTimeException e) {
        throw new BadRow("column " + names[i] + ": cannot read '" + v + "' as " + typeName(types[i]));
      }
    }
  }

  private static String typeName(int t) {
    return switch (t) {
      case Types.TINYINT -> "TINYINT";
      case Types.SMALLINT -> "SMALLINT";
      case Types.INTEGER -> "INTEGER";
      case Types.BIGINT -> "BIGINT";
      case Types.REAL, Types.FLOAT -> "REAL";
      case Types.DOUBLE -> "DOUBLE";
      case Types.DECIMAL, Types.NUMERIC -> "DECIMAL";
      case Types.BOOLEAN -> "BOOLEAN";
      case Types.DATE -> "DATE";
      case Types.TIMESTAMP -> "TIMESTAMP";
      default -> "type " + t;
    };
  }

  /** Records of one input file as text fields, with where the last one came from. */
  interface Records extends AutoCloseable {
    /** The next record, or null at the end. */
    List<String> next() throws IOException;

    /** Position of the last record for messages: ":line". */
    String where();

    /** Bytes of the file consumed so far. */
    long bytesRead();

    @Override void close() throws IOException;
  }

  private static Records open(Options o, Path f) throws IOException {
    dev.travertine.formats.CountingInputStream counting = new dev.travertine.formats.CountingInputStream(Files.newInputStream(f));
    BufferedReader r = new BufferedReader(new InputStreamReader(counting, StandardCharsets.UTF_8), 1 << 16);
    RecordReader records = new RecordReader(r, o.format().equals("tsv") ? '\t' : ',', o.format().equals("csv"));
    if (o.header()) {
      records.next();
    }
    return new Records() {
      @Override public List<String> next() throws IOException {
        return records.next();
      }

      @Override public String where() {
        return ":" + records.line();
      }

      @Override public long bytesRead() {
        return counting.count();
      }

      @Override public void close() throws IOException {
        r.close();
      }
    };
  }

  /**
   * CSV (RFC 4180: quotes, doubled quotes, line breaks inside quotes) or TSV (no quoting;
   * {@code \N} is NULL) records. In CSV an empty unquoted field is NULL.
   */
  static final class RecordReader {
    private final BufferedReader in;
    private final char sep;
    private final boolean csv;
    private long line;
    private long nextLine = 1;

    RecordReader(BufferedReader in, char sep, boolean csv) {
      this.in = in;
      this.sep = sep;
      this.csv = csv;
    }

    /** First line of the last record. */
    long line() {
      return line;
    }

    List<String> next() throws IOException {
      String l = in.readLine();
      if (l == null) {
        return null;
      }
      line = nextLine++;
      List<String> out = new ArrayList<>();
      if (!csv) {
        for (String f : l.split("\t", -1)) {
          out.add(f.equals("\\N") ? null : f);
        }
        return out;
      }
      StringBuilder f = new StringBuilder();
      boolean quoted = false;
      boolean wasQuoted = false;
      int i = 0;
      while (true) {
        if (i >= l.length()) {
          if (quoted) {
            String more = in.readLine();
            if (more == null) {
              throw new IOException("line " + line + ": unterminated quoted field");
            }
            nextLine++;
            f.append('\n');
            l = more;
            i = 0;
            continue;
          }
          out.add(f.length() == 0 && !wasQuoted ? null : f.toString());
          return out;
        }
        char ch = l.charAt(i++);
        if (quoted) {
          if (ch == '"') {
            if (i < l.length() && l.charAt(i) == '"') {
              f.append('"');
              i++;
            } else {
              quoted = false;
            }
          } else {
            f.append(ch);
          }
        } else if (ch == '"') {
          quoted = true;
          wasQuoted = true;
        } else if (ch == sep) {
          out.add(f.length() == 0 && !wasQuoted ? null : f.toString());
          f.setLength(0);
          wasQuoted = false;
        } else {
          f.append(ch);
        }
      }
    }
  }
}
