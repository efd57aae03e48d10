package dev.travertine.formats;

import dev.travertine.formats.FieldParsers.BadValue;
import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.block.OrcBatches;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;

/**
 * One thread's parser: records of {@link RecordChunks.Chunk}s go field by field straight into the
 * column vectors of a {@link Block} (no String or boxed value per field for numbers, dates and
 * timestamps; string bytes are copied once). A full block goes to the {@link Sink}. A record that
 * does not fit the table is not added; the sink hears where it was and why.
 */
final class TextParser {
  /** Where parsed rows and bad records go. */
  interface Sink {
    /** A block of {@code blockRows} rows is full (the parser starts a new one). */
    void full(Block block) throws IOException;

    /**
     * A bad record at {@code line} (0-based, counted from the start of chunk {@code chunk} of the
     * file); throws to stop the load.
     */
    void bad(Mapping file, int chunk, long line, String message);
  }

  /** Which table column each field of a file goes to (-1: skipped), and the file's name. */
  record Mapping(String source, int[] fieldToColumn, int[] missingColumns, int sourceIndex) {
    static Mapping positional(String source, TableSchema schema) {
      int[] m = new int[schema.size()];
      for (int i = 0; i < m.length; i++) {
        m[i] = i;
      }
      return new Mapping(source, m, new int[0], 0);
    }

    /** By column names, a header's or a column list's (case-insensitive); a name the table lacks is an error. */
    static Mapping byName(String source, TableSchema schema, List<String> names) {
      int[] m = new int[names.size()];
      boolean[] seen = new boolean[schema.size()];
      for (int i = 0; i < m.length; i++) {
        String n = names.get(i).trim();
        int c = schema.indexOf(n);
        if (c < 0) {
          for (int k = 0; k < schema.size(); k++) {
            if (schema.column(k).name().equalsIgnoreCase(n)) {
              c = k;
              break;
            }
          }
        }
        if (c < 0) {
          throw new IllegalArgumentException(source + ": no column '" + n + "' in the table");
        }
        if (seen[c]) {
          throw new IllegalArgumentException(source + ": column '" + n + "' is named twice");
        }
        seen[c] = true;
        m[i] = c;
      }
      List<Integer> missing = new ArrayList<>();
      for (int c = 0; c < seen.length; c++) {
        if (!seen[c]) {
          missing.add(c);
        }
      }
      return new Mapping(source, m, missing.stream().mapToInt(Integer::intValue).toArray(), 0);
    }
  }

  private final TextFormat f;
  private final TableSchema schema;
  private final TypeKind[] kinds;
  private final DataType[] types;
  private final boolean[] nullable;
  private final String[] names;
  private final Object[] defaults;
  private final byte[][] defaultBytes;
  private final long[] defaultLongs;
  private final double[] defaultDoubles;
  private final byte[] nullBytes;
  private final int blockRows;
  private final long blockBytes;

  private VectorizedRowBatch batch;
  /** Batches given back by {@link #recycle}, filled before new ones are made. */
  private final java.util.ArrayDeque<VectorizedRowBatch> spare = new java.util.ArrayDeque<>();
  private long batchBytes;
  private Block block;
  private long rows;

  // The field just scanned: bytes [fs, fe) of fb, whether it was quoted, whether it is a NULL marker.
  private byte[] fb;
  private int fs;
  private int fe;
  private boolean quoted;
  private boolean nullMarker;
  private byte[] scratch = new byte[256];
  private long newlinesInField;

  /**
   * @param defaults per table column, the storage value an empty or NULL field of a NOT NULL
   *     column takes (null: the type's zero — 0, '', 1970-01-01, false)
   */
  TextParser(TextFormat f, TableSchema schema, Object[] defaults, int blockRows) {
    this(f, schema, defaults, blockRows, Long.MAX_VALUE);
  }

