package dev.travertine.formats;

import dev.travertine.formats.parquet.ParquetIO;
import dev.travertine.formats.parquet.ParquetRowWriter;
import dev.travertine.io.FileIO;
import dev.travertine.io.OutputFile;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Iterator;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;

/**
 * Writes rows of storage values (see {@link TypeKind}) to a file in one of the formats the loaders
 * read back: Parquet, CSV (RFC 4180; NULL an empty unquoted field, an empty string {@code ""}),
 * TSV (ClickHouse's TabSeparated: {@code \N} NULL, backslash escapes), each optionally with a
 * header, and JSON lines (JSONEachRow). Text files whose name ends in {@code .gz} or {@code .zst}
 * are compressed. The file appears whole when the rows are written, or not at all.
 */
public final class Export {
  private Export() {}

  /** The output formats. */
  public enum Format { PARQUET, CSV, CSV_WITH_NAMES, TSV, TSV_WITH_NAMES, JSON_EACH_ROW }

  /** ClickHouse's format names (case-insensitive), or null for an unknown one. */
  public static Format named(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "parquet" -> Format.PARQUET;
      case "csv" -> Format.CSV;
      case "csvwithnames" -> Format.CSV_WITH_NAMES;
      case "tsv", "tabseparated" -> Format.TSV;
      case "tsvwithnames", "tabseparatedwithnames" -> Format.TSV_WITH_NAMES;
      case "jsoneachrow", "jsonlines", "ndjson" -> Format.JSON_EACH_ROW;
      default -> null;
    };
  }

  /** The format a file name's extension suggests ({@code .gz}/{@code .zst} looked through); TSV otherwise, as ClickHouse. */
  public static Format ofExtension(String name) {
    String n = name.toLowerCase(Locale.ROOT).replaceFirst("\\.(gz|gzip|zst|zstd)$", "");
    if (n.endsWith(".parquet")) {
      return Format.PARQUET;
    }
    if (n.endsWith(".csv")) {
      return Format.CSV;
    }
    if (n.endsWith(".jsonl") || n.endsWith(".ndjson") || n.endsWith(".json")) {
      return Format.JSON_EACH_ROW;
    }
    return Format.TSV;
  }

  /**
   * Writes {@code rows} to {@code path} of {@code io}; returns the rows written.
   *
   * @param checkpoint run every 1,024 rows; throws to stop (nothing is published then)
   */
  public static long write(FileIO io, String path, Format format, TableSchema schema, Iterator<Object[]> rows,
      Runnable checkpoint) throws IOException {
    OutputFile.AbortableOutputStream out = io.newOutputFile(path).create();
    long n = 0;
    try {
      if (format == Format.PARQUET) {
        try (ParquetRowWriter w = new ParquetRowWriter(ParquetIO.output(path, out), schema)) {
          while (rows.hasNext()) {
            w.write(rows.next());
            if ((++n & 1023) == 0) {
              checkpoint.run();
            }
          }
        }
      } else {
        OutputStream text = compress(path, new NoClose(out));
        try (OutputStream buffered = new BufferedOutputStream(text, 1 << 16)) {
          TextRows t = new TextRows(format, schema, buffered);
          t.header();
          while (rows.hasNext()) {
            t.row(rows.next());
            if ((++n & 1023) == 0) {
              checkpoint.run();
            }
          }
        }
      }
      out.close();
      return n;
    } catch (IOException | RuntimeException | Error e) {
      out.abort();
      throw e;
    }
  }

  private static OutputStream compress(String name, OutputStream out) throws IOException {
    String n = name.toLowerCase(Locale.ROOT);
    if (n.endsWith(".gz") || n.endsWith(".gzip")) {
      return new GZIPOutputStream(out, 1 << 16);
    }
    if (n.endsWith(".zst") || n.endsWith(".zstd")) {
      return new com.github.luben.zstd.ZstdOutputStream(out);
    }
    return out;
  }

  /** Keeps the object's stream open when the text streams over it are closed: it is published separately. */
  private static final class NoClose extends java.io.FilterOutputStream {
    NoClose(OutputStream out) {
      super(out);
    }

    @Override public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override public void close() throws IOException {
      out.flush();
    }
  }

  /** Text rows of one format. */
  private static final class TextRows {
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS", Locale.ROOT);
    private final Format f;
    private final TableSchema schema;
    private final OutputStream out;
    private final StringBuilder sb = new StringBuilder(256);

    TextRows(Format f, TableSchema schema, OutputStream out) {
      this.f = f;
      this.schema = schema;
      this.out = out;
    }

    void header() throws IOException {
      if (f != Format.CSV_WITH_NAMES && f != Format.TSV_WITH_NAMES) {
        return;
      }
      sb.setLength(0);
      for (int c = 0; c < schema.size(); c++) {
        if (c > 0) {
          sb.append(f == Format.CSV_WITH_NAMES ? ',' : '\t');
        }
        String name = schema.column(c).name();
        if (f == Format.CSV_WITH_NAMES) {
          TextEscapes.csv(sb, name, true);
        } else {
          TextEscapes.tsv(sb, name);
        }
      }
      sb.append('\n');
      out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    void row(Object[] row) throws IOException {
      sb.setLength(0);
      boolean json = f == Format.JSON_EACH_ROW;
      boolean csv = f == Format.CSV || f == Format.CSV_WITH_NAMES;
      if (json) {
        sb.append('{');
      }
      for (int c = 0; c < schema.size(); c++) {
        if (c > 0) {
          sb.append(json || csv ? ',' : '\t');
        }
        if (json) {
          TextEscapes.jsonString(sb, schema.column(c).name());
          sb.append(':');
        }
        Object v = row[c];
        DataType t = schema.column(c).type();
        if (v == null) {
          sb.append(json ? "null" : csv ? "" : "\\N");
          continue;
        }
        String s = text(t.kind(), t, v);
        boolean quoted = t.kind().isString() || t.kind() == TypeKind.DATE || t.kind() == TypeKind.TIMESTAMP;
        if (json) {
          if (quoted) {
            TextEscapes.jsonString(sb, s);
          } else {
            sb.append(s);
          }
        } else if (csv) {
          if (t.kind().isString()) {
            TextEscapes.csv(sb, s, true);
          } else {
            sb.append(s);
          }
        } else {
          TextEscapes.tsv(sb, s);
        }
      }
      sb.append(json ? "}\n" : "\n");
      out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static String text(TypeKind k, DataType t, Object v) {
      return switch (k) {
        case DATE -> LocalDate.ofEpochDay(((Number) v).longValue()).toString();
        case TIMESTAMP -> TS.format(Instant.ofEpochMilli(((Number) v).longValue()).atOffset(ZoneOffset.UTC));
        case DECIMAL -> (v instanceof BigDecimal b ? b : new BigDecimal(v.toString())).toPlainString();
        case REAL -> Float.toString(((Number) v).floatValue());
        default -> v.toString();
      };
    }
  }
}
