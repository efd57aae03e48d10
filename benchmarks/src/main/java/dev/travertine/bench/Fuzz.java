package dev.travertine.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The SQL fuzzer: random statements against a real {@code travertine server} process (or an
 * embedded database), checked by oracles that need no model of the answer:
 * <ul>
 *   <li>ternary logic partitioning (SQLancer's TLP): for a random predicate {@code p}, the rows of
 *       {@code Q} are, as a multiset, those of {@code Q WHERE p}, {@code Q WHERE NOT p} and
 *       {@code Q WHERE p IS NULL}; likewise COUNT, MIN, MAX and DISTINCT;</li>
 *   <li>differential: a random query with GROUP BY, ORDER BY and LIMIT gives the same rows with
 *       {@code vectorized_execution} 1 and 0 (the engine's operators against Calcite's);</li>
 *   <li>errors: malformed SQL, unknown names, wrong types and bad settings fail with an
 *       SQLException whose message is a clear sentence (no Java exception names, no bare
 *       {@code null}), the server stays up, and a failed INSERT changes no row count.</li>
 * </ul>
 * Usage: {@code Fuzz [statements=10000] [seed=1] [dataDir|-] [server|embedded]}. Prints what ran and
 * every failure (with the SQL); exits 1 if any check failed.
 */
public final class Fuzz {
  private final Random rnd;
  private final Connection c;
  private final Map<String, Long> counts = new LinkedHashMap<>();
  private final Map<String, Integer> ran = new LinkedHashMap<>();
  private final List<String> failures = new ArrayList<>();
  private int clearErrors;
  private final Map<String, Integer> errorKinds = new java.util.HashMap<>();
  private final Map<String, String> errorExamples = new java.util.HashMap<>();

  private Fuzz(Random rnd, Connection c) {
    this.rnd = rnd;
    this.c = c;
  }

  private static final String[] TABLES = {"t0", "t1"};
  private static final String COLUMNS = "k INTEGER NOT NULL, a INTEGER, b BIGINT, c DOUBLE, d VARCHAR, e DATE,"
      + " f BOOLEAN, g DECIMAL(10, 2)";
  private static final String[] NUM = {"a", "b", "c", "g", "k"};
  private static final String[] INT = {"a", "b", "k"};

  public static void main(String[] args) throws Exception {
    int statements = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
    Path dir = (args.length > 2 && !args[2].equals("-") ? Path.of(args[2])
        : Path.of(System.getProperty("java.io.tmpdir"), "travertine-fuzz")).toAbsolutePath();
    boolean embedded = args.length > 3 && args[3].equals("embedded");
    Files.createDirectories(dir);
    long t0 = System.nanoTime();
    ServerProcess server = null;
    try {
      Connection conn;
      if (embedded) {
        HitsEngine.deleteAll(dir.resolve("db"));
        conn = DriverManager.getConnection("jdbc:travertine:" + dir.resolve("db"));
      } else {
        server = ServerProcess.start(dir.resolve("db"), 2, dir.resolve("fuzz-server.log"));
        conn = server.connect();
      }
      try (Connection cc = conn) {
        Fuzz f = new Fuzz(new Random(seed), cc);
        f.setUp();
        for (int i = 0; i < statements; i++) {
          f.step(i);
          if (server != null && i % 500 == 499 && !server.alive()) {
            f.failures.add("the server process died after statement " + i);
            break;
          }
        }
        System.out.printf(Locale.ROOT, "# %d statements in %.1f s (seed %d, %s)%n", statements,
            (System.nanoTime() - t0) / 1e9, seed, embedded ? "embedded" : "server process");
        f.ran.forEach((k, v) -> System.out.printf(Locale.ROOT, "%-28s %6d%n", k, v));
        System.out.printf(Locale.ROOT, "clear SQLExceptions (expected) %d%nfailures %d%n", f.clearErrors,
            f.failures.size());
        f.errorKinds.entrySet().stream().sorted((x, y) -> y.getValue() - x.getValue()).limit(12)
            .forEach(e -> System.out.printf(Locale.ROOT, "  %5d %s%n          e.g. %s%n", e.getValue(),
                e.getKey().replace('\n', ' '), f.errorExamples.get(e.getKey())));
        for (String s : f.failures.subList(0, Math.min(50, f.failures.size()))) {
          System.out.println("FAIL " + s);
        }
        if (server != null && !server.alive()) {
          System.out.println("FAIL the server process is not running");
          System.exit(1);
        }
        System.exit(f.failures.isEmpty() ? 0 : 1);
      }
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }

  private void setUp() throws SQLException {
    for (String t : TABLES) {
      exec("DROP TABLE IF EXISTS " + t);
      exec("CREATE TABLE " + t + " (" + COLUMNS + ") ORDER BY k");
      int n = t.equals("t0") ? 3000 : 300;
      for (int from = 0; from < n; from += 500) {
        StringBuilder sb = new StringBuilder("INSERT INTO " + t + " VALUES ");
        for (int k = from; k < Math.min(n, from + 500); k++) {
          sb.append(k > from ? ", " : "").append(row(k));
        }
        exec(sb.toString());
      }
      counts.put(t, (long) n);
    }
  }

  private String row(int k) {
    return "(" + k + ", " + maybe(String.valueOf(rnd.nextInt(200) - 100)) + ", "
        + maybe(String.valueOf(rnd.nextLong() % 1_000_000L)) + ", " + maybe(String.format(Locale.ROOT, "%.3f",
        rnd.nextGaussian() * 100)) + ", " + maybe("'" + (char) ('a' + rnd.nextInt(6)) + rnd.nextInt(20) + "'") + ", "
        + maybe("DATE '" + java.time.LocalDate.ofEpochDay(18_000 + rnd.nextInt(1000)) + "'") + ", "
        + maybe(rnd.nextBoolean() ? "TRUE" : "FALSE") + ", " + maybe(String.format(Locale.ROOT, "%.2f",
        rnd.nextGaussian() * 1000)) + ")";
  }

  private String maybe(String v) {
    return rnd.nextInt(8) == 0 ? "NULL" : v;
  }

  private void step(int i) throws SQLException {
    int kind = rnd.nextInt(100);
    String what = kind < 35 ? "tlp rows" : kind < 50 ? "tlp aggregates" : kind < 65 ? "vectorized vs calcite"
        : kind < 75 ? "settings" : kind < 90 ? "malformed" : "failing insert";
    ran.merge(what, 1, Integer::sum);
    switch (what) {
      case "tlp rows" -> tlpRows();
      case "tlp aggregates" -> tlpAggregate();
      case "vectorized vs calcite" -> differential();
      case "settings" -> setting();
      case "malformed" -> malformed();
      default -> failingInsert();
    }
  }

  // ---- oracles

  private void tlpRows() {
    String t = table();
    String cols = pick(new String[] {"*", "k, " + pick(NUM) + ", d", "k, " + num() + " AS x", "UPPER(d), e, f",
        "k, CASE WHEN " + predicate(1) + " THEN 1 ELSE 0 END"});
    String distinct = rnd.nextInt(4) == 0 ? "DISTINCT " : "";
    if (!distinct.isEmpty()) {
      cols = pick(new String[] {"a", "d", "f", "e", "MOD(k, 5), f", "SUBSTRING(d, 1, 1)"});
    }
    String from = t;
    if (rnd.nextInt(4) == 0) { // a join: predicates name the left table's columns, the right one's are renamed
      from = t + " JOIN (SELECT k AS rk, a AS ra, d AS rd FROM t1) r ON " + t + ".a = r.ra";
      cols = distinct.isEmpty() ? t + ".k, r.rk, r.rd, " + t + ".d" : t + ".d, r.rd";
    }
    String q = "SELECT " + distinct + cols + " FROM " + from;
    String p = predicate(2);
    List<String> whole = rows(q);
    List<String> parts = new ArrayList<>();
    List<String> a = rows(q + " WHERE " + p);
    List<String> b = rows(q + " WHERE NOT (" + p + ")");
    List<String> n = rows(q + " WHERE (" + p + ") IS NULL");
    if (whole == null || a == null || b == null || n == null) {
      return;
    }
    parts.addAll(a);
    parts.addAll(b);
    parts.addAll(n);
    if (!distinct.isEmpty()) {
      parts = new ArrayList<>(new java.util.TreeSet<>(parts));
    }
    Collections.sort(whole);
    Collections.sort(parts);
    if (!whole.equals(parts)) {
      failures.add("TLP rows differ (" + whole.size() + " vs " + parts.size() + "): " + q + " WHERE " + p);
    }
  }

  private void tlpAggregate() {
    String t = table();
    String x = pick(INT);
    String agg = pick(new String[] {"COUNT(*)", "COUNT(" + x + ")", "MIN(" + x + ")", "MAX(" + x + ")",
        "SUM(" + x + ")"});
    String p = predicate(2);
    String whole = one("SELECT " + agg + " FROM " + t);
    String a = one("SELECT " + agg + " FROM " + t + " WHERE " + p);
    String b = one("SELECT " + agg + " FROM " + t + " WHERE NOT (" + p + ")");
    String n = one("SELECT " + agg + " FROM " + t + " WHERE (" + p + ") IS NULL");
    if (whole == null || a == null || b == null || n == null) {
      return;
    }
    String combined;
    if (agg.startsWith("COUNT") || agg.startsWith("SUM")) {
      java.math.BigDecimal s = java.math.BigDecimal.ZERO;
      boolean any = false;
      for (String v : new String[] {a, b, n}) {
        if (!v.equals("null")) {
          s = s.add(new java.math.BigDecimal(v));
          any = true;
        }
      }
      combined = any ? s.toPlainString() : agg.startsWith("COUNT") ? "0" : "null";
    } else {
      List<Long> vs = new ArrayList<>();
      for (String v : new String[] {a, b, n}) {
        if (!v.equals("null")) {
          vs.add(Long.parseLong(v));
        }
      }
      combined = vs.isEmpty() ? "null" : String.valueOf(agg.startsWith("MIN") ? Collections.min(vs)
          : Collections.max(vs));
    }
    if (!combined.equals(whole)) {
      failures.add("TLP " + agg + ": " + whole + " vs " + combined + " (" + a + ", " + b + ", " + n + "): WHERE " + p);
    }
  }

  private void differential() throws SQLException {
    String t = table();
    String key = pick(new String[] {"a", "d", "e", "f", "MOD(k, 7)", "a + 1", "d || 'x'", "a, f", "e, d",
        "CASE WHEN a > 0 THEN 'p' ELSE d END", "CHAR_LENGTH(d)", "g"});
    String agg = pick(new String[] {"COUNT(*)", "MIN(b)", "MAX(d)", "SUM(a)", "COUNT(DISTINCT a)", "MAX(e)",
        "MIN(g)", "SUM(g)", "AVG(a)", "COUNT(c)", "SUM(a * 2 + b)", "MAX(c)", "MIN(k) + MAX(k)",
        "COUNT(*) FILTER (WHERE a > 0)", "SUM(CASE WHEN f THEN 1 ELSE 0 END)", "COUNT(DISTINCT d)"});
    String where = rnd.nextBoolean() ? " WHERE " + predicate(2) : "";
    String q;
    if (rnd.nextBoolean()) {
      String having = rnd.nextInt(3) == 0 ? " HAVING COUNT(*) > " + rnd.nextInt(5) : "";
      int keys = key.startsWith("CASE") || key.startsWith("MOD") ? 1 : key.split(",").length;
      StringBuilder order = new StringBuilder();
      for (int i = 1; i <= keys + 1; i++) {
        order.append(i > 1 ? ", " : "").append(i).append(" NULLS FIRST");
      }
      q = "SELECT " + key + ", " + agg + " AS y FROM " + t + where + " GROUP BY " + key + having + " ORDER BY " + order;
    } else if (rnd.nextInt(3) == 0) {
      q = "SELECT DISTINCT " + pick(new String[] {"a", "d", "f", "MOD(b, 3)"}) + " AS x FROM " + t + where
          + " ORDER BY x NULLS LAST";
    } else {
      q = "SELECT k, " + pick(NUM) + ", d FROM " + t + where + " ORDER BY " + pick(new String[] {"k", "d, k", "a DESC, k",
          "e NULLS LAST, k"}) + " LIMIT " + (1 + rnd.nextInt(50)) + (rnd.nextBoolean() ? " OFFSET " + rnd.nextInt(20) : "");
    }
    exec("SET vectorized_execution = 1");
    List<String> v = rows(q);
    exec("SET vectorized_execution = 0");
    List<String> r = rows(q);
    exec("SET vectorized_execution = 1");
    if (v != null && r != null && !v.equals(r)) {
      failures.add("vectorized and Calcite differ (" + v.size() + " vs " + r.size() + " rows): " + q);
    }
  }

  private void setting() {
    String[] s = {"max_threads = " + (1 + rnd.nextInt(4)), "max_block_size = " + (1 + rnd.nextInt(100_000)),
        "max_threads = -1", "max_threads = 'x'", "no_such_setting = 1", "vectorized_execution = 7",
        "max_execution_time = 30", "max_memory_usage = " + (rnd.nextBoolean() ? 0 : 1_000_000_000L),
        "max_result_rows = 0", "readonly = 0", "optimize_read_in_order = " + rnd.nextInt(2)};
    String sql = "SET " + pick(s);
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      judge(sql, e);
    }
  }

  private void malformed() {
    String base = pick(new String[] {
        "SELECT a, COUNT(*) FROM t0 WHERE b > 3 GROUP BY a ORDER BY 2 DESC LIMIT 5",
        "SELECT * FROM t1 WHERE d LIKE 'a%' AND e < DATE '2020-01-01'",
        "INSERT INTO t1 VALUES (100000, 1, 2, 3.5, 'x', DATE '2020-01-01', TRUE, 1.25)",
        "UPDATE t0 SET a = a + 1 WHERE k < 0",
        "SELECT CAST(d AS INTEGER) FROM t0",
        "SELECT 1 / 0",
        "SELECT * FROM nope",
        "SELECT zz FROM t0",
        "SELECT a FROM t0 GROUP BY b",
        "CREATE TABLE t0 (x INT) ORDER BY x"});
    String[] words = base.split(" ");
    List<String> w = new ArrayList<>(List.of(words));
    int edits = 1 + rnd.nextInt(3);
    for (int i = 0; i < edits && !w.isEmpty(); i++) {
      int at = rnd.nextInt(w.size());
      switch (rnd.nextInt(4)) {
        case 0 -> w.remove(at);
        case 1 -> w.add(at, pick(new String[] {"(", ")", ",", "FROM", "WHERE", "NULL", "'", "SELECT", "*", "ORDER",
            "BY", "1e999", "-", "AND", "::", ";"}));
        case 2 -> Collections.swap(w, at, rnd.nextInt(w.size()));
        default -> w.set(at, w.get(at).substring(0, w.get(at).length() / 2));
      }
    }
    String sql = String.join(" ", w);
    if (sql.startsWith("INSERT") || sql.startsWith("UPDATE") || sql.startsWith("CREATE")) {
      return; // may legitimately change data: only queries here
    }
    try (Statement st = c.createStatement()) {
      if (st.execute(sql)) {
        try (ResultSet rs = st.getResultSet()) {
          while (rs.next()) {
            // drained
          }
        }
      }
    } catch (SQLException e) {
      judge(sql, e);
    }
  }

  private void failingInsert() throws SQLException {
    String t = table();
    String sql = pick(new String[] {
        "INSERT INTO " + t + " VALUES (1, 'x', 2, 3, 'd', DATE '2020-01-01', TRUE, 1)",
        "INSERT INTO " + t + " (k, zz) VALUES (1, 2)",
        "INSERT INTO " + t + " VALUES (NULL, 1, 2, 3, 'd', DATE '2020-01-01', TRUE, 1)",
        "INSERT INTO " + t + " SELECT * FROM nope",
        "INSERT INTO " + t + " VALUES (1, 99999999999, 2, 3, 'd', DATE '2020-01-01', TRUE, 1)",
        "INSERT INTO " + t + " VALUES (1, 1, 2, 3, 'd', DATE '2020-01-01', TRUE, 123456789012.5)",
        "INSERT INTO " + t + " SELECT k, a, b, c, d, e, f, g / 0 FROM " + t});
    try (Statement st = c.createStatement()) {
      st.execute(sql);
      failures.add("should have failed: " + sql);
    } catch (SQLException e) {
      judge(sql, e);
    }
    String n = one("SELECT COUNT(*) FROM " + t);
    if (n != null && Long.parseLong(n) != counts.get(t)) {
      failures.add("a failed INSERT changed " + t + ": " + counts.get(t) + " -> " + n + " rows: " + sql);
      counts.put(t, Long.parseLong(n));
    }
  }

  // ---- helpers

  /** A clear error: a sentence, not a Java exception's name or an empty message. */
  private void judge(String sql, SQLException e) {
    String m = String.valueOf(e.getMessage());
    if (m.contains("NullPointerException") || m.contains("ClassCastException") || m.contains("AssertionError")
        || m.contains("IndexOutOfBounds") || m.contains("UnsupportedOperationException")
        || m.contains("NumberFormatException") || m.endsWith(": null") || m.isBlank()
        || m.contains("StackOverflowError") || m.contains("IllegalStateException")
        || m.contains("For input string")) {
      failures.add("unclear error for " + sql + ": " + m.replace('\n', ' '));
    } else {
      clearErrors++;
      String kind = m.replaceAll("Error while executing SQL \"(?s).*?\": ", "").replaceAll("'[^']*'", "'…'")
          .replaceAll("[0-9]+", "N");
      String key = kind.substring(0, Math.min(70, kind.length()));
      errorKinds.merge(key, 1, Integer::sum);
      errorExamples.putIfAbsent(key, sql);
    }
    if (m.contains("Connection refused") || m.contains("connection closed")) {
      failures.add("lost the server at: " + sql + ": " + m);
    }
  }

  private List<String> rows(String sql) {
    List<String> out = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      ResultSetMetaData md = rs.getMetaData();
      int n = md.getColumnCount();
      while (rs.next()) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          Object v = rs.getObject(i);
          if (v instanceof Double || v instanceof Float) {
            v = String.format(Locale.ROOT, "%.9g", ((Number) v).doubleValue());
          } else if (v instanceof java.math.BigDecimal bd) {
            v = bd.stripTrailingZeros().toPlainString();
          }
          sb.append(i > 1 ? "|" : "").append(v);
        }
        out.add(sb.toString());
      }
      return out;
    } catch (SQLException e) {
      judge(sql, e);
      return null;
    }
  }

  private String one(String sql) {
    List<String> r = rows(sql);
    return r == null || r.isEmpty() ? null : r.get(0);
  }

  private void exec(String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  private String table() {
    return pick(TABLES);
  }

  private String pick(String[] xs) {
    return xs[rnd.nextInt(xs.length)];
  }

  private String predicate(int depth) {
    if (depth == 0 || rnd.nextInt(3) == 0) {
      return atom();
    }
    return switch (rnd.nextInt(4)) {
      case 0 -> "(" + predicate(depth - 1) + " AND " + predicate(depth - 1) + ")";
      case 1 -> "(" + predicate(depth - 1) + " OR " + predicate(depth - 1) + ")";
      case 2 -> "NOT (" + predicate(depth - 1) + ")";
      default -> "(" + predicate(depth - 1) + ") IS " + (rnd.nextBoolean() ? "" : "NOT ") + pick(new String[] {"TRUE",
          "FALSE", "NULL"});
    };
  }

  private String atom() {
    return switch (rnd.nextInt(16)) {
      case 0 -> num() + " " + pick(new String[] {"=", "<>", "<", "<=", ">", ">="}) + " " + num();
      case 1 -> pick(NUM) + " IS " + (rnd.nextBoolean() ? "" : "NOT ") + "NULL";
      case 2 -> pick(INT) + " BETWEEN " + (rnd.nextInt(100) - 50) + " AND " + (rnd.nextInt(100) - 20);
      case 3 -> pick(INT) + (rnd.nextBoolean() ? " NOT" : "") + " IN (" + (rnd.nextInt(40) - 20) + ", "
          + (rnd.nextInt(40) - 20) + ", NULL)";
      case 4 -> "d " + (rnd.nextBoolean() ? "NOT " : "") + "LIKE '" + pick(new String[] {"a%", "%1", "_2%", "%", "b1"})
          + "'";
      case 5 -> "e " + pick(new String[] {"<", ">=", "="}) + " DATE '" + java.time.LocalDate.ofEpochDay(18_000
          + rnd.nextInt(1000)) + "'";
      case 6 -> "f" + pick(new String[] {"", " = TRUE", " <> FALSE", " IS NOT TRUE"});
      case 7 -> "CASE WHEN " + pick(INT) + " > 0 THEN d ELSE 'z' END " + pick(new String[] {"<", ">"}) + " 'c'";
      case 8 -> "COALESCE(" + pick(INT) + ", 0) " + pick(new String[] {"<", ">", "="}) + " " + (rnd.nextInt(20) - 10);
      case 9 -> "g " + pick(new String[] {"<", ">"}) + " " + (rnd.nextInt(2000) - 1000) + ".5";
      case 10 -> "d = " + pick(new String[] {"'a1'", "'b2'", "''", "d", "UPPER(d)", "LOWER('A' || SUBSTRING(d, 2))"});
      case 11 -> "c " + pick(new String[] {"<", ">", "<="}) + " " + String.format(Locale.ROOT, "%.2f", rnd.nextGaussian() * 50);
      case 12 -> "NULLIF(" + pick(INT) + ", " + (rnd.nextInt(10) - 5) + ") " + pick(new String[] {"<", ">", "="}) + " 0";
      case 13 -> pick(INT) + " IN (SELECT a FROM t1 WHERE " + atom().replace(" d ", " t1.d ") + ")";
      case 14 -> "e + INTERVAL '" + rnd.nextInt(100) + "' DAY > DATE '2020-06-01'";
      default -> "CAST(" + pick(INT) + " AS VARCHAR) " + pick(new String[] {"LIKE '1%'", "= '0'", "< '5'"});
    };
  }

  private String num() {
    return switch (rnd.nextInt(7)) {
      case 0 -> pick(NUM);
      case 1 -> String.valueOf(rnd.nextInt(200) - 100);
      case 2 -> pick(INT) + " + " + pick(INT);
      case 3 -> pick(INT) + " * " + (rnd.nextInt(5) - 2);
      case 4 -> "MOD(" + pick(INT) + ", " + (1 + rnd.nextInt(9)) + ")";
      case 5 -> "ABS(" + pick(NUM) + ")";
      default -> "-" + pick(NUM);
    };
  }
}