  /** @param blockBytes a block is also full when its estimated memory reaches this */
  TextParser(TextFormat f, TableSchema schema, Object[] defaults, int blockRows, long blockBytes) {
    this.blockBytes = blockBytes;
    this.f = f;
    this.schema = schema;
    int n = schema.size();
    kinds = new TypeKind[n];
    types = new DataType[n];
    nullable = new boolean[n];
    names = new String[n];
    this.defaults = new Object[n];
    defaultBytes = new byte[n][];
    defaultLongs = new long[n];
    defaultDoubles = new double[n];
    for (int c = 0; c < n; c++) {
      Column col = schema.column(c);
      kinds[c] = col.type().kind();
      types[c] = col.type();
      nullable[c] = col.nullable();
      names[c] = col.name();
      Object d = defaults == null ? null : defaults[c];
      if (d == null && !col.nullable()) {
        d = zero(col.type());
      }
      this.defaults[c] = d;
      if (d != null) {
        switch (kinds[c]) {
          case BOOLEAN -> defaultLongs[c] = ((Boolean) d) ? 1 : 0;
          case TINYINT, SMALLINT, INTEGER, BIGINT, DATE, TIMESTAMP -> defaultLongs[c] = ((Number) d).longValue();
          case REAL, DOUBLE -> defaultDoubles[c] = ((Number) d).doubleValue();
          case CHAR, VARCHAR -> defaultBytes[c] = d.toString().getBytes(StandardCharsets.UTF_8);
          default -> { }
        }
      }
    }
    nullBytes = f.nullString() == null ? null : f.nullString().getBytes(StandardCharsets.UTF_8);
    this.blockRows = blockRows;
    newBatch();
    block = new Block(schema);
  }

  static Object zero(DataType t) {
    return switch (t.kind()) {
      case BOOLEAN -> Boolean.FALSE;
      case TINYINT -> (byte) 0;
      case SMALLINT -> (short) 0;
      case INTEGER, DATE -> 0;
      case BIGINT, TIMESTAMP -> 0L;
      case REAL -> 0f;
      case DOUBLE -> 0d;
      case DECIMAL -> BigDecimal.ZERO;
      case CHAR -> " ".repeat(Math.max(0, t.precision()));
      case VARCHAR -> "";
    };
  }

  long rows() {
    return rows;
  }

  /** The rows parsed and not yet handed to the sink, as a block (this parser starts a new one). */
  Block finish() {
    flushBatch();
    Block b = block;
    block = new Block(schema);
    return b;
  }

  /** Reads the header record at the start of a chunk: its field names and where the data starts. */
  int header(RecordChunks.Chunk c, List<String> out) {
    byte[] b = c.buf();
    int p = 0;
    int end = c.end();
    if (end >= 3 && (b[0] & 0xff) == 0xEF && (b[1] & 0xff) == 0xBB && (b[2] & 0xff) == 0xBF) {
      p = 3; // a UTF-8 byte order mark
    }
    if (p >= end) {
      return end;
    }
    int next = fields(b, p, end, out, null);
    if (next < 0) {
      throw new IllegalArgumentException("line 1: the header has a malformed quoted field");
    }
    out.replaceAll(x -> x == null ? "" : x);
    return next;
  }

  /**
   * Reads the fields of the record at {@code p} as strings (NULL markers as null) into
   * {@code out}, and in {@code quotedOut} (when not null) whether each was quoted; returns the
   * position after the record, or -1 for a malformed quoted field.
   */
  int fields(byte[] b, int p, int end, List<String> out, List<Boolean> quotedOut) {
    while (true) {
      int next = scanField(b, p, end);
      if (next == BAD_QUOTE) {
        return -1;
      }
      out.add(nullMarker && !quoted ? null : new String(fb, fs, fe - fs, StandardCharsets.UTF_8));
      if (quotedOut != null) {
        quotedOut.add(quoted);
      }
      if (next < 0) {
        return -next - 1;
      }
      p = next;
    }
  }

