package dev.travertine.server.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code travertine load} through a server: the files go as one streamed body to the server's
 * HTTP insert, whose parallel loader reads them and commits them as one insert.
 */
final class HttpLoad {
  private HttpLoad() {}

  /** Bytes per read of the files and per chunk of the request body. */
  private static final int UPLOAD_CHUNK = 1 << 20;

  /**
   * Through a server: the files go as one streamed body to its HTTP insert
   * ({@code POST /?query=INSERT INTO t FORMAT CSV}), so the server's parallel loader reads them and
   * commits them as one insert. Compressed files are decompressed here; with a header, the header
   * lines of the files after the first are left out.
   */
  static int run(Loader.Options o, PrintStream out, PrintStream err) throws Exception {
    java.util.Map<String, String> props = dev.travertine.jdbc.RemoteDriver.properties(o.url());
    String base = props.get("url");
    if (base == null) {
      throw new IllegalArgumentException("no url= in " + o.url());
    }
    String user = o.user() != null ? o.user() : props.get("avatica_user");
    String password = o.user() != null ? o.password() : props.get("avatica_password");
    if (Loader.binary(o.format()) && o.files().size() != 1) {
      throw new IllegalArgumentException("over a server, " + o.format() + " files load one per command"
          + " (each is one insert); embedded (--data) several load as one");
    }
    String format = o.format().equals("parquet") ? "Parquet" : o.format().equals("orc") ? "ORC"
        : o.format().equals("jsoneachrow") ? "JSONEachRow"
        : (o.format().equals("tsv") ? "TabSeparated" : "CSV") + (o.header() ? "WithNames" : "");
    String query = "INSERT INTO " + Loader.quote(o.table()) + " FORMAT " + format;
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
    LoadProgress progress = new LoadProgress(totalBytes, o.terminal(), err);
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
      try (InputStream body = Loader.binary(o.format()) ? Files.newInputStream(o.files().get(0)) : bodyOf(o, progress)) {
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
    out.printf(Locale.ROOT, "loaded %s into %s%s%n", Loader.rows(rows), o.table(),
        bad > 0 ? " (" + Loader.rows(bad).replace("row", "bad row") + " skipped)" : "");
    return 0;
  }

  /** The request body: the files decompressed and concatenated, later files' header lines left out. */
  private static InputStream bodyOf(Loader.Options o, LoadProgress progress) throws IOException {
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
}
