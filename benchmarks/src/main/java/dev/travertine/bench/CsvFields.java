package dev.travertine.bench;

/** Splits one CSV line (RFC 4180 quoting, no line breaks inside fields) into a fixed number of fields. */
final class CsvFields {
  private CsvFields() {}

  static void split(String line, String[] out) {
    int pos = 0;
    StringBuilder quoted = new StringBuilder();
    for (int f = 0; f < out.length; f++) {
      if (pos < line.length() && line.charAt(pos) == '"') {
        quoted.setLength(0);
        pos++;
        while (true) {
          int q = line.indexOf('"', pos);
          if (q < 0) {
            throw new IllegalArgumentException("Unterminated quote in: " + line);
          }
          quoted.append(line, pos, q);
          if (q + 1 < line.length() && line.charAt(q + 1) == '"') {
            quoted.append('"');
            pos = q + 2;
          } else {
            pos = q + 1;
            break;
          }
        }
        out[f] = quoted.toString();
      } else {
        int comma = line.indexOf(',', pos);
        int end = comma < 0 ? line.length() : comma;
        out[f] = line.substring(pos, end);
        pos = end;
      }
      if (f < out.length - 1) {
        if (pos >= line.length() || line.charAt(pos) != ',') {
          throw new IllegalArgumentException("Expected " + out.length + " fields in: " + line);
        }
        pos++;
      }
    }
    if (pos != line.length()) {
      throw new IllegalArgumentException("Expected " + out.length + " fields in: " + line);
    }
  }
}
