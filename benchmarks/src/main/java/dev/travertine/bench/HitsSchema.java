package dev.travertine.bench;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The columns of the ClickBench-like {@code hits} table (a subset of ClickBench's 105, in their
 * order: every column a ClickBench query reads), with the SQL types both engines are given. Every
 * column is NOT NULL.
 */
final class HitsSchema {
  /** A column and its SQL type, spelled the same for Travertine and DuckDB. */
  record Column(String name, String type) {}

  static final List<Column> COLUMNS = List.of(
      new Column("WatchID", "BIGINT"),
      new Column("JavaEnable", "SMALLINT"),
      new Column("Title", "VARCHAR"),
      new Column("GoodEvent", "SMALLINT"),
      new Column("EventTime", "TIMESTAMP"),
      new Column("EventDate", "DATE"),
      new Column("CounterID", "INTEGER"),
      new Column("ClientIP", "INTEGER"),
      new Column("RegionID", "INTEGER"),
      new Column("UserID", "BIGINT"),
      new Column("CounterClass", "SMALLINT"),
      new Column("OS", "SMALLINT"),
      new Column("UserAgent", "SMALLINT"),
      new Column("URL", "VARCHAR"),
      new Column("Referer", "VARCHAR"),
      new Column("IsRefresh", "SMALLINT"),
      new Column("ResolutionWidth", "SMALLINT"),
      new Column("ResolutionHeight", "SMALLINT"),
      new Column("IsMobile", "SMALLINT"),
      new Column("MobilePhone", "SMALLINT"),
      new Column("MobilePhoneModel", "VARCHAR"),
      new Column("TraficSourceID", "SMALLINT"),
      new Column("SearchEngineID", "SMALLINT"),
      new Column("SearchPhrase", "VARCHAR"),
      new Column("AdvEngineID", "SMALLINT"),
      new Column("WindowClientWidth", "SMALLINT"),
      new Column("WindowClientHeight", "SMALLINT"),
      new Column("IsLink", "SMALLINT"),
      new Column("IsDownload", "SMALLINT"),
      new Column("DontCountHits", "SMALLINT"),
      new Column("RefererHash", "BIGINT"),
      new Column("URLHash", "BIGINT"));

  /** ClickBench's primary key, Travertine's sort key. */
  static final String SORT_KEY = "CounterID, EventDate, UserID, EventTime, WatchID";

  private HitsSchema() {}

  /** {@code (WatchID BIGINT NOT NULL, …)}. */
  static String columnDefinitions() {
    return COLUMNS.stream().map(c -> c.name() + " " + c.type() + " NOT NULL")
        .collect(Collectors.joining(", ", "(", ")"));
  }

  /** DuckDB's read_csv {@code columns} argument: {@code {'WatchID': 'BIGINT', …}}. */
  static String duckDbCsvColumns() {
    return COLUMNS.stream().map(c -> "'" + c.name() + "': '" + c.type() + "'")
        .collect(Collectors.joining(", ", "{", "}"));
  }
}
