package dev.travertine.formats;

import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;

/**
 * Text files (CSV, TSV, JSON lines) read as batches of a given schema, with the loaders' own
 * parser, for the table functions ({@code file('x.csv')}); and the schema such a file suggests
 * when none is given (ClickHouse's schema inference): column names from the header (CSV/TSV
 * WithNames, or a first CSV/TSV line of names over typed lines below it), JSON keys in the order
 * they first appear, or {@code c1, c2, …}; types from the first records: BIGINT, DOUBLE, DATE,
 * TIMESTAMP, BOOLEAN where every non-empty value reads as one, else VARCHAR; every column nullable.
 */
public final class TextFiles {
  private TextFiles() {}

  private static final int SAMPLE_BYTES = 1 << 20;
  private static final int SAMPLE_RECORDS = 1000;

  /** What a file suggests: its columns and whether its first line names them. */
  public record Inferred(TableSchema schema, boolean header) {}

  /** The schema of a text file from its first records ({@code format.header()}: the first line names the columns). */
  public static Inferred infer(InputStream raw, String name, TextFormat format) throws IOException {
    try (InputStream in = BulkLoad.decompress(name, raw)) {
      RecordChunks chunks = new RecordChunks(in, format, SAMPLE_BYTES, 1 << 30, 1);
      RecordChunks.Chunk c = chunks.next();
      if (c == null) {
        throw new IllegalArgumentException("Cannot infer the columns of " + name + ": it is empty");
      }
      if (format.kind() == TextFormat.Kind.JSON_EACH_ROW) {
        return new Inferred(json(c, name), false);
      }
      TextParser p = new TextParser(format, new TableSchema(List.of(new Column("x", DataType.varchar(-1), true))),
          null, Block.CHUNK);
      byte[] b = c.buf();
      int pos = 0;
      List<List<String>> records = new ArrayList<>();
      List<String> header = null;
      if (format.header()) {
        header = new ArrayList<>();
        pos = p.header(c, header);
      }
      while (pos < c.end() && records.size() < SAMPLE_RECORDS) {
        List<String> f = new ArrayList<>();
        int next = p.fields(b, pos, c.end(), f, null);
        if (next < 0) {
          break;
        }
        if (!(f.size() == 1 && (f.get(0) == null || f.get(0).isEmpty()))) {
          records.add(f);
        }
        pos = next;
      }
      int width = header != null ? header.size() : records.stream().mapToInt(List::size).max().orElse(0);
      boolean detected = false;
      if (header == null && records.size() > 1 && looksLikeHeader(records)) {
        header = records.remove(0);
        detected = true;
      }
      List<Column> cols = new ArrayList<>();
      for (int i = 0; i < width; i++) {
        List<String> values = new ArrayList<>();
        for (List<String> r : records) {
          values.add(i < r.size() ? r.get(i) : null);
        }
        String n = header != null && i < header.size() && !header.get(i).isBlank() ? header.get(i).trim() : "c" + (i + 1);
        cols.add(new Column(n, typeOf(values, null), true));
      }
      if (cols.isEmpty()) {
        throw new IllegalArgumentException("Cannot infer the columns of " + name + ": no records");
      }
      return new Inferred(new TableSchema(cols), detected);
    }
  }

  /** A first line of names: every field a non-empty string of no other type, and some column below it typed. */
  private static boolean looksLikeHeader(List<List<String>> records) {
    List<String> first = records.get(0);
    for (String f : first) {
      if (f == null || f.isBlank() || typeOf(List.of(f), null).kind() != TypeKind.VARCHAR) {
        return false;
      }
    }
    List<List<String>> rest = records.subList(1, records.size());
    for (int i = 0; i < first.size(); i++) {
      List<String> values = new ArrayList<>();
      for (List<String> r : rest) {
        values.add(i < r.size() ? r.get(i) : null);
      }
      if (typeOf(values, null).kind() != TypeKind.VARCHAR) {
        return true;
      }
    }
    return false;
  }

  private static TableSchema json(RecordChunks.Chunk c, String name) {
    byte[] b = c.buf();
    int end = c.end();
    Map<String, List<String>> values = new LinkedHashMap<>();
    Map<String, List<Boolean>> quoted = new LinkedHashMap<>();
    int p = 0;
    int n = 0;
    while (p < end && n < SAMPLE_RECORDS) {
      int eol = p;
      while (eol < end && b[eol] != '\n') {
        eol++;
      }
      int q = JsonLines.skipSpace(b, p, eol);
      if (q < eol && b[q] == '{') {
        n++;
        q = JsonLines.skipSpace(b, q + 1, eol);
        while (q < eol && b[q] == '"') {
          int ke = JsonLines.stringEnd(b, q + 1, eol);
          if (ke < 0) {
            break;
          }
          String key = new String(b, q + 1, ke - q - 1, StandardCharsets.UTF_8);
          q = JsonLines.skipSpace(b, ke + 1, eol);
          if (q >= eol || b[q] != ':') {
            break;
          }
          q = JsonLines.skipSpace(b, q + 1, eol);
          int vs = q;
          int ve;
          boolean isString = false;
          if (q < eol && b[q] == '"') {
            ve = JsonLines.stringEnd(b, q + 1, eol);
            if (ve < 0) {
              break;
            }
            vs = q + 1;
            q = ve + 1;
            isString = true;
          } else if (q < eol && (b[q] == '{' || b[q] == '[')) {
            ve = JsonLines.nestedEnd(b, q, eol);
            if (ve < 0) {
              break;
            }
            q = ve;
            isString = true;
          } else {
            ve = q;
            while (ve < eol && b[ve] != ',' && b[ve] != '}' && b[ve] != ' ') {
              ve++;
            }
            q = ve;
          }
          String v = new String(b, vs, ve - vs, StandardCharsets.UTF_8);
          values.computeIfAbsent(key, k -> new ArrayList<>()).add(!isString && v.equals("null") ? null : v);
          quoted.computeIfAbsent(key, k -> new ArrayList<>()).add(isString);
          q = JsonLines.skipSpace(b, q, eol);
          if (q < eol && b[q] == ',') {
            q = JsonLines.skipSpace(b, q + 1, eol);
          }
        }
      }
      p = eol + 1;
    }
    if (values.isEmpty()) {
      throw new IllegalArgumentException("Cannot infer the columns of " + name + ": no JSON object with keys");
    }
    List<Column> cols = new ArrayList<>();
    for (var e : values.entrySet()) {
      cols.add(new Column(e.getKey(), typeOf(e.getValue(), quoted.get(e.getKey())), true));
    }
    return new TableSchema(cols);
  }