  /**
   * Parses the records of {@code c} from {@code start} (a record start) on; returns the line breaks
   * of the chunk (so that line numbers can be made absolute once every chunk before is parsed).
   */
  long parse(RecordChunks.Chunk c, int start, Mapping m, Sink sink) throws IOException {
    if (f.kind() == TextFormat.Kind.JSON_EACH_ROW) {
      if (json == null) {
        json = new JsonLines(this, names);
      }
      return json.parse(c, start, m, sink);
    }
    byte[] b = c.buf();
    int end = c.end();
    long line = start == 0 ? 0 : RecordChunks.count(b, 0, start, (byte) '\n');
    int[] map = m.fieldToColumn();
    int expected = map.length;
    int p = start;
    while (p < end) {
      int recStart = p;
      long recLine = line;
      newlinesInField = 0;
      int row = batch.size;
      String bad = null;
      int field = 0;
      if (b[p] == '\n' || (b[p] == '\r' && p + 1 < end && b[p + 1] == '\n')) {
        if (expected > 1) { // a blank line
          p += b[p] == '\n' ? 1 : 2;
          line++;
          continue;
        }
      }
      int next;
      while (true) {
        next = scanField(b, p, end);
        if (next == BAD_QUOTE) {
          bad = "malformed quoted field (a quote must be doubled inside quotes, and only a delimiter or line break may follow the closing one)";
          newlinesInField = 0;
          next = skipRecord(b, recStart, end);
          break;
        }
        if (field < expected && bad == null) {
          int col = map[field];
          if (col >= 0) {
            bad = store(col, row);
          }
        }
        field++;
        if (next < 0) {
          next = -next - 1;
          break;
        }
        p = next;
      }
      line += 1 + newlinesInField;
      p = next;
      if (bad == null && field != expected) {
        bad = "expected " + expected + " fields, found " + field;
      }
      if (bad == null) {
        for (int col : m.missingColumns()) {
          bad = storeDefault(col, row);
          if (bad != null) {
            break;
          }
        }
      }
      if (bad != null) {
        sink.bad(m, c.seq(), recLine, bad);
        continue;
      }
      endRow(sink, p - recStart);
    }
    return line;
  }

  private JsonLines json;

  /** Stores a value of column {@code col} in the row being parsed (JSON lines); returns why it is bad, or null. */
  String storeValue(int col, byte[] b, int s, int e, boolean isNull) {
    fb = b;
    fs = s;
    fe = e;
    nullMarker = isNull;
    quoted = !isNull;
    return store(col, batch.size);
  }

  boolean isStringColumn(int col) {
    return kinds[col].isString();
  }

  /** Stores column {@code col}'s default in the row being parsed. */
  String storeMissing(int col) {
    return storeDefault(col, batch.size);
  }

  /** Ends the row being parsed (its values are stored); hands a full block to the sink. */
  void endRow(Sink sink, int bytes) throws IOException {
    batch.size++;
    batchBytes += bytes;
    rows++;
    if (batch.size == Block.CHUNK) {
      flushBatch();
      if (block.rows() >= blockRows || block.estimatedBytes() >= blockBytes) {
        Block full = block;
        block = new Block(schema);
        sink.full(full);
      }
    }
  }

  private void flushBatch() {
    if (batch.size > 0) {
      block.addChunk(batch, batchBytes + 9L * schema.size() * Block.CHUNK);
      newBatch();
    }
  }

  private void newBatch() {
    batch = spare.isEmpty() ? OrcBatches.newBatch(schema.orcSchema(), Block.CHUNK) : spare.pop();
    batchBytes = 0;
  }

  /**
   * Takes back the batches of a block this parser handed out, to fill them again: the caller has
   * written the block and nothing refers to its vectors any more. A load's batches then live as
   * long as the load, in the old generation, instead of each block's being copied by young
   * collections while it is parsed and written (docs/design/execution.md). The block is left
   * without chunks and must not be used again.
   */
  void recycle(Block b) {
    if (b.schema() != schema) {
      throw new IllegalArgumentException("Not a block of this parser");
    }
    for (VectorizedRowBatch ch : b.chunks()) { // Block.addChunk held them to CHUNK rows of the schema
      OrcBatches.resetBatch(ch); // size 0, noNulls, isNull cleared where a NULL was set
      for (ColumnVector cv : ch.cols) {
        if (cv instanceof BytesColumnVector v) {
          java.util.Arrays.fill(v.vector, null); // the arenas they point to may go
        }
      }
      spare.push(ch);
    }
    b.chunks().clear();
  }

