package dev.travertine.formats;

import java.util.Locale;

/**
 * How values are written into text formats: CSV quoting (RFC 4180), ClickHouse's TabSeparated
 * escapes and JSON strings. The one home for them: files written by {@code INTO OUTFILE} and the
 * shell's and HTTP interface's results use these, and {@link TextParser} reads them back.
 */
public final class TextEscapes {
  private TextEscapes() {}

  /**
   * A CSV field: in quotes, a quote doubled. Unless {@code alwaysQuote}, quoted only when it must
   * be (an empty string, or one holding a comma, quote or line break).
   */
  public static void csv(StringBuilder b, String s, boolean alwaysQuote) {
    boolean quote = alwaysQuote || s.isEmpty();
    for (int i = 0; i < s.length() && !quote; i++) {
      char c = s.charAt(i);
      quote = c == ',' || c == '"' || c == '\n' || c == '\r';
    }
    if (!quote) {
      b.append(s);
      return;
    }
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"') {
        b.append('"');
      }
      b.append(c);
    }
    b.append('"');
  }

  /** A TabSeparated field with ClickHouse's escapes (tab, line breaks, backslash, NUL). */
  public static void tsv(StringBuilder b, String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\t' -> b.append("\\t");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\\' -> b.append("\\\\");
        case '\0' -> b.append("\\0");
        default -> b.append(c);
      }
    }
  }

  /** A JSON string, in quotes: the short escapes where JSON has them, {@code \}{@code uXXXX} for other control characters. */
  public static void jsonString(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        case '\b' -> b.append("\\b");
        case '\f' -> b.append("\\f");
        default -> {
          if (c < 0x20) {
            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }
}
