package dev.travertine.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** DuckDB in this JVM, a database file loaded with {@code read_csv} and the column types Travertine has. */
final class DuckDbHits extends HitsEngine {
  DuckDbHits(Path file) {
    super("DuckDB", file);
  }

  @Override Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:duckdb:" + location().toAbsolutePath());
  }

  @Override String load(Path csv) throws SQLException {
    // The NOT NULL table first (the same schema as Travertine's), then the rows; a quoted empty
    // field is an empty string, not NULL.
    BenchSql.exec(connection(), "CREATE TABLE hits " + HitsSchema.columnDefinitions());
    BenchSql.exec(connection(), "INSERT INTO hits SELECT * FROM read_csv('" + csv.toAbsolutePath()
        + "', header = true, delim = ',', quote = '\"', escape = '\"', allow_quoted_nulls = false, "
        + "dateformat = '%Y-%m-%d', timestampformat = '%Y-%m-%d %H:%M:%S', columns = "
        + HitsSchema.duckDbCsvColumns() + ")");
    BenchSql.exec(connection(), "CHECKPOINT");
    return "";
  }

  @Override void setThreads(int threads) throws SQLException {
    BenchSql.exec(connection(), "SET threads = " + threads);
  }
}
