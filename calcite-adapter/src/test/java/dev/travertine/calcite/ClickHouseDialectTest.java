package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static dev.travertine.calcite.JdbcTestSupport.rows;
import static dev.travertine.calcite.JdbcTestSupport.rowsRounded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ClickHouse's statements and functions that a new user types first: SHOW, DESCRIBE, EXISTS;
 * count(), the -If aggregates, uniq, any, argMin/argMax, median/quantile, the date functions,
 * if/multiIf. Each function's answers on random rows are checked against the same quantity spelt
 * in standard SQL (run by Calcite's own operators) or computed here with java.time, with the
 * vectorized engine on and off.
 */
class ClickHouseDialectTest {
  @TempDir Path dir;
  private Connection c;

  @BeforeEach void load() throws Exception {
    c = DriverManager.getConnection("jdbc:travertine:" + dir);
    exec(c, "CREATE TABLE t (k INTEGER NOT NULL, g INTEGER NOT NULL, x DOUBLE, s VARCHAR, d DATE NOT NULL,"
        + " ts TIMESTAMP NOT NULL) ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY (g, k)"
        + " SETTINGS index_granularity = 1024");
    Random r = new Random(34);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      if (i % 250 == 0) {
        if (i > 0) {
          exec(c, b.toString());
        }
        b.setLength(0);
        b.append("INSERT INTO t VALUES ");
      }
      LocalDate day = LocalDate.of(2023, 11, 1).plusDays(r.nextInt(200));
      LocalDateTime at = day.atStartOfDay().plusSeconds(r.nextInt(86400));
      b.append(i % 250 == 0 ? "" : ", ").append('(').append(i).append(", ").append(r.nextInt(7)).append(", ")
          .append(r.nextInt(10) == 0 ? "NULL" : (r.nextInt(2000) - 1000) / 8.0 + "E0").append(", ")
          .append(r.nextInt(10) == 0 ? "NULL" : "'s" + r.nextInt(50) + "'").append(", DATE '").append(day)
          .append("', TIMESTAMP '").append(at.toString().replace('T', ' ')).append(at.getSecond() == 0 ? ":00" : "")
          .append("')");
    }
    exec(c, b.toString());
    exec(c, "SYSTEM FLUSH");
  }

  @org.junit.jupiter.api.AfterEach void close() throws SQLException {
    c.close();
  }

  /** The ClickHouse spelling and a standard one of the same quantity agree, per group, engine on and off. */
  @Test void aggregatesAgreeWithTheirStandardSpelling() throws Exception {
    String[][] pairs = {
        {"count()", "COUNT(*)"},
        {"countIf(x > 0)", "SUM(CASE WHEN x > 0 THEN 1 ELSE 0 END)"},
        {"sumIf(x, MOD(k, 3) = 0)", "SUM(CASE WHEN MOD(k, 3) = 0 THEN x END)"},
        {"avgIf(x, s IS NOT NULL)", "AVG(CASE WHEN s IS NOT NULL THEN x END)"},
        {"minIf(k, x < 0)", "MIN(CASE WHEN x < 0 THEN k END)"},
        {"maxIf(s, k > 100)", "MAX(CASE WHEN k > 100 THEN s END)"},
        {"uniq(s)", "COUNT(DISTINCT s)"},
        {"uniqExact(s, x)", "COUNT(DISTINCT s || '/' || CAST(x AS VARCHAR))"},
        {"uniqIf(s, x > 0)", "COUNT(DISTINCT CASE WHEN x > 0 THEN s END)"},
        {"any(g)", "MAX(g)"}, // one value per group: any is that value
        {"argMax(k, ts)", "MAX(CASE WHEN ts = (SELECT MAX(u.ts) FROM t u WHERE u.g = t.g) THEN k END)"},
        {"argMin(k, ts)", "MIN(CASE WHEN ts = (SELECT MIN(u.ts) FROM t u WHERE u.g = t.g) THEN k END)"},
    };
    for (String[] p : pairs) {
      for (int vectorized = 0; vectorized <= 1; vectorized++) {
        exec(c, "SET vectorized_execution = " + vectorized);
        String ours = "SELECT g, " + p[0] + " FROM t GROUP BY g ORDER BY g";
        String standard = "SELECT g, " + p[1] + " FROM t GROUP BY g ORDER BY g";
        assertEquals(rowsRounded(c, standard), rowsRounded(c, ours), p[0] + " (vectorized " + vectorized + ")");
      }
    }
    assertEquals(one(c, "SELECT COUNT(*) FROM t"), one(c, "SELECT count() FROM t"));
  }

  @Test void quantilesMatchTheirDefinitions() throws Exception {
    List<Double> values = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT x FROM t WHERE x IS NOT NULL")) {
      while (rs.next()) {
        values.add(rs.getDouble(1));
      }
    }
    double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(v);
    int n = v.length;
    double pos = 0.9 * (n - 1);
    int lo = (int) Math.floor(pos);
    double interpolated = v[lo] + (v[Math.min(n - 1, lo + 1)] - v[lo]) * (pos - lo);
    double half = 0.5 * (n - 1);
    double median = v[(int) Math.floor(half)] + (v[Math.min(n - 1, (int) Math.floor(half) + 1)]
        - v[(int) Math.floor(half)]) * (half - Math.floor(half));
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT quantile(0.9)(x), median(x), quantileExact(0.9)(x), medianExact(x), quantile(0.5)(k) FROM t")) {
      assertTrue(rs.next());
      assertEquals(interpolated, rs.getDouble(1), 1e-9);
      assertEquals(median, rs.getDouble(2), 1e-9);
      assertEquals(v[(int) (0.9 * n)], rs.getDouble(3), 0);
      assertEquals(v[n / 2], rs.getDouble(4), 0);
      assertEquals(1499.5, rs.getDouble(5), 1e-9); // k = 0 … 2999: halfway between 1499 and 1500
    }
    assertEquals("null", one(c, "SELECT median(x) FROM t WHERE k < 0"));
  }

  /** The date functions agree with java.time on every row. */
  @Test void dateFunctionsAgreeWithJavaTime() throws Exception {
    String q = "SELECT d, ts, toYYYYMM(d), toYYYYMMDD(d), toYear(d), toQuarter(d), toMonth(d), toDayOfMonth(d),"
        + " toDayOfYear(d), toDayOfWeek(d), toHour(ts), toMinute(ts), toSecond(ts), toStartOfMonth(d),"
        + " toStartOfYear(d), toStartOfQuarter(d), toStartOfWeek(d), toMonday(d), toStartOfDay(ts),"
        + " toStartOfHour(ts), toStartOfMinute(ts), toDate(ts), toDate(CAST(d AS VARCHAR)), toYYYYMM(ts)"
        + " FROM t ORDER BY k";
    for (int vectorized = 0; vectorized <= 1; vectorized++) {
      exec(c, "SET vectorized_execution = " + vectorized);
      int rowsSeen = 0;
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(q)) {
        while (rs.next()) {
          rowsSeen++;
          LocalDate d = rs.getDate(1).toLocalDate();
          LocalDateTime ts = rs.getTimestamp(2).toLocalDateTime();
          String at = "row with d = " + d + ", ts = " + ts;
          assertEquals(d.getYear() * 100 + d.getMonthValue(), rs.getInt(3), at);
          assertEquals(d.getYear() * 10000 + d.getMonthValue() * 100 + d.getDayOfMonth(), rs.getInt(4), at);
          assertEquals(d.getYear(), rs.getInt(5), at);
          assertEquals((d.getMonthValue() - 1) / 3 + 1, rs.getInt(6), at);
          assertEquals(d.getMonthValue(), rs.getInt(7), at);
          assertEquals(d.getDayOfMonth(), rs.getInt(8), at);
          assertEquals(d.getDayOfYear(), rs.getInt(9), at);
          assertEquals(d.getDayOfWeek().getValue(), rs.getInt(10), at); // Monday 1 … Sunday 7
          assertEquals(ts.getHour(), rs.getInt(11), at);
          assertEquals(ts.getMinute(), rs.getInt(12), at);
          assertEquals(ts.getSecond(), rs.getInt(13), at);
          assertEquals(d.withDayOfMonth(1), rs.getDate(14).toLocalDate(), at);
          assertEquals(d.withDayOfYear(1), rs.getDate(15).toLocalDate(), at);
          assertEquals(LocalDate.of(d.getYear(), (d.getMonthValue() - 1) / 3 * 3 + 1, 1), rs.getDate(16).toLocalDate(), at);
          assertEquals(d.with(TemporalAdjusters.previousOrSame(DayOfWeek.SUNDAY)), rs.getDate(17).toLocalDate(), at);
          assertEquals(d.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)), rs.getDate(18).toLocalDate(), at);
          assertEquals(ts.toLocalDate().atStartOfDay(), rs.getTimestamp(19).toLocalDateTime(), at);
          assertEquals(ts.withMinute(0).withSecond(0), rs.getTimestamp(20).toLocalDateTime(), at);
          assertEquals(ts.withSecond(0), rs.getTimestamp(21).toLocalDateTime(), at);
          assertEquals(ts.toLocalDate(), rs.getDate(22).toLocalDate(), at);
          assertEquals(d, rs.getDate(23).toLocalDate(), at);
          assertEquals(ts.getYear() * 100 + ts.getMonthValue(), rs.getInt(24), at);
        }
      }
      assertEquals(3000, rowsSeen);
    }
    assertEquals("true, true, true", one(c, "SELECT today() = CURRENT_DATE, now() <= CURRENT_TIMESTAMP,"
        + " yesterday() = CURRENT_DATE - INTERVAL '1' DAY"));
  }

  @Test void conditionalsAndConstants() throws Exception {
    assertEquals(rows(c, "SELECT k, CASE WHEN x > 0 THEN 'pos' WHEN x < 0 THEN 'neg' ELSE 'zero or null' END,"
            + " CASE WHEN MOD(k, 2) = 0 THEN 'even' ELSE 'odd' END FROM t ORDER BY k"),
        rows(c, "SELECT k, multiIf(x > 0, 'pos', x < 0, 'neg', 'zero or null'), if(MOD(k, 2) = 0, 'even', 'odd')"
            + " FROM t ORDER BY k"));
    assertEquals("odd", one(c, "SELECT if(1 = 2, 'even', 'odd')"), "a CASE of strings is not padded");
    assertEquals("main, main, " + dev.travertine.jdbc.Version.get(),
        one(c, "SELECT currentDatabase(), database(), version()"));
    assertEquals("1.50 KiB, 117.74 MiB, 0.00 B, 1.23 million, 999.00",
        one(c, "SELECT formatReadableSize(1536), formatReadableSize(123456789), formatReadableSize(0),"
            + " formatReadableQuantity(1234567), formatReadableQuantity(999)"));
    assertEquals("2024-01-02, 2024-01-02 03:04:05, 7, abc, 2.5",
        one(c, "SELECT toDate('2024-01-02'), toDateTime('2024-01-02 03:04:05'), toInt32('7'), toString('abc'),"
            + " toFloat64('2.5')"));
  }

  @Test void showDescribeAndExists() throws Exception {
    exec(c, "CREATE VIEW v AS SELECT k, x FROM t WHERE k > 10");
    assertEquals(List.of("t", "v"), rows(c, "SHOW TABLES"));
    assertEquals(List.of("t"), rows(c, "SHOW TABLES FROM default LIKE 't%'"));
    assertEquals(List.of("v"), rows(c, "show tables in main not like 't'"));
    assertEquals(List.of("parts", "processes"), rows(c, "SHOW TABLES FROM system LIKE 'p%'"));
    assertEquals(List.of("main", "system"), rows(c, "SHOW DATABASES"));
    for (String table : rows(c, "SHOW TABLES FROM system")) {
      rows(c, "SELECT * FROM system." + table + " LIMIT 1"); // every listed system table exists
    }
    assertEquals(List.of("k, INTEGER, false, null, true, false", "g, INTEGER, false, null, true, false",
        "x, DOUBLE, true, null, false, false", "s, VARCHAR, true, null, false, false",
        "d, DATE, false, null, false, true", "ts, TIMESTAMP(3), false, null, false, false"), rows(c, "DESCRIBE t"));
    assertEquals(rows(c, "DESCRIBE t"), rows(c, "DESC TABLE main.t"));
    assertEquals(rows(c, "DESCRIBE t"), rows(c, "SHOW COLUMNS FROM t"));
    assertEquals(List.of("k, INTEGER, false, null, false, false", "x, DOUBLE, true, null, false, false"),
        rows(c, "DESCRIBE v"));
    assertTrue(rows(c, "DESCRIBE system.parts").contains("rows, BIGINT, true, null, false, false"));
    assertEquals("1", one(c, "EXISTS t"));
    assertEquals("1", one(c, "EXISTS TABLE v"));
    assertEquals("1", one(c, "EXISTS system.parts"));
    assertEquals("0", one(c, "EXISTS TABLE nope"));
    String ddl = one(c, "SHOW CREATE TABLE t");
    assertEquals("CREATE TABLE main.t\n(\n    k INTEGER NOT NULL,\n    g INTEGER NOT NULL,\n    x DOUBLE,\n"
        + "    s VARCHAR,\n    d DATE NOT NULL,\n    ts TIMESTAMP(3) NOT NULL\n)\nENGINE = MergeTree\n"
        + "PARTITION BY toYYYYMM(d)\nORDER BY (g, k)\nSETTINGS index_granularity = 1024", ddl);
    // The statement creates the same table again.
    exec(c, ddl.replace("main.t", "t2"));
    assertEquals(rows(c, "DESCRIBE t"), rows(c, "DESCRIBE t2"));
    assertEquals(ddl.replace("main.t", "main.t2"), one(c, "SHOW CREATE t2"));
    assertTrue(one(c, "SHOW CREATE VIEW v").startsWith("CREATE VIEW main.v AS SELECT"));
    assertEquals(List.of("max_threads, UINT"), rows(c, "SHOW SETTINGS LIKE 'max_thread%'").stream()
        .map(r -> r.substring(0, r.indexOf(", ", r.indexOf(", ") + 1))).toList());
    assertTrue(rows(c, "SHOW PROCESSLIST").stream().anyMatch(r -> r.contains("SHOW PROCESSLIST")));
  }

  /** ClickHouse's system-table column names need no quotes; ROWS and VALUE keep their SQL meanings. */
  @Test void rowsAndValueAreNames() throws Exception {
    assertEquals(rows(c, "SELECT \"name\", \"active\", \"rows\" FROM system.parts ORDER BY 1"),
        rows(c, "SELECT name, active, rows FROM system.parts ORDER BY name"));
    // A background merge may move its counters between two reads: compare a read whose quoted
    // reads before and after agree.
    String quoted = "SELECT \"event\", \"value\" FROM system.events WHERE event <> 'Query' ORDER BY 1";
    for (int attempt = 0; ; attempt++) {
      List<String> before = rows(c, quoted);
      List<String> bare = rows(c, "SELECT event, value FROM system.events WHERE event <> 'Query' ORDER BY event");
      if (before.equals(rows(c, quoted)) || attempt == 20) {
        assertEquals(before, bare, "every counter but Query, which counts these statements");
        break;
      }
    }
    assertEquals("3000", one(c, "SELECT sum(rows) FROM system.parts WHERE \"table\" = 't'"));
    assertEquals(one(c, "SELECT max(\"value\") FROM system.events WHERE event = 'InsertedRows'"),
        one(c, "SELECT max(value) FROM system.events e WHERE event = 'InsertedRows'"));
    assertEquals(one(c, "SELECT count(*) FROM system.events"),
        one(c, "SELECT count(*) FROM system.events e WHERE e.value >= 0 AND 'value' <> 'x'"));
    assertEquals(List.of("1, 1", "2, 3", "3, 5"),
        rows(c, "SELECT k, SUM(k) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t"
            + " WHERE k BETWEEN 1 AND 3 ORDER BY k"));
    assertEquals(List.of("2"), rows(c, "SELECT k FROM t WHERE k > 0 ORDER BY k OFFSET 1 ROWS FETCH NEXT 1 ROWS ONLY"));
    assertEquals(List.of("7"), rows(c, "VALUES (7)"));
    assertEquals(List.of("3"), rows(c, "SELECT k FROM t WHERE k = ANY (SELECT 3 FROM t)"), "= ANY stays quantified");
  }

  @Test void whatIsMissingFailsClearly() {
    Object[][] cases = {
        {"SELECT groupArray(k) FROM t", 48, "groupArray() needs arrays, which Travertine does not have"},
        {"SELECT quantiles(0.5, 0.9)(x) FROM t", 48, "use quantile(level)(x) once per level"},
        {"SHOW TABLES FROM nodb", 81, "Database nodb does not exist"},
        {"DESCRIBE nope", 60, "Table nope does not exist"},
        {"SHOW CREATE TABLE nope", 60, "Table nope does not exist"},
        {"SELECT quantile(2)(x) FROM t", 1001, "Quantile level must be between 0 and 1"},
    };
    for (Object[] k : cases) {
      SQLException e = assertThrows(SQLException.class, () -> rows(c, (String) k[0]), (String) k[0]);
      assertEquals(k[1], e.getErrorCode(), k[0] + ": " + e.getMessage());
      assertTrue(e.getMessage().contains((String) k[2]), k[0] + ": " + e.getMessage());
    }
  }
}
