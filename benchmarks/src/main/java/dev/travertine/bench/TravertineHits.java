package dev.travertine.bench;

import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.Locale;

/**
 * Travertine through its embedded JDBC driver: a MergeTree table sorted by ClickBench's primary
 * key, loaded in JDBC batches of prepared {@code INSERT … VALUES (?, …)} (the fast insert path:
 * one part per batch), then merged with {@code OPTIMIZE TABLE hits FINAL}.
 */
final class TravertineHits extends HitsEngine {
  /**
   * Connection settings of the Travertine side (-Dclickbench.travertine=...): by default the
   * decoded-column cache is on and large enough for the columns the suite reads at 10 M rows, so
   * hot runs measure execution rather than ORC decoding (DuckDB's hot runs read its buffer pool).
   */
  static final String URL_SETTINGS = System.getProperty("clickbench.travertine",
      ";use_uncompressed_cache=1;uncompressed_cache_size=4294967296");

  private static final int BATCH = 100_000;

  private final String extraSettings;

  TravertineHits(Path dir) {
    this(dir, "");
  }

  /** @param extraSettings more connection settings (";k=v" pairs): node properties of the first connection */
  TravertineHits(Path dir, String extraSettings) {
    super("Travertine", dir);
    this.extraSettings = extraSettings;
  }

  @Override Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:travertine:" + location().toAbsolutePath() + URL_SETTINGS + extraSettings);
  }

  @Override String load(Path csv) throws Exception {
    Connection c = connection();
    BenchSql.exec(c, "CREATE TABLE hits " + HitsSchema.columnDefinitions() + " ENGINE = MergeTree ORDER BY ("
        + HitsSchema.SORT_KEY + ")");
    List<HitsSchema.Column> cols = HitsSchema.COLUMNS;
    long t0 = System.nanoTime();
    String sql = "INSERT INTO hits VALUES (" + "?, ".repeat(cols.size() - 1) + "?)";
    try (BufferedReader in = Files.newBufferedReader(csv, StandardCharsets.US_ASCII);
        PreparedStatement ps = c.prepareStatement(sql)) {
      in.readLine(); // the header
      String line;
      int inBatch = 0;
      String[] fields = new String[cols.size()];
      while ((line = in.readLine()) != null) {
        CsvFields.split(line, fields);
        for (int i = 0; i < fields.length; i++) {
          bind(ps, i + 1, cols.get(i).type(), fields[i]);
        }
        ps.addBatch();
        if (++inBatch == BATCH) {
          ps.executeBatch();
          inBatch = 0;
        }
      }
      if (inBatch > 0) {
        ps.executeBatch();
      }
    }
    long t1 = System.nanoTime();
    BenchSql.exec(c, "OPTIMIZE TABLE hits FINAL");
    return String.format(Locale.ROOT, "batch inserts %.1f s, OPTIMIZE FINAL %.1f s", (t1 - t0) / 1e9,
        (System.nanoTime() - t1) / 1e9);
  }

  private static void bind(PreparedStatement ps, int i, String type, String v) throws SQLException {
    switch (type) {
      case "BIGINT" -> ps.setLong(i, Long.parseLong(v));
      case "INTEGER" -> ps.setInt(i, Integer.parseInt(v));
      case "SMALLINT" -> ps.setShort(i, Short.parseShort(v));
      case "DATE" -> ps.setDate(i, Date.valueOf(v));
      case "TIMESTAMP" -> ps.setTimestamp(i, Timestamp.valueOf(v));
      default -> ps.setString(i, v);
    }
  }

  @Override void setThreads(int threads) throws SQLException {
    BenchSql.exec(connection(), "SET max_threads = " + threads);
  }
}
