package dev.travertine.formats;

import java.util.Locale;

/**
 * How a delimited text file is written: CSV (RFC 4180 quoting, ClickHouse's and DuckDB's
 * defaults) or TSV (ClickHouse's TabSeparated: no quoting, backslash escapes, {@code \N} is NULL).
 *
 * <p>NULL and empty fields: in CSV an empty unquoted field, or one equal to {@code nullString}, is
 * NULL; a quoted empty field is an empty string. In TSV {@code \N} (or {@code nullString}) is NULL
 * and an empty field is an empty string. A NULL or an empty non-string field in a NOT NULL column
 * takes the column's default when {@code emptyAsDefault} is on (the default, as ClickHouse's
 * {@code input_format_csv_empty_as_default} and {@code input_format_null_as_default}), and makes
 * the row bad otherwise.
 *
 * @param delimiter field separator
 * @param quote CSV quote character (unused for TSV)
 * @param escape CSV escape inside quotes: the quote itself (doubled quotes, RFC 4180) or another
 *     character such as backslash; TSV always escapes with backslash
 * @param header whether the first record names the columns (matched to the table's by name)
 * @param nullString an unquoted field equal to this is NULL, or null for none beyond the format's own
 * @param emptyAsDefault NULL and empty fields in NOT NULL columns take the column's default
 */
public record TextFormat(Kind kind, byte delimiter, byte quote, byte escape, boolean header, String nullString,
    boolean emptyAsDefault) {
  /** The formats. */
  public enum Kind { CSV, TSV, JSON_EACH_ROW }

  public TextFormat {
    if (delimiter == '\n' || delimiter == '\r' || (kind == Kind.CSV && delimiter == quote)) {
      throw new IllegalArgumentException("The delimiter cannot be a line break or the quote character");
    }
    if (kind == Kind.CSV && (quote == '\n' || quote == '\r' || escape == '\n' || escape == '\r')) {
      throw new IllegalArgumentException("The quote and escape characters cannot be line breaks");
    }
  }

  public static TextFormat csv() {
    return new TextFormat(Kind.CSV, (byte) ',', (byte) '"', (byte) '"', false, null, true);
  }

  /** Newline-delimited JSON objects (ClickHouse's JSONEachRow): keys name the columns. */
  public static TextFormat jsonEachRow() {
    return new TextFormat(Kind.JSON_EACH_ROW, (byte) ',', (byte) '"', (byte) '\\', false, null, true);
  }

  public static TextFormat tsv() {
    return new TextFormat(Kind.TSV, (byte) '\t', (byte) '"', (byte) '\\', false, null, true);
  }

  /** {@code csv}, {@code tsv} (or {@code tabseparated}), {@code jsoneachrow} (or {@code ndjson}), case-insensitive. */
  public static TextFormat named(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "csv", "csvwithnames" -> name.equalsIgnoreCase("csvwithnames") ? csv().withHeader(true) : csv();
      case "tsv", "tabseparated" -> tsv();
      case "tsvwithnames", "tabseparatedwithnames" -> tsv().withHeader(true);
      case "jsoneachrow", "jsonlines", "ndjson", "json" -> jsonEachRow();
      default -> throw new IllegalArgumentException("Unknown text format '" + name + "' (csv, tsv, jsoneachrow)");
    };
  }

  public TextFormat withHeader(boolean h) {
    return new TextFormat(kind, delimiter, quote, escape, h, nullString, emptyAsDefault);
  }

  public TextFormat withDelimiter(char c) {
    return new TextFormat(kind, ascii(c, "delimiter"), quote, escape, header, nullString, emptyAsDefault);
  }

  public TextFormat withQuote(char c) {
    byte q = ascii(c, "quote");
    return new TextFormat(kind, delimiter, q, escape == quote ? q : escape, header, nullString, emptyAsDefault);
  }

  public TextFormat withEscape(char c) {
    return new TextFormat(kind, delimiter, quote, ascii(c, "escape"), header, nullString, emptyAsDefault);
  }

  public TextFormat withNullString(String s) {
    return new TextFormat(kind, delimiter, quote, escape, header, s, emptyAsDefault);
  }

  public TextFormat withEmptyAsDefault(boolean b) {
    return new TextFormat(kind, delimiter, quote, escape, header, nullString, b);
  }

  /** Whether a quote inside a quoted field is escaped by doubling it (so quotes pair up). */
  boolean doubledQuotes() {
    return escape == quote;
  }

  private static byte ascii(char c, String what) {
    if (c == 0 || c > 127) {
      throw new IllegalArgumentException("The " + what + " must be one ASCII character, got '" + c + "'");
    }
    return (byte) c;
  }
}
