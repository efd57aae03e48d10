package dev.travertine.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/**
 * Travertine through its embedded JDBC driver: a MergeTree table sorted by ClickBench's primary
 * key, loaded by the engine's CSV loader (what {@code bin/travertine load --data} runs), then
 * merged with {@code OPTIMIZE TABLE hits FINAL}.
 */
final class TravertineHits extends HitsEngine {
  /**
   * Connection settings of the Travertine side (-Dclickbench.travertine=...): by default the
   * decoded-column cache is on and large enough for the columns the suite reads at 10 M rows, so
   * hot runs measure execution rather than ORC decoding (DuckDB's hot runs read its buffer pool).
   */
  static final String URL_SETTINGS = System.getProperty("clickbench.travertine",
      ";use_uncompressed_cache=1;uncompressed_cache_size=4294967296");

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
    long t0 = System.nanoTime();
    dev.travertine.calcite.dml.TableLoad.load(c, new dev.travertine.calcite.dml.TableLoad.Request("hits",
        dev.travertine.formats.TextFormat.csv().withHeader(true), 0,
        List.of(dev.travertine.formats.BulkLoad.Source.file(csv)), null, null));
    long t1 = System.nanoTime();
    BenchSql.exec(c, "OPTIMIZE TABLE hits FINAL");
    return String.format(Locale.ROOT, "loaded in %.1f s, OPTIMIZE FINAL %.1f s", (t1 - t0) / 1e9,
        (System.nanoTime() - t1) / 1e9);
  }

  @Override void setThreads(int threads) throws SQLException {
    BenchSql.exec(connection(), "SET max_threads = " + threads);
  }
}
