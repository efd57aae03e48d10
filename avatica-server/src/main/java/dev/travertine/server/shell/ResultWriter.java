package dev.travertine.server.shell;

import dev.travertine.formats.TextEscapes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes a result set in an {@link OutputFormat}, row by row: only a table keeps rows, the first
 * {@link #TABLE_SAMPLE_ROWS}, to size its columns (a longer value later widens its own cell).
 */
public final class ResultWriter {
  /** Rows a table reads before it draws its header, to size the columns. */
  static final int TABLE_SAMPLE_ROWS = 1000;

  private final OutputFormat format;
  private final Writer out;
  private final String tableNull;

  /**
   * @param tableNull what a table and vertical output show for NULL (the shell's
   *     {@code --nullValue}; {@code NULL} by default)
   */
  public ResultWriter(OutputFormat format, Writer out, String tableNull) {
    this.format = format;
    this.out = out;
    this.tableNull = tableNull;
  }

  /** Rows and bytes the statement has read so far (JSON's statistics), when the caller knows them. */
  public interface ReadStatistics {
    long rowsRead();

    long bytesRead();
  }

  private ReadStatistics statistics;

  /** JSON and JSONCompact add {@code rows_read} and {@code bytes_read} to their statistics, as ClickHouse. */
  public ResultWriter withStatistics(ReadStatistics s) {
    this.statistics = s;
    return this;
  }

  /**
   * Writes every row of {@code rs}; returns how many.
   *
   * @param startNanos {@link System#nanoTime()} when the statement started (JSON's elapsed)
   */
  public long write(ResultSet rs, long startNanos) throws SQLException {
    try {
      return switch (format.kind()) {
        case TABLE -> table(rs);
        case VERTICAL -> vertical(rs);
        case CSV -> separated(rs, ',');
        case TSV -> separated(rs, '\t');
        case JSON -> json(rs, startNanos);
        case JSON_EACH_ROW -> jsonEachRow(rs);
        case JSON_COMPACT -> jsonCompact(rs, startNanos);
        case SQLLINE_JSON -> sqllineJson(rs);
        case NULL -> {
          long n = 0;
          while (rs.next()) {
            n++;
          }
          yield n;
        }
        case PARQUET -> throw new IllegalArgumentException("FORMAT Parquet is binary: ParquetResult writes it");
      };
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // --- text of values ---------------------------------------------------------------------

  private static String[] names(ResultSetMetaData md) throws SQLException {
    String[] names = new String[md.getColumnCount()];
    for (int i = 0; i < names.length; i++) {
      names[i] = md.getColumnLabel(i + 1);
    }
    return names;
  }

  private static String[] typeNames(ResultSetMetaData md) throws SQLException {
    String[] types = new String[md.getColumnCount()];
    for (int i = 0; i < types.length; i++) {
      types[i] = md.getColumnTypeName(i + 1);
    }
    return types;
  }

  private static boolean[] numeric(ResultSetMetaData md) throws SQLException {
    boolean[] numeric = new boolean[md.getColumnCount()];
    for (int i = 0; i < numeric.length; i++) {
      switch (md.getColumnType(i + 1)) {
        case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.DECIMAL,
            Types.NUMERIC, Types.FLOAT, Types.REAL, Types.DOUBLE -> numeric[i] = true;
        default -> numeric[i] = false;
      }
    }
    return numeric;
  }

  private static boolean[] booleans(ResultSetMetaData md) throws SQLException {
    boolean[] b = new boolean[md.getColumnCount()];
    for (int i = 0; i < b.length; i++) {
      b[i] = md.getColumnType(i + 1) == Types.BOOLEAN;
    }
    return b;
  }

  /** The value's text, or null for SQL NULL. */
  private static String text(ResultSet rs, int column) throws SQLException {
    String s = rs.getString(column);
    return rs.wasNull() ? null : s;
  }

  // --- table -------------------------------------------------------------------------------

  private long table(ResultSet rs) throws SQLException, IOException {
    ResultSetMetaData md = rs.getMetaData();
    String[] names = names(md);
    boolean[] right = numeric(md);
    int n = names.length;
    int[] width = new int[n];
    for (int i = 0; i < n; i++) {
      width[i] = displayWidth(names[i]);
    }
    List<String[]> sample = new ArrayList<>();
    boolean more = true;
    while (sample.size() < TABLE_SAMPLE_ROWS && (more = rs.next())) {
      String[] row = tableRow(rs, n);
      for (int i = 0; i < n; i++) {
        width[i] = Math.max(width[i], displayWidth(row[i]));
      }
      sample.add(row);
    }
    String rule = rule(width);
    out.write(rule);
    writeTableRow(names, width, new boolean[n]);
    out.write(rule);
    long rows = 0;
    for (String[] row : sample) {
      writeTableRow(row, width, right);
      rows++;
    }
    while (more && rs.next()) {
      writeTableRow(tableRow(rs, n), width, right);
      rows++;
    }
    out.write(rule);
    return rows;
  }

  private String[] tableRow(ResultSet rs, int n) throws SQLException {
    String[] row = new String[n];
    for (int i = 0; i < n; i++) {
      String s = text(rs, i + 1);
      row[i] = s == null ? tableNull : visible(s, true);
    }
    return row;
  }

  private static String rule(int[] width) {
    StringBuilder b = new StringBuilder("+");
    for (int w : width) {
      b.append("-".repeat(w + 2)).append('+');
    }
    return b.append('\n').toString();
  }

  /** One row; a cell with line breaks (a plan, a CREATE statement) spans several lines. */
  private void writeTableRow(String[] row, int[] width, boolean[] right) throws IOException {
    String[][] lines = new String[row.length][];
    int height = 1;
    for (int i = 0; i < row.length; i++) {
      lines[i] = row[i].split("\n", -1);
      height = Math.max(height, lines[i].length);
    }
    StringBuilder b = new StringBuilder();
    for (int l = 0; l < height; l++) {
      b.append('|');
      for (int i = 0; i < row.length; i++) {
        String cell = l < lines[i].length ? lines[i][l] : "";
        String pad = " ".repeat(Math.max(0, width[i] - displayWidth(cell)));
        b.append(' ');
        if (right[i]) {
          b.append(pad).append(cell);
        } else {
          b.append(cell).append(pad);
        }
        b.append(" |");
      }
      b.append('\n');
    }
    out.write(b.toString());
  }

  /** The widest line of a value. */
  private static int displayWidth(String s) {
    int w = 0;
    int start = 0;
    while (true) {
      int nl = s.indexOf('\n', start);
      int end = nl < 0 ? s.length() : nl;
      w = Math.max(w, s.codePointCount(start, end));
      if (nl < 0) {
        return w;
      }
      start = nl + 1;
    }
  }

  /**
   * Control characters as escapes, so that they do not break the layout; line breaks stay when
   * {@code keepLines} (a table cell spans lines), else they are escaped too.
   */
  private static String visible(String s, boolean keepLines) {
    StringBuilder b = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      String esc = switch (c) {
        case '\n' -> keepLines ? null : "\\n";
        case '\r' -> "\\r";
        case '\t' -> "\\t";
        default -> c < 0x20 ? String.format(Locale.ROOT, "\\x%02x", (int) c) : null;
      };
      if (esc != null && b == null) {
        b = new StringBuilder(s.length() + 8).append(s, 0, i);
      }
      if (b != null) {
        if (esc != null) {
          b.append(esc);
        } else {
          b.append(c);
        }
      }
    }
    return b == null ? s : b.toString();
  }

  // --- vertical ----------------------------------------------------------------------------

  private long vertical(ResultSet rs) throws SQLException, IOException {
    ResultSetMetaData md = rs.getMetaData();
    String[] names = names(md);
    int w = 0;
    for (String name : names) {
      w = Math.max(w, displayWidth(name));
    }
    long rows = 0;
    while (rs.next()) {
      rows++;
      StringBuilder b = new StringBuilder();
      if (rows > 1) {
        b.append('\n');
      }
      String title = "Row " + rows + ":";
      b.append(title).append('\n').append("-".repeat(title.length())).append('\n');
      for (int i = 0; i < names.length; i++) {
        String s = text(rs, i + 1);
        b.append(names[i]).append(':').append(" ".repeat(w - displayWidth(names[i]) + 1))
            .append(s == null ? tableNull : visible(s, false)).append('\n');
      }
      out.write(b.toString());
    }
    return rows;
  }

  // --- CSV and tab-separated ---------------------------------------------------------------

  private long separated(ResultSet rs, char separator) throws SQLException, IOException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    if (format.names()) {
      writeSeparated(names(md), separator);
    }
    if (format.types()) {
      writeSeparated(typeNames(md), separator);
    }
    String[] row = new String[n];
    long rows = 0;
    while (rs.next()) {
      for (int i = 0; i < n; i++) {
        row[i] = text(rs, i + 1);
      }
      writeSeparated(row, separator);
      rows++;
    }
    return rows;
  }

  private void writeSeparated(String[] values, char separator) throws IOException {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        b.append(separator);
      }
      if (separator == ',') {
        csvField(b, values[i]);
      } else {
        tsvField(b, values[i]);
      }
    }
    out.write(b.append('\n').toString());
  }

  /** RFC 4180: quoted only when it must be (separator, quote, line break, or empty); NULL empty. */
  static void csvField(StringBuilder b, String s) {
    if (s != null) {
      TextEscapes.csv(b, s, false);
    }
  }

  /** ClickHouse's TabSeparated escapes; NULL is {@code \N}. */
  static void tsvField(StringBuilder b, String s) {
    if (s == null) {
      b.append("\\N");
    } else {
      TextEscapes.tsv(b, s);
    }
  }

  // --- JSON --------------------------------------------------------------------------------

  /** A value as JSON: numbers and booleans bare (non-finite numbers null), the rest strings. */
  private static void jsonValue(StringBuilder b, String s, boolean numeric, boolean bool) {
    if (s == null) {
      b.append("null");
    } else if (numeric) {
      boolean finite = !(s.equals("NaN") || s.endsWith("Infinity"));
      b.append(finite ? s : "null");
    } else if (bool) {
      b.append(s.equalsIgnoreCase("true") ? "true" : "false");
    } else {
      TextEscapes.jsonString(b, s);
    }
  }

  private interface RowJson {
    void append(StringBuilder b, ResultSet rs) throws SQLException;
  }

  private static RowJson objectRow(ResultSetMetaData md) throws SQLException {
    String[] names = names(md);
    boolean[] numeric = numeric(md);
    boolean[] bool = booleans(md);
    return (b, rs) -> {
      b.append('{');
      for (int i = 0; i < names.length; i++) {
        if (i > 0) {
          b.append(',');
        }
        TextEscapes.jsonString(b, names[i]);
        b.append(':');
        jsonValue(b, text(rs, i + 1), numeric[i], bool[i]);
      }
      b.append('}');
    };
  }

  private static RowJson arrayRow(ResultSetMetaData md) throws SQLException {
    boolean[] numeric = numeric(md);
    boolean[] bool = booleans(md);
    return (b, rs) -> {
      b.append('[');
      for (int i = 0; i < numeric.length; i++) {
        if (i > 0) {
          b.append(", ");
        }
        jsonValue(b, text(rs, i + 1), numeric[i], bool[i]);
      }
      b.append(']');
    };
  }

  private long jsonEachRow(ResultSet rs) throws SQLException, IOException {
    RowJson row = objectRow(rs.getMetaData());
    long rows = 0;
    StringBuilder b = new StringBuilder();
    while (rs.next()) {
      b.setLength(0);
      row.append(b, rs);
      out.write(b.append('\n').toString());
      rows++;
    }
    return rows;
  }

  private long sqllineJson(ResultSet rs) throws SQLException, IOException {
    RowJson row = objectRow(rs.getMetaData());
    out.write("{\"resultset\":[");
    long rows = 0;
    StringBuilder b = new StringBuilder();
    while (rs.next()) {
      b.setLength(0);
      if (rows > 0) {
        b.append(',');
      }
      row.append(b, rs);
      out.write(b.toString());
      rows++;
    }
    out.write("]}\n");
    return rows;
  }

  private long json(ResultSet rs, long startNanos) throws SQLException, IOException {
    return jsonDocument(rs, objectRow(rs.getMetaData()), startNanos);
  }

  private long jsonCompact(ResultSet rs, long startNanos) throws SQLException, IOException {
    return jsonDocument(rs, arrayRow(rs.getMetaData()), startNanos);
  }

  /** ClickHouse's JSON and JSONCompact: meta, data, rows, statistics. */
  private long jsonDocument(ResultSet rs, RowJson row, long startNanos) throws SQLException, IOException {
    ResultSetMetaData md = rs.getMetaData();
    String[] names = names(md);
    String[] types = typeNames(md);
    StringBuilder b = new StringBuilder("{\n\t\"meta\":\n\t[\n");
    for (int i = 0; i < names.length; i++) {
      b.append("\t\t{\n\t\t\t\"name\": ");
      TextEscapes.jsonString(b, names[i]);
      b.append(",\n\t\t\t\"type\": ");
      TextEscapes.jsonString(b, types[i]);
      b.append("\n\t\t}").append(i + 1 < names.length ? ",\n" : "\n");
    }
    b.append("\t],\n\n\t\"data\":\n\t[");
    out.write(b.toString());
    long rows = 0;
    while (rs.next()) {
      b.setLength(0);
      b.append(rows > 0 ? ",\n\t\t" : "\n\t\t");
      row.append(b, rs);
      out.write(b.toString());
      rows++;
    }
    out.write((rows > 0 ? "\n\t],\n\n" : "],\n\n") + "\t\"rows\": " + rows + ",\n\n"
        + "\t\"statistics\":\n\t{\n\t\t\"elapsed\": "
        + String.format(Locale.ROOT, "%.6f", (System.nanoTime() - startNanos) / 1e9)
        + (statistics == null ? "" : ",\n\t\t\"rows_read\": " + statistics.rowsRead() + ",\n\t\t\"bytes_read\": "
            + statistics.bytesRead())
        + "\n\t}\n}\n");
    return rows;
  }
}