  private static final int BAD_QUOTE = Integer.MIN_VALUE;

  /**
   * Scans one field from {@code p}: sets {@link #fb}/{@link #fs}/{@link #fe} (unescaped),
   * {@link #quoted} and {@link #nullMarker}. Returns the position of the next field when a delimiter
   * follows, {@code -(position after the record) - 1} when the record ends, or {@link #BAD_QUOTE}.
   */
  private int scanField(byte[] b, int p, int end) {
    byte delim = f.delimiter();
    quoted = false;
    nullMarker = false;
    if (f.kind() == TextFormat.Kind.CSV && p < end && b[p] == f.quote()) {
      return scanQuoted(b, p + 1, end);
    }
    int s = p;
    boolean escapes = false;
    byte esc = f.kind() == TextFormat.Kind.TSV ? (byte) '\\' : 0;
    while (p < end) {
      byte x = b[p];
      if (x == delim || x == '\n') {
        break;
      }
      if (x == esc && esc != 0) {
        escapes = true;
        p++;
      }
      p++;
    }
    int e = Math.min(p, end);
    if (e > s && b[e - 1] == '\r' && (p >= end || b[p] == '\n')) {
      e--;
    }
    if (f.kind() == TextFormat.Kind.CSV) {
      nullMarker = e == s || matchesNull(b, s, e);
    } else {
      nullMarker = (e - s == 2 && b[s] == '\\' && b[s + 1] == 'N') || matchesNull(b, s, e);
    }
    if (escapes && !nullMarker) {
      unescapeTsv(b, s, e);
    } else {
      fb = b;
      fs = s;
      fe = e;
    }
    return terminator(b, p, end);
  }

  private int terminator(byte[] b, int p, int end) {
    if (p >= end) {
      return -end - 1;
    }
    if (b[p] == f.delimiter()) {
      return p + 1;
    }
    return -(p + 1) - 1; // '\n'
  }

  private boolean matchesNull(byte[] b, int s, int e) {
    if (nullBytes == null || e - s != nullBytes.length) {
      return false;
    }
    for (int i = 0; i < nullBytes.length; i++) {
      if (b[s + i] != nullBytes[i]) {
        return false;
      }
    }
    return true;
  }

  private int scanQuoted(byte[] b, int p, int end) {
    byte q = f.quote();
    byte esc = f.escape();
    boolean doubled = f.doubledQuotes();
    int s = p;
    boolean escapes = false;
    while (true) {
      if (p >= end) {
        return BAD_QUOTE;
      }
      byte x = b[p];
      if (x == q) {
        if (doubled && p + 1 < end && b[p + 1] == q) {
          escapes = true;
          p += 2;
          continue;
        }
        break;
      }
      if (!doubled && x == esc) {
        escapes = true;
        p += 2;
        continue;
      }
      if (x == '\n') {
        newlinesInField++;
      }
      p++;
    }
    int e = p;
    p++; // the closing quote
    if (p < end && b[p] == '\r' && (p + 1 >= end || b[p + 1] == '\n')) {
      p++;
    }
    if (p < end && b[p] != f.delimiter() && b[p] != '\n') {
      return BAD_QUOTE;
    }
    quoted = true;
    if (escapes) {
      unescapeCsv(b, s, e);
    } else {
      fb = b;
      fs = s;
      fe = e;
    }
    return terminator(b, p, end);
  }

