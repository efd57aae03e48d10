package dev.travertine.server.tools;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
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
 * {@code travertine load}: bulk loads CSV or TSV files into a table through JDBC batches (one
 * insert per batch), converting each field to its column's type on the client so that bad rows
 * are reported with their line numbers; shows progress (a bar on a terminal, periodic lines
 * otherwise).
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

  /** Bytes per read of the files and per chunk of a remote load's request body. */
  private static final int UPLOAD_CHUNK = 1 << 20;

  /** The format a file name's extension names ({@code .gz}/{@code .zst} looked through), else csv. */
  public static String formatOf(String fileName) {
    dev.travertine.formats.FileFormat f = dev.travertine.formats.FileFormat.ofExtension(fileName);
    return f == null ? "csv" : f.name().toLowerCase(Locale.ROOT);
  }

  private static boolean binary(String format) {
    return format.equals("parquet") || format.equals("orc");
  }

  public static int run(Options o, PrintStream out, PrintStream err) throws Exception {
    if (dev.travertine.jdbc.RemoteDriver.isRemote(o.url())) {
      return runHttp(o, out, err);
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
      Progress progress = new Progress(totalBytes, o.terminal(), err);
      long loaded = 0;
      long errors = 0;
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        int inBatch = 0;
        long earlierFiles = 0; // bytes of the files already loaded, for progress
        for (Path f : o.files()) {
          long size = Files.size(f);
          try (Records records = open(o, f, size)) {
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
      out.printf(Locale.ROOT, "loaded %d rows into %s%s%n", loaded, o.table(),
          errors > 0 ? " (" + errors + " bad rows skipped)" : "");
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
    Progress progress = new Progress(totalBytes, o.terminal(), err);
    try (Connection c = DriverManager.getConnection(o.url(), p)) {
      dev.travertine.formats.BulkLoad.Result r;
      try {
        r = dev.travertine.calcite.TableLoad.load(c, new dev.travertine.calcite.TableLoad.Request(o.table(), f,
            o.maxErrors(), sources, progress::update, "LOAD " + o.files().size() + " file(s) INTO " + o.table()
            + " FORMAT " + f.kind()));
      } catch (dev.travertine.formats.BulkLoad.BadInputException e) {
        if (o.terminal()) {
          err.print("\r");
        }
        for (var bad : e.badRows()) {
          err.println(bad);
        }
        err.println("stopped: " + e.getMessage());
        return 1;
      }
      progress.done(r.rows());
      for (var bad : r.samples()) {
        err.println(bad);
      }
      out.printf(Locale.ROOT, "loaded %d rows into %s%s%n", r.rows(), o.table(),
          r.badRows() > 0 ? " (" + r.badRows() + " bad rows skipped)" : "");
      return 0;
    }
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
    Progress progress = new Progress(totalBytes, o.terminal(), err);
    try (Connection c = DriverManager.getConnection(o.url(), p)) {
      dev.travertine.formats.BulkLoad.Result r;
      try {
        r = dev.travertine.calcite.TableLoad.load(c, new dev.travertine.calcite.TableLoad.FilesRequest(o.table(),
            kind, inputs, progress::update, "LOAD " + o.files().size() + " file(s) INTO " + o.table() + " FORMAT "
            + kind, o.maxErrors()));
      } catch (dev.travertine.formats.BulkLoad.BadInputException e) {
        if (o.terminal()) {
          err.print("\r");
        }
        for (var bad : e.badRows()) {
          err.println(bad);
        }
        err.println("stopped: " + e.getMessage());
        return 1;
      }
      progress.done(r.rows());
      for (var bad : r.samples()) {
        err.println(bad);
      }
      out.printf(Locale.ROOT, "loaded %d rows into %s%s%n", r.rows(), o.table(),
          r.badRows() > 0 ? " (" + r.badRows() + " bad rows skipped)" : "");
      return 0;
    }
  }

  /**
   * Through a server: the files go as one streamed body to its HTTP insert
   * ({@code POST /?query=INSERT INTO t FORMAT CSV}), so the server's parallel loader reads them and
   * commits them as one insert. Compressed files are decompressed here; with a header, the header
   * lines of the files after the first are left out.
   */
  private static int runHttp(Options o, PrintStream out, PrintStream err) throws Exception {
    java.util.Map<String, String> props = dev.travertine.jdbc.RemoteDriver.properties(o.url());
    String base = props.get("url");
    if (base == null) {
      throw new IllegalArgumentException("no url= in " + o.url());
    }
    String user = o.user() != null ? o.user() : props.get("avatica_user");
    String password = o.user() != null ? o.password() : props.get("avatica_password");
    if (binary(o.format()) && o.files().size() != 1) {
      throw new IllegalArgumentException("over a server, " + o.format() + " files load one per command"
          + " (each is one insert); embedded (--data) several load as one");
    }
    String format = o.format().equals("parquet") ? "Parquet" : o.format().equals("orc") ? "ORC"
        : o.format().equals("jsoneachrow") ? "JSONEachRow"
        : (o.format().equals("tsv") ? "TabSeparated" : "CSV") + (o.header() ? "WithNames" : "");
    String query = "INSERT INTO " + quote(o.table()) + " FORMAT " + format;
    StringBuilder uri = new StringBuilder(base.endsWith("/") ? base : base + "/").append("?query=")
        .append(java.net.URLEncoder.encode(query, StandardCharsets.UTF_8));
    if (o.maxErrors() > 0) {
      uri.append("&input_format_allow_errors_num=").append(o.maxErrors());
    }
    if (o.delimiter() != null || o.nullString() != null) {
      throw new IllegalArgumentException("--delimiter and --null-string work only when loading embedded (--data)");
    }
    long totalBytes = 0;
    for (Path f : o.files()) {
      totalBytes += Files.size(f);
    }
    Progress progress = new Progress(totalBytes, o.terminal(), err);
    // HttpURLConnection streams the body from our buffer straight to the socket: java.net.http's
    // client took 3-7 s of CPU to send a 2.9 GB CSV to a server on the same machine, this 1 s.
    java.net.HttpURLConnection http = (java.net.HttpURLConnection) java.net.URI.create(uri.toString()).toURL()
        .openConnection();
    http.setRequestMethod("POST");
    http.setDoOutput(true);
    http.setChunkedStreamingMode(UPLOAD_CHUNK);
    http.setRequestProperty("Content-Type", "text/csv");
    if (user != null) {
      http.setRequestProperty("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(
          (user + ":" + (password == null ? "" : password)).getBytes(StandardCharsets.UTF_8)));
    }
    IOException sending = null;
    int status;
    String answer;
    boolean complete = false;
    try {
      try (InputStream body = binary(o.format()) ? Files.newInputStream(o.files().get(0)) : bodyOf(o, progress)) {
        OutputStream to = http.getOutputStream();
        byte[] buf = new byte[UPLOAD_CHUNK];
        while (true) {
          // A file that cannot be read (or decompressed) to its end throws here: the finally below
          // drops the connection without the body's last chunk, so the server sees a cut request and
          // loads nothing of it.
          int n = body.read(buf);
          if (n < 0) {
            break;
          }
          try {
            to.write(buf, 0, n);
          } catch (IOException e) {
            sending = e; // the server may have answered (and closed) before the whole body went: its answer says why
            break;
          }
        }
        if (sending == null) {
          try {
            to.close(); // the last chunk: the body is complete
          } catch (IOException e) {
            sending = e;
          }
        }
      }
      try {
        status = http.getResponseCode();
      } catch (IOException e) {
        if (sending != null) {
          e.addSuppressed(sending);
        }
        throw e;
      }
      try (InputStream in = status >= 400 ? http.getErrorStream() : http.getInputStream()) {
        answer = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      complete = true;
    } finally {
      if (!complete) {
        http.disconnect();
      }
    }
    if (o.terminal()) {
      err.print("\r");
    }
    if (status != 200) {
      String msg = answer.strip();
      if (o.files().size() == 1) {
        msg = msg.replace(" body:", " " + o.files().get(0) + ":");
      }
      err.println("stopped: " + (status == 401 ? "authentication failed (HTTP 401)" : msg));
      return 1;
    }
    String summary = java.util.Objects.requireNonNullElse(http.getHeaderField("X-Travertine-Summary"), "");
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"written_rows\":\"(\\d+)\".*\"bad_rows\":\"(\\d+)\"")
        .matcher(summary);
    long rows = -1;
    long bad = 0;
    if (m.find()) {
      rows = Long.parseLong(m.group(1));
      bad = Long.parseLong(m.group(2));
    }
    progress.done(rows);
    out.printf(Locale.ROOT, "loaded %d rows into %s%s%n", rows, o.table(), bad > 0 ? " (" + bad + " bad rows skipped)" : "");
    return 0;
  }

  /** The request body: the files decompressed and concatenated, later files' header lines left out. */
  private static InputStream bodyOf(Options o, Progress progress) throws IOException {
    List<InputStream> parts = new ArrayList<>();
    long[] earlier = {0};
    for (int i = 0; i < o.files().size(); i++) {
      Path f = o.files().get(i);
      dev.travertine.formats.CountingInputStream counting = new dev.travertine.formats.CountingInputStream(new LazyStream(() -> Files.newInputStream(f)));
      long before = earlier[0];
      InputStream plain = new java.io.FilterInputStream(new LazyStream(
          () -> dev.travertine.formats.BulkLoad.decompress(f.toString(), counting))) {
        @Override public int read(byte[] b, int off, int len) throws IOException {
          int n = super.read(b, off, len);
          progress.update(0, before + counting.count());
          return n;
        }
      };
      if (i > 0 && o.header()) {
        plain = skipLine(plain);
      }
      parts.add(plain);
      earlier[0] += Files.size(f);
    }
    return new java.io.SequenceInputStream(java.util.Collections.enumeration(parts));
  }

  private static InputStream skipLine(InputStream in) {
    return new java.io.FilterInputStream(in) {
      boolean skipped;

      @Override public int read(byte[] b, int off, int len) throws IOException {
        if (!skipped) {
          skipped = true;
          int c;
          while ((c = in.read()) >= 0 && c != '\n') {
            // the header line
          }
        }
        return super.read(b, off, len);
      }

      @Override public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n <= 0 ? -1 : one[0] & 0xff;
      }
    };
  }

  /** A stream opened when first read (so a list of files is not held open at once, nor decoded early). */
  private static final class LazyStream extends InputStream {
    interface Opener {
      InputStream open() throws IOException;
    }

    private final Opener opener;
    private InputStream in;

    LazyStream(Opener opener) {
      this.opener = opener;
    }

    private InputStream in() throws IOException {
      if (in == null) {
        in = opener.open();
      }
      return in;
    }

    @Override public int read() throws IOException {
      return in().read();
    }

    @Override public int read(byte[] b, int off, int len) throws IOException {
      return in().read(b, off, len);
    }

    @Override public void close() throws IOException {
      if (in != null) {
        in.close();
      }
    }
  }

  private static String quote(String name) {
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

    /** Position of the last record for messages: ":line" or ": row n". */
    String where();

    /** Bytes of the file consumed so far (estimated for ORC). */
    long bytesRead();

    @Override void close() throws IOException;
  }

  private static Records open(Options o, Path f, long size) throws IOException {
    if (o.format().equals("orc")) {
      return new OrcRows(f, size);
    }
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

  /** Rows of an ORC file as text fields (ISO dates and timestamps, plain decimals), so they bind like CSV. */
  static final class OrcRows implements Records {
    private final org.apache.orc.Reader reader;
    private final org.apache.orc.RecordReader rows;
    private final org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch batch;
    private final dev.travertine.mergetree.schema.TypeKind[] kinds;
    private final long fileBytes;
    private int pos;
    private long row;

    OrcRows(Path file, long fileBytes) throws IOException {
      this.fileBytes = fileBytes;
      org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(false);
      reader = org.apache.orc.OrcFile.createReader(new org.apache.hadoop.fs.Path(file.toUri()),
          org.apache.orc.OrcFile.readerOptions(conf).useUTCTimestamp(true));
      var schema = reader.getSchema();
      kinds = new dev.travertine.mergetree.schema.TypeKind[schema.getChildren().size()];
      for (int i = 0; i < kinds.length; i++) {
        kinds[i] = switch (schema.getChildren().get(i).getCategory()) {
          case BOOLEAN -> dev.travertine.mergetree.schema.TypeKind.BOOLEAN;
          case BYTE -> dev.travertine.mergetree.schema.TypeKind.TINYINT;
          case SHORT -> dev.travertine.mergetree.schema.TypeKind.SMALLINT;
          case INT -> dev.travertine.mergetree.schema.TypeKind.INTEGER;
          case LONG -> dev.travertine.mergetree.schema.TypeKind.BIGINT;
          case FLOAT -> dev.travertine.mergetree.schema.TypeKind.REAL;
          case DOUBLE -> dev.travertine.mergetree.schema.TypeKind.DOUBLE;
          case DECIMAL -> dev.travertine.mergetree.schema.TypeKind.DECIMAL;
          case STRING, VARCHAR, CHAR -> dev.travertine.mergetree.schema.TypeKind.VARCHAR;
          case DATE -> dev.travertine.mergetree.schema.TypeKind.DATE;
          case TIMESTAMP -> dev.travertine.mergetree.schema.TypeKind.TIMESTAMP;
          default -> throw new IOException("Cannot load ORC column " + schema.getFieldNames().get(i) + " of type "
              + schema.getChildren().get(i));
        };
      }
      rows = reader.rows();
      batch = schema.createRowBatch();
    }

    @Override public String where() {
      return ": row " + row;
    }

    @Override public long bytesRead() {
      long n = reader.getNumberOfRows();
      return n == 0 ? fileBytes : (long) ((double) row / n * fileBytes);
    }

    @Override public List<String> next() throws IOException {
      if (pos >= batch.size) {
        if (!rows.nextBatch(batch) || batch.size == 0) {
          return null;
        }
        pos = 0;
      }
      List<String> out = new ArrayList<>(kinds.length);
      for (int c = 0; c < kinds.length; c++) {
        Object v = dev.travertine.mergetree.block.Vectors.get(batch.cols[c], kinds[c], pos);
        out.add(v == null ? null : switch (kinds[c]) {
          case DATE -> java.time.LocalDate.ofEpochDay(((Number) v).longValue()).toString();
          case TIMESTAMP -> java.time.LocalDateTime.ofEpochSecond(Math.floorDiv((Long) v, 1000L),
              (int) Math.floorMod((Long) v, 1000L) * 1_000_000, java.time.ZoneOffset.UTC).toString();
          case DECIMAL -> ((BigDecimal) v).toPlainString();
          default -> v.toString();
        });
      }
      pos++;
      row++;
      return out;
    }

    @Override public void close() throws IOException {
      rows.close();
      reader.close();
    }
  }

  /** A progress bar on a terminal, a line every few seconds otherwise. */
  static final class Progress {
    private final long totalBytes;
    private final boolean terminal;
    private final PrintStream err;
    private final long start = System.nanoTime();
    private long lastPrint = System.nanoTime();
    private long bytes;

    Progress(long totalBytes, boolean terminal, PrintStream err) {
      this.totalBytes = totalBytes;
      this.terminal = terminal;
      this.err = err;
    }

    void update(long rows, long bytesRead) {
      bytes = bytesRead;
      long now = System.nanoTime();
      long every = terminal ? 200_000_000L : 5_000_000_000L;
      if (now - lastPrint < every) {
        return;
      }
      lastPrint = now;
      double secs = (now - start) / 1e9;
      double frac = totalBytes == 0 ? 1 : Math.min(1, (double) bytes / totalBytes);
      double rate = rows / secs;
      double eta = frac > 0 ? secs / frac - secs : 0;
      if (terminal) {
        int width = 30;
        int filled = (int) (frac * width);
        err.printf(Locale.ROOT, "\r[%s%s] %3.0f%% %,d rows %.1f MB %,.0f rows/s ETA %.0fs ",
            "=".repeat(filled), " ".repeat(width - filled), frac * 100, rows, bytes / 1e6, rate, eta);
      } else {
        err.printf(Locale.ROOT, "%,d rows, %.1f MB (%.0f%%), %,.0f rows/s, ETA %.0fs%n", rows, bytes / 1e6,
            frac * 100, rate, eta);
      }
    }

    void done(long rows) {
      double secs = (System.nanoTime() - start) / 1e9;
      if (terminal) {
        err.print("\r");
      }
      err.printf(Locale.ROOT, "%,d rows, %.1f MB in %.1f s (%,.0f rows/s)%n", rows, totalBytes / 1e6, secs,
          rows / Math.max(secs, 1e-9));
    }
  }
}