  /** The narrowest type that reads every non-empty value; quoted JSON strings are never numbers or booleans. */
  static DataType typeOf(List<String> values, List<Boolean> quoted) {
    boolean longs = true;
    boolean doubles = true;
    boolean dates = true;
    boolean stamps = true;
    boolean bools = true;
    boolean any = false;
    for (int i = 0; i < values.size(); i++) {
      String v = values.get(i);
      if (v == null || v.isEmpty()) {
        continue;
      }
      any = true;
      boolean q = quoted != null && quoted.get(i);
      byte[] b = v.getBytes(StandardCharsets.UTF_8);
      longs &= !q && reads(() -> FieldParsers.parseLong(b, 0, b.length, Long.MIN_VALUE, Long.MAX_VALUE));
      doubles &= !q && reads(() -> FieldParsers.parseDouble(b, 0, b.length));
      dates &= b.length == 10 && reads(() -> FieldParsers.parseDate(b, 0, b.length));
      stamps &= b.length >= 16 && reads(() -> FieldParsers.parseTimestamp(b, 0, b.length));
      bools &= !q && (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false"));
    }
    if (!any) {
      return DataType.varchar(-1);
    }
    return longs ? DataType.of(TypeKind.BIGINT) : doubles ? DataType.of(TypeKind.DOUBLE)
        : dates ? DataType.of(TypeKind.DATE) : stamps ? DataType.of(TypeKind.TIMESTAMP)
        : bools ? DataType.of(TypeKind.BOOLEAN) : DataType.varchar(-1);
  }

  private interface Parse {
    void run() throws FieldParsers.BadValue;
  }

  private static boolean reads(Parse p) {
    try {
      p.run();
      return true;
    } catch (FieldParsers.BadValue e) {
      return false;
    }
  }

  /** Batches of a text file in {@code schema}; a bad record fails with {@code name:line: why}. */
  public static final class Reader implements Closeable {
    private final InputStream in;
    private final String name;
    private final RecordChunks chunks;
    private final TextParser parser;
    private final TextFormat format;
    private final TableSchema schema;
    private final ArrayDeque<VectorizedRowBatch> ready = new ArrayDeque<>();
    private final TextParser.Sink sink;
    private TextParser.Mapping mapping;
    private final boolean byName;
    private long linesBefore;
    private boolean done;

    /**
     * @param skipFirstLine whether the first line is a header to skip (its names are not used: the
     *     schema's columns are read by position); a format with a header maps its names instead
     */
    public Reader(InputStream raw, String name, TextFormat format, TableSchema schema, boolean skipFirstLine)
        throws IOException {
      this.byName = format.header();
      this.in = BulkLoad.decompress(name, raw);
      this.name = name;
      this.format = format.withHeader(format.header() || skipFirstLine);
      this.schema = schema;
      chunks = new RecordChunks(in, this.format, 4 << 20, 1 << 30, 2);
      parser = new TextParser(this.format, schema, null, 4 * Block.CHUNK);
      sink = new TextParser.Sink() {
        @Override public void full(Block block) {
          ready.addAll(block.chunks());
        }

        @Override public void bad(TextParser.Mapping m, int chunk, long line, String message) {
          throw new IllegalArgumentException(name + ":" + (linesBefore + line + 1) + ": " + message);
        }
      };
    }

    /** The next batch of rows (at most {@link Block#CHUNK}), or null at the end. */
    public VectorizedRowBatch next() throws IOException {
      while (ready.isEmpty() && !done) {
        RecordChunks.Chunk c = chunks.next();
        if (c == null) {
          ready.addAll(parser.finish().chunks());
          done = true;
          break;
        }
        int start = 0;
        if (mapping == null) {
          mapping = TextParser.Mapping.positional(name, schema);
          if (format.header() && format.kind() != TextFormat.Kind.JSON_EACH_ROW) {
            List<String> names = new ArrayList<>();
            start = parser.header(c, names);
            if (byName) {
              mapping = TextParser.Mapping.byName(name, schema, names);
            }
          }
        }
        linesBefore += parser.parse(c, start, mapping, sink);
        chunks.recycle(c.buf());
      }
      return ready.poll();
    }

    @Override public void close() throws IOException {
      in.close();
    }
  }
}