  private void unescapeCsv(byte[] b, int s, int e) {
    byte[] out = scratchFor(e - s);
    int n = 0;
    byte q = f.quote();
    byte esc = f.escape();
    for (int i = s; i < e; i++) {
      byte x = b[i];
      if ((x == q || x == esc) && i + 1 < e) {
        i++;
        x = b[i];
      }
      out[n++] = x;
    }
    fb = out;
    fs = 0;
    fe = n;
  }

  private void unescapeTsv(byte[] b, int s, int e) {
    byte[] out = scratchFor(e - s);
    int n = 0;
    for (int i = s; i < e; i++) {
      byte x = b[i];
      if (x == '\\' && i + 1 < e) {
        byte y = b[++i];
        x = switch (y) {
          case 't' -> '\t';
          case 'n' -> '\n';
          case 'r' -> '\r';
          case '0' -> 0;
          case 'b' -> '\b';
          case 'f' -> '\f';
          default -> y; // \\ \' and anything else: the character itself
        };
      }
      out[n++] = x;
    }
    fb = out;
    fs = 0;
    fe = n;
  }

  private byte[] scratchFor(int n) {
    if (scratch.length < n) {
      scratch = new byte[Math.max(n, 2 * scratch.length)];
    }
    return scratch;
  }

  /** Skips to the end of a record after a malformed field: the next line break outside quotes, as the chunker cut it. */
  private int skipRecord(byte[] b, int p, int end) {
    boolean inQuotes = false;
    for (int i = p; i < end; i++) {
      if (f.kind() == TextFormat.Kind.CSV && b[i] == f.quote()) {
        inQuotes = !inQuotes;
      } else if (b[i] == '\n') {
        if (!inQuotes) {
          return i + 1;
        }
        newlinesInField++;
      }
    }
    return end;
  }

  /** Stores the scanned field into column {@code col} at {@code row}; returns why it is bad, or null. */
  private String store(int col, int row) {
    TypeKind k = kinds[col];
    if (nullMarker || (fe == fs && !k.isString())) {
      if (nullable[col]) {
        Vectors.setNull(batch.cols[col], row);
        return null;
      }
      if (!f.emptyAsDefault()) {
        return "column " + names[col] + ": " + (fe > fs ? "NULL" : "an empty field") + " in a NOT NULL column";
      }
      return storeDefault(col, row);
    }
    byte[] b = fb;
    int s = fs;
    int e = fe;
    try {
      switch (k) {
        case BOOLEAN -> setLong(col, row, FieldParsers.parseBoolean(b, s, e) ? 1 : 0);
        case TINYINT -> setLong(col, row, FieldParsers.parseLong(b, s, e, Byte.MIN_VALUE, Byte.MAX_VALUE));
        case SMALLINT -> setLong(col, row, FieldParsers.parseLong(b, s, e, Short.MIN_VALUE, Short.MAX_VALUE));
        case INTEGER -> setLong(col, row, FieldParsers.parseLong(b, s, e, Integer.MIN_VALUE, Integer.MAX_VALUE));
        case BIGINT -> setLong(col, row, FieldParsers.parseLong(b, s, e, Long.MIN_VALUE, Long.MAX_VALUE));
        case DATE -> setLong(col, row, FieldParsers.parseDate(b, s, e));
        case DOUBLE -> setDouble(col, row, FieldParsers.parseDouble(b, s, e));
        case REAL -> setDouble(col, row, (float) FieldParsers.parseDouble(b, s, e));
        case TIMESTAMP -> setTimestamp(col, row, FieldParsers.parseTimestamp(b, s, e));
        case DECIMAL -> {
          BigDecimal v;
          try {
            v = new BigDecimal(new String(b, s, e - s, StandardCharsets.ISO_8859_1).trim());
          } catch (NumberFormatException ex) {
            throw BadValue.INSTANCE;
          }
          try {
            Vectors.set(batch.cols[col], types[col], row, v);
          } catch (IllegalArgumentException | ArithmeticException ex) {
            return "column " + names[col] + ": " + shown(b, s, e) + " does not fit " + types[col];
          }
        }
        case CHAR, VARCHAR -> {
          String tooLong = setString(col, row, b, s, e);
          if (tooLong != null) {
            return tooLong;
          }
        }
      }
      return null;
    } catch (BadValue ex) {
      return "column " + names[col] + ": cannot read " + shown(b, s, e) + " as " + typeName(types[col]);
    }
  }

