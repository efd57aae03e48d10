package dev.travertine.server.shell;

import java.util.Locale;
import java.util.Map;

/**
 * How a result is written: a format and whether a header line (names, and types) comes first.
 *
 * <p>Two vocabularies name them. A statement's trailing {@code FORMAT name} uses ClickHouse's
 * names ({@link #byClickHouseName}): {@code CSV} and {@code TabSeparated} carry no header,
 * {@code …WithNames} and {@code …WithNamesAndTypes} do. The shell's {@code --outputformat} uses
 * sqlline's names ({@link #byShellName}), whose header {@code --showHeader} decides.
 *
 * <p>Every format writes NULL one way for every type: {@code NULL} in tables and vertical
 * output, {@code \N} in tab-separated text (as ClickHouse and PostgreSQL do), an empty unquoted
 * field in CSV (an empty string is {@code ""}), {@code null} in JSON.
 */
public record OutputFormat(Kind kind, boolean names, boolean types) {

  /** The writers. */
  public enum Kind { TABLE, VERTICAL, CSV, TSV, JSON, JSON_EACH_ROW, JSON_COMPACT, SQLLINE_JSON, NULL,
    /** Binary: written by {@link ParquetResult} to a byte stream, never by {@link ResultWriter}. */
    PARQUET }

  private static final Map<String, OutputFormat> CLICKHOUSE = Map.ofEntries(
      Map.entry("pretty", new OutputFormat(Kind.TABLE, true, false)),
      Map.entry("prettycompact", new OutputFormat(Kind.TABLE, true, false)),
      Map.entry("prettycompactmonoblock", new OutputFormat(Kind.TABLE, true, false)),
      Map.entry("vertical", new OutputFormat(Kind.VERTICAL, true, false)),
      Map.entry("csv", new OutputFormat(Kind.CSV, false, false)),
      Map.entry("csvwithnames", new OutputFormat(Kind.CSV, true, false)),
      Map.entry("csvwithnamesandtypes", new OutputFormat(Kind.CSV, true, true)),
      Map.entry("tabseparated", new OutputFormat(Kind.TSV, false, false)),
      Map.entry("tsv", new OutputFormat(Kind.TSV, false, false)),
      Map.entry("tabseparatedwithnames", new OutputFormat(Kind.TSV, true, false)),
      Map.entry("tsvwithnames", new OutputFormat(Kind.TSV, true, false)),
      Map.entry("tabseparatedwithnamesandtypes", new OutputFormat(Kind.TSV, true, true)),
      Map.entry("tsvwithnamesandtypes", new OutputFormat(Kind.TSV, true, true)),
      Map.entry("json", new OutputFormat(Kind.JSON, true, true)),
      Map.entry("jsoneachrow", new OutputFormat(Kind.JSON_EACH_ROW, true, false)),
      Map.entry("jsonlines", new OutputFormat(Kind.JSON_EACH_ROW, true, false)),
      Map.entry("ndjson", new OutputFormat(Kind.JSON_EACH_ROW, true, false)),
      Map.entry("jsoncompact", new OutputFormat(Kind.JSON_COMPACT, true, true)),
      Map.entry("null", new OutputFormat(Kind.NULL, false, false)),
      Map.entry("parquet", new OutputFormat(Kind.PARQUET, true, true)));

  /** A ClickHouse format name (any case), or null when it names none we write. */
  public static OutputFormat byClickHouseName(String name) {
    return CLICKHOUSE.get(name.toLowerCase(Locale.ROOT));
  }

  /** The names {@link #byClickHouseName} takes, for messages. */
  public static final String CLICKHOUSE_NAMES = "Pretty, Vertical, CSV, CSVWithNames, CSVWithNamesAndTypes, "
      + "TabSeparated (TSV), TabSeparatedWithNames, TabSeparatedWithNamesAndTypes, JSON, JSONEachRow, "
      + "JSONCompact, Null, Parquet";

  /** A shell {@code --outputformat} (sqlline's names), or null for one the shell's scripts do not write. */
  public static OutputFormat byShellName(String name, boolean showHeader) {
    switch (name.toLowerCase(Locale.ROOT)) {
      case "table":
        return new OutputFormat(Kind.TABLE, true, false);
      case "vertical":
        return new OutputFormat(Kind.VERTICAL, true, false);
      case "csv":
        return new OutputFormat(Kind.CSV, showHeader, false);
      case "tsv":
        return new OutputFormat(Kind.TSV, showHeader, false);
      case "json":
        return new OutputFormat(Kind.SQLLINE_JSON, true, false);
      default:
        return byClickHouseName(name);
    }
  }

  /** The names {@link #byShellName} takes besides ClickHouse's. */
  public static final String SHELL_NAMES = "table, vertical, csv, tsv, json";
}
