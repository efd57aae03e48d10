package dev.travertine.formats;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Newline-delimited JSON (ClickHouse's JSONEachRow) for {@link TextParser}: each line is one
 * object whose keys name the table's columns (case-insensitive; keys the table lacks are skipped,
 * as ClickHouse's {@code input_format_skip_unknown_fields}; columns a line lacks take their
 * defaults). Strings are unescaped (including {@code \\uXXXX} and surrogate pairs) and numbers,
 * {@code true}/{@code false} go to the parser's field store as the text loaders' fields do;
 * {@code null} is NULL. A nested object or array goes into a string column as its JSON text and
 * makes the row bad for any other column. Keys are matched by comparing bytes against the
 * previous line's key at the same position first, so lines that repeat their key order (the usual
 * case) allocate nothing per key.
 */
final class JsonLines {
  private final TextParser parser;
  private final byte[][] names; // lower-cased UTF-8 column names
  private int[] lastCols = new int[16];
  private int[][] lastKeys = new int[16][];
  private final boolean[] seen;
  private byte[] scratch = new byte[256];
  private String bad;

  JsonLines(TextParser parser, String[] columnNames) {
    this.parser = parser;
    names = new byte[columnNames.length][];
    for (int i = 0; i < columnNames.length; i++) {
      names[i] = columnNames[i].toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.UTF_8);
    }
    seen = new boolean[columnNames.length];
  }

  /** Parses the lines of a chunk from {@code start}; returns its line breaks. */
  long parse(RecordChunks.Chunk c, int start, TextParser.Mapping m, TextParser.Sink sink) throws IOException {
    byte[] b = c.buf();
    int end = c.end();
    long line = 0;
    int p = start;
    while (p < end) {
      int eol = p;
      while (eol < end && b[eol] != '\n') {
        eol++;
      }
      int recEnd = eol;
      long recLine = line;
      line++;
      int s = skipSpace(b, p, recEnd);
      if (s < recEnd && b[s] != '\r') {
        bad = null;
        row(b, s, recEnd);
        if (bad != null) {
          sink.bad(m, c.seq(), recLine, bad);
        } else {
          parser.endRow(sink, recEnd - p);
        }
      }
      p = eol + 1;
    }
    return line - (end > start && b[end - 1] != '\n' ? 1 : 0);
  }

  private void row(byte[] b, int p, int end) {
    java.util.Arrays.fill(seen, false);
    if (b[p] != '{') {
      bad = "expected a JSON object, found '" + (char) b[p] + "'";
      return;
    }
    p = skipSpace(b, p + 1, end);
    int k = 0;
    if (p < end && b[p] == '}') {
      p++;
    } else {
      while (true) {
        if (p >= end || b[p] != '"') {
          bad = "malformed JSON: expected a key in quotes at character " + (p + 1);
          return;
        }
        int ks = p + 1;
        int ke = stringEnd(b, ks, end);
        if (ke < 0) {
          bad = "malformed JSON: an unterminated string";
          return;
        }
        int col = column(b, ks, ke, k);
        p = skipSpace(b, ke + 1, end);
        if (p >= end || b[p] != ':') {
          bad = "malformed JSON: expected ':' after a key";
          return;
        }
        p = skipSpace(b, p + 1, end);
        p = value(b, p, end, col);
        if (p < 0) {
          return;
        }
        k++;
        p = skipSpace(b, p, end);
        if (p < end && b[p] == ',') {
          p = skipSpace(b, p + 1, end);
          continue;
        }
        if (p < end && b[p] == '}') {
          p++;
          break;
        }
        bad = "malformed JSON: expected ',' or '}'";
        return;
      }
    }
    p = skipSpace(b, p, end);
    if (p < end && !(b[p] == '\r' && p + 1 == end)) {
      bad = "malformed JSON: text after the object";
      return;
    }
    for (int c = 0; c < seen.length; c++) {
      if (!seen[c]) {
        String why = parser.storeMissing(c);
        if (why != null) {
          bad = why;
          return;
        }
      }
    }
  }

  /** Parses one value at {@code p} into column {@code col} (-1: skipped); returns the position after it, or -1 when bad. */
  private int value(byte[] b, int p, int end, int col) {
    if (p >= end) {
      bad = "malformed JSON: a value is missing";
      return -1;
    }
    byte x = b[p];
    int vs;
    int ve;
    int next;
    boolean isNull = false;
    byte[] src = b;
    if (x == '"') {
      int e = stringEnd(b, p + 1, end);
      if (e < 0) {
        bad = "malformed JSON: an unterminated string";
        return -1;
      }
      next = e + 1;
      vs = p + 1;
      ve = e;
      if (col >= 0 && indexOf(b, vs, ve, (byte) '\\') >= 0) {
        int n = unescape(b, vs, ve);
        if (n < 0) {
          bad = "malformed JSON: a bad escape in a string";
          return -1;
        }
        src = scratch;
        vs = 0;
        ve = n;
      }
    } else if (x == '{' || x == '[') {
      int e = nestedEnd(b, p, end);
      if (e < 0) {
        bad = "malformed JSON: an unclosed " + (x == '{' ? "object" : "array");
        return -1;
      }
      vs = p;
      ve = e;
      next = e;
      if (col >= 0 && !parserTakesText(col)) {
        bad = "column " + parserName(col) + ": a nested JSON " + (x == '{' ? "object" : "array")
            + " fits only a string column";
        return -1;
      }
    } else {
      int e = p;
      while (e < end && b[e] != ',' && b[e] != '}' && b[e] != ' ' && b[e] != '\t' && b[e] != '\r') {
        e++;
      }
      vs = p;
      ve = e;
      next = e;
      if (e - p == 4 && b[p] == 'n' && b[p + 1] == 'u' && b[p + 2] == 'l' && b[p + 3] == 'l') {
        isNull = true;
      } else if (e == p) {
        bad = "malformed JSON: a value is missing";
        return -1;
      }
    }
    if (col >= 0) {
      seen[col] = true;
      String why = parser.storeValue(col, src, vs, ve, isNull);
      if (why != null) {
        bad = why;
        return -1;
      }
    }
    return next;
  }

  private boolean parserTakesText(int col) {
    return parser.isStringColumn(col);
  }

  private String parserName(int col) {
    return new String(names[col], StandardCharsets.UTF_8);
  }

  /** The column a key names (-1: none); tries the column the previous line had at this position first. */
  private int column(byte[] b, int s, int e, int k) {
    if (k >= lastCols.length) {
      lastCols = java.util.Arrays.copyOf(lastCols, 2 * k);
      lastKeys = java.util.Arrays.copyOf(lastKeys, 2 * k);
    }
    int[] last = lastKeys[k];
    if (last != null && last[0] == e - s && equalsIgnoreCase(b, s, e, last, 1)) {
      return lastCols[k];
    }
    int col = -1;
    for (int c = 0; c < names.length; c++) {
      if (names[c].length == e - s && equalsLower(b, s, names[c])) {
        col = c;
        break;
      }
    }
    int[] key = new int[e - s + 1];
    key[0] = e - s;
    for (int i = s; i < e; i++) {
      key[i - s + 1] = b[i];
    }
    lastKeys[k] = key;
    lastCols[k] = col;
    return col;
  }

  private static boolean equalsIgnoreCase(byte[] b, int s, int e, int[] key, int off) {
    for (int i = s; i < e; i++) {
      if (b[i] != key[off + i - s]) {
        return false;
      }
    }
    return true;
  }

  private static boolean equalsLower(byte[] b, int s, byte[] lower) {
    for (int i = 0; i < lower.length; i++) {
      byte x = b[s + i];
      if (x >= 'A' && x <= 'Z') {
        x += 32;
      }
      if (x != lower[i]) {
        return false;
      }
    }
    return true;
  }

  static int skipSpace(byte[] b, int p, int end) {
    while (p < end && (b[p] == ' ' || b[p] == '\t')) {
      p++;
    }
    return p;
  }

  private static int indexOf(byte[] b, int s, int e, byte x) {
    for (int i = s; i < e; i++) {
      if (b[i] == x) {
        return i;
      }
    }
    return -1;
  }

  /** The position of the closing quote of a string starting at {@code p} (after its opening quote), or -1. */
  static int stringEnd(byte[] b, int p, int end) {
    while (p < end) {
      byte x = b[p];
      if (x == '\\') {
        p += 2;
        continue;
      }
      if (x == '"') {
        return p;
      }
      p++;
    }
    return -1;
  }

  /** The position after a balanced object or array starting at {@code p}, or -1. */
  static int nestedEnd(byte[] b, int p, int end) {
    int depth = 0;
    while (p < end) {
      byte x = b[p];
      if (x == '"') {
        int e = stringEnd(b, p + 1, end);
        if (e < 0) {
          return -1;
        }
        p = e + 1;
        continue;
      }
      if (x == '{' || x == '[') {
        depth++;
      } else if (x == '}' || x == ']') {
        depth--;
        if (depth == 0) {
          return p + 1;
        }
      }
      p++;
    }
    return -1;
  }

  /** Unescapes {@code b[s, e)} into {@link #scratch} as UTF-8; returns its length, or -1 for a bad escape. */
  private int unescape(byte[] b, int s, int e) {
    if (scratch.length < e - s) {
      scratch = new byte[Math.max(e - s, 2 * scratch.length)];
    }
    int n = 0;
    for (int i = s; i < e; i++) {
      byte x = b[i];
      if (x != '\\') {
        scratch[n++] = x;
        continue;
      }
      if (++i >= e) {
        return -1;
      }
      switch (b[i]) {
        case '"' -> scratch[n++] = '"';
        case '\\' -> scratch[n++] = '\\';
        case '/' -> scratch[n++] = '/';
        case 'b' -> scratch[n++] = '\b';
        case 'f' -> scratch[n++] = '\f';
        case 'n' -> scratch[n++] = '\n';
        case 'r' -> scratch[n++] = '\r';
        case 't' -> scratch[n++] = '\t';
        case 'u' -> {
          int cp = hex4(b, i + 1, e);
          if (cp < 0) {
            return -1;
          }
          i += 4;
          if (Character.isHighSurrogate((char) cp) && i + 6 < e + 0 && b[i + 1] == '\\' && b[i + 2] == 'u') {
            int lo = hex4(b, i + 3, e);
            if (lo >= 0 && Character.isLowSurrogate((char) lo)) {
              cp = Character.toCodePoint((char) cp, (char) lo);
              i += 6;
            }
          }
          byte[] utf8 = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
          System.arraycopy(utf8, 0, scratch, n, utf8.length);
          n += utf8.length;
        }
        default -> {
          return -1;
        }
      }
    }
    return n;
  }

  private static int hex4(byte[] b, int p, int end) {
    if (p + 4 > end) {
      return -1;
    }
    int v = 0;
    for (int i = p; i < p + 4; i++) {
      int d = Character.digit(b[i], 16);
      if (d < 0) {
        return -1;
      }
      v = v * 16 + d;
    }
    return v;
  }
}