  private static String typeName(DataType t) {
    return switch (t.kind()) {
      case DECIMAL -> t.toString();
      default -> t.kind().name();
    };
  }

  private static String shown(byte[] b, int s, int e) {
    int n = Math.min(e - s, 100);
    return "'" + new String(b, s, n, StandardCharsets.UTF_8) + (e - s > n ? "…" : "") + "'";
  }

  private String storeDefault(int col, int row) {
    Object d = defaults[col];
    if (d == null) {
      Vectors.setNull(batch.cols[col], row);
      return null;
    }
    switch (kinds[col]) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE -> setLong(col, row, defaultLongs[col]);
      case TIMESTAMP -> setTimestamp(col, row, defaultLongs[col]);
      case REAL, DOUBLE -> setDouble(col, row, defaultDoubles[col]);
      case CHAR, VARCHAR -> {
        BytesColumnVector v = (BytesColumnVector) batch.cols[col];
        v.isNull[row] = false;
        v.setRef(row, defaultBytes[col], 0, defaultBytes[col].length); // shared: nothing writes into it
      }
      default -> Vectors.set(batch.cols[col], types[col], row, d);
    }
    return null;
  }

  private void setLong(int col, int row, long v) {
    LongColumnVector lv = (LongColumnVector) batch.cols[col];
    lv.vector[row] = v;
    lv.isNull[row] = false;
  }

  private void setDouble(int col, int row, double v) {
    DoubleColumnVector dv = (DoubleColumnVector) batch.cols[col];
    dv.vector[row] = v;
    dv.isNull[row] = false;
  }

  private void setTimestamp(int col, int row, long millis) {
    TimestampColumnVector tv = (TimestampColumnVector) batch.cols[col];
    tv.time[row] = millis;
    tv.nanos[row] = (int) Math.floorMod(millis, 1000L) * 1_000_000;
    tv.isNull[row] = false;
  }

  private String setString(int col, int row, byte[] b, int s, int e) {
    int max = types[col].precision();
    BytesColumnVector v = (BytesColumnVector) batch.cols[col];
    if (max > 0) {
      int chars = e - s > max ? codePoints(b, s, e) : e - s;
      if (chars > max) {
        return "column " + names[col] + ": " + shown(b, s, e) + " is longer than " + types[col];
      }
      if (kinds[col] == TypeKind.CHAR && chars < max) {
        byte[] padded = new byte[e - s + max - chars];
        System.arraycopy(b, s, padded, 0, e - s);
        java.util.Arrays.fill(padded, e - s, padded.length, (byte) ' ');
        v.isNull[row] = false;
        v.setRef(row, padded, 0, padded.length);
        return null;
      }
    }
    v.isNull[row] = false;
    int n = e - s;
    if (arenaUsed + n > arena.length) {
      arena = new byte[Math.max(ARENA_BYTES, n)];
      arenaUsed = 0;
    }
    System.arraycopy(b, s, arena, arenaUsed, n);
    v.setRef(row, arena, arenaUsed, n);
    arenaUsed += n;
    return null;
  }

  /** String bytes of parsed rows live in arenas of this size (a vector's own buffer grows by copies). */
  private static final int ARENA_BYTES = 1 << 20;
  private byte[] arena = new byte[ARENA_BYTES];
  private int arenaUsed;

  /** Characters of UTF-8 bytes {@code b[s, e)}. */
  static int codePoints(byte[] b, int s, int e) {
    int n = 0;
    for (int i = s; i < e; i++) {
      if ((b[i] & 0xC0) != 0x80) {
        n++;
      }
    }
    return n;
  }
}
