package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.explain;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Vectorized hash joins give Calcite's answers: every query runs with {@code vectorized_execution
 * = 1} (and must then show a {@code VectorizedJoin} in EXPLAIN) and with 0 (Calcite's own
 * operators, the reference) over randomized tables: a fact table {@code f} whose keys are NULL or
 * miss the dimension now and then, a dimension {@code d} with unique keys, a table {@code m} with
 * duplicate and NULL keys (skewed: one key holds a fifth of its rows), and an empty {@code e}.
 * Keys of every kind: integers, strings, dates, decimals, composite.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VectorizedJoinDifferentialTest {
  @TempDir static Path dir;
  private Connection c;

  @BeforeAll
  void load() throws Exception {
    c = connect(dir);
    exec(c, "CREATE TABLE f (k BIGINT NOT NULL, a INTEGER, s VARCHAR, dt DATE, dc DECIMAL(10, 2), x DOUBLE) "
        + "ORDER BY k SETTINGS index_granularity = 1000");
    exec(c, "CREATE TABLE d (id INTEGER NOT NULL, name VARCHAR, s VARCHAR, grp INTEGER, dt DATE, dc DECIMAL(10, 2)) "
        + "ORDER BY id");
    exec(c, "CREATE TABLE m (a INTEGER, s VARCHAR, w BIGINT, dt DATE) ORDER BY w");
    exec(c, "CREATE TABLE e (id INTEGER NOT NULL, name VARCHAR, s VARCHAR, grp INTEGER, dt DATE, dc DECIMAL(10, 2)) "
        + "ORDER BY id");
    Random rnd = new Random(20261205);
    String[] words = {"alpha", "beta", "gamma", "ünï", "", "delta", "Alpha", "x y"};
    int k = 0;
    for (int batch = 0; batch < 12; batch++) {
      List<String> rows = new ArrayList<>();
      for (int j = 0; j < 300; j++) {
        rows.add("(" + k++ + ", " + nul(rnd, String.valueOf(rnd.nextInt(260))) + ", "
            + nul(rnd, "'" + words[rnd.nextInt(words.length)] + rnd.nextInt(4) + "'") + ", "
            + nul(rnd, "DATE '2024-01-01' + " + rnd.nextInt(40) + " * INTERVAL '1' DAY") + ", "
            + nul(rnd, new BigDecimal(rnd.nextInt(4000)).movePointLeft(2).toPlainString()) + ", "
            + nul(rnd, String.format(Locale.ROOT, "%.3f", rnd.nextDouble() * 100)) + ")");
      }
      exec(c, "INSERT INTO f VALUES " + String.join(", ", rows));
      if (batch % 4 == 3) {
        exec(c, "SYSTEM FLUSH TABLE f"); // parts, and the last inserts stay in the buffer
      }
    }
    List<String> dims = new ArrayList<>();
    for (int id = 0; id < 240; id += 1 + rnd.nextInt(2)) {
      dims.add("(" + id + ", 'name" + id + "', " + nul(rnd, "'" + words[rnd.nextInt(words.length)] + rnd.nextInt(4)
          + "'") + ", " + nul(rnd, String.valueOf(rnd.nextInt(6))) + ", "
          + nul(rnd, "DATE '2024-01-01' + " + rnd.nextInt(40) + " * INTERVAL '1' DAY") + ", "
          + new BigDecimal(rnd.nextInt(4000)).movePointLeft(2).toPlainString() + ")");
    }
    exec(c, "INSERT INTO d VALUES " + String.join(", ", dims));
    List<String> many = new ArrayList<>();
    for (int j = 0; j < 700; j++) {
      String a = rnd.nextInt(5) == 0 ? "7" : String.valueOf(rnd.nextInt(300));
      many.add("(" + nul(rnd, a) + ", " + nul(rnd, "'" + words[rnd.nextInt(words.length)] + rnd.nextInt(4) + "'")
          + ", " + (rnd.nextInt(200) - 20) + ", " + nul(rnd, "DATE '2024-01-01' + " + rnd.nextInt(40)
          + " * INTERVAL '1' DAY") + ")");
    }
    exec(c, "INSERT INTO m VALUES " + String.join(", ", many));
    exec(c, "SYSTEM FLUSH TABLE d");
    exec(c, "SYSTEM FLUSH TABLE m");
  }

  @AfterAll
  void close() throws SQLException {
    c.close();
  }

  private static String nul(Random rnd, String v) {
    return rnd.nextInt(9) == 0 ? "NULL" : v;
  }

  /** Runs the query both ways; with vectorized execution its plan must hold a vectorized join. */
  private void check(String q) throws SQLException {
    exec(c, "SET vectorized_execution = 1");
    String plan = explain(c, q);
    assertTrue(plan.contains("VectorizedJoin"), "no vectorized join: " + q + "\n" + plan);
    List<String> got;
    List<String> cached;
    try {
      got = JdbcTestSupport.rowsRounded(c, q);
      // from the decoded-column cache (filled by the first run): INTEGER and DATE keys come narrow
      exec(c, "SET use_uncompressed_cache = 1");
      JdbcTestSupport.rowsRounded(c, q);
      cached = JdbcTestSupport.rowsRounded(c, q);
    } catch (SQLException e) {
      throw new AssertionError("vectorized failed: " + q + "\n" + plan, e);
    } finally {
      exec(c, "SET use_uncompressed_cache = 0");
    }
    exec(c, "SET vectorized_execution = 0");
    String reference = explain(c, q);
    assertFalse(reference.contains("Vectorized"), reference);
    List<String> want = JdbcTestSupport.rowsRounded(c, q);
    exec(c, "SET vectorized_execution = 1");
    if (!q.toUpperCase(Locale.ROOT).contains("ORDER BY")) {
      got.sort(null);
      want.sort(null);
      cached.sort(null);
    }
    assertEquals(want, got, q + "\n" + plan);
    assertEquals(want, cached, "from the decoded-column cache: " + q + "\n" + plan);
  }

  /**
   * EXISTS, IN and NOT EXISTS whose outer side is the smaller one: its rows are built and the
   * subquery's side probes, marking them (RIGHT_SEMI, RIGHT_ANTI), as TPC-H Q4 builds orders rather
   * than the lineitem rows of its EXISTS. Outer sides with duplicate rows, NULL keys, string keys,
   * residual conditions, an aggregate above, and an empty one.
   */
  @Test
  void semiAntiAndLeftJoinsBuildTheSmallerOuterSide() throws SQLException {
    String[] semi = {
        "SELECT id, name FROM d WHERE EXISTS (SELECT * FROM f WHERE f.a = d.id)",
        "SELECT id, name FROM d WHERE id IN (SELECT a FROM f WHERE x > 50)",
        "SELECT id, dt FROM d WHERE EXISTS (SELECT * FROM f WHERE f.a = d.id AND f.dt > d.dt)",
        "SELECT a, s, w FROM m WHERE EXISTS (SELECT * FROM f WHERE f.a = m.a)",
        "SELECT a, s FROM m WHERE EXISTS (SELECT * FROM f WHERE f.s = m.s AND f.a = m.a)",
        "SELECT grp, count(*), sum(dc) FROM d WHERE EXISTS (SELECT * FROM f WHERE f.a = d.id) GROUP BY grp",
        "SELECT id FROM e WHERE EXISTS (SELECT * FROM f WHERE f.a = e.id)"};
    String[] anti = {
        "SELECT id, name FROM d WHERE NOT EXISTS (SELECT * FROM f WHERE f.a = d.id)",

        "SELECT grp, count(*) FROM d WHERE NOT EXISTS (SELECT * FROM f WHERE f.a = d.id AND f.x > 10) GROUP BY grp",
        "SELECT id FROM e WHERE NOT EXISTS (SELECT * FROM f WHERE f.a = e.id)"};
    for (String q : semi) {
      String plan = explain(c, q);
      assertTrue(plan.contains("joinType=[right_semi]"), q + "\n" + plan);
      check(q);
    }
    for (String q : anti) {
      String plan = explain(c, q);
      assertTrue(plan.contains("joinType=[right_anti]"), q + "\n" + plan);
      check(q);
    }
    // (Calcite turns a NOT EXISTS on a nullable key, or with a condition beside the key, into a
    // LEFT join and IS NULL)
    check("SELECT id, dt FROM d WHERE NOT EXISTS (SELECT * FROM f WHERE f.a = d.id AND f.dt > d.dt)");
    check("SELECT a, s, w FROM m WHERE NOT EXISTS (SELECT * FROM f WHERE f.a = m.a)");
    // a LEFT join whose left side is the smaller one builds it (RIGHT: INNER's pairs, then the
    // build rows nobody matched), as TPC-H Q13 builds customers, not their orders
    String[] right = {
        "SELECT d.id, d.name, f.k, f.x FROM d LEFT JOIN f ON f.a = d.id",
        "SELECT d.id, count(f.k), sum(f.dc) FROM d LEFT JOIN f ON f.a = d.id AND f.x > 30 GROUP BY d.id",
        "SELECT m.a, m.s, f.k FROM m LEFT JOIN f ON f.a = m.a AND f.s = m.s",
        "SELECT e.id, f.k FROM e LEFT JOIN f ON f.a = e.id"};
    for (String r : right) {
      String plan = explain(c, r);
      assertTrue(plan.contains("joinType=[right]"), r + "\n" + plan);
      check(r);
    }
    // the larger side outside still probes
    String q = "SELECT k, a FROM f WHERE EXISTS (SELECT * FROM d WHERE d.id = f.a AND d.grp = 2)";
    assertTrue(explain(c, q).contains("joinType=[semi]"), explain(c, q));
    check(q);
  }

  @Test
  void innerJoins() throws SQLException {
    check("SELECT f.k, f.a, d.name, d.grp FROM f JOIN d ON f.a = d.id");
    check("SELECT f.k, m.w, m.s FROM f JOIN m ON f.a = m.a"); // duplicate keys on both sides
    check("SELECT m.w, f.k FROM m JOIN f ON m.a = f.a WHERE f.x > 50");
    check("SELECT f.k, d.id FROM f JOIN d ON f.a = d.id AND f.s = d.s"); // composite, string
    check("SELECT f.k, m.w FROM f JOIN m ON f.s = m.s WHERE f.k < 600"); // a string key
    check("SELECT f.k, d.id FROM f JOIN d ON f.dt = d.dt WHERE f.k < 500"); // a date key
    check("SELECT f.k, d.id FROM f JOIN d ON f.dc = d.dc"); // a decimal key
    check("SELECT f.k, d.id FROM f JOIN d ON CAST(f.a AS BIGINT) = d.id + 1");
  }

  @Test
  void residualConditions() throws SQLException {
    check("SELECT f.k, m.w FROM f JOIN m ON f.a = m.a AND f.x > m.w");
    check("SELECT f.k, m.w FROM f LEFT JOIN m ON f.a = m.a AND f.x > m.w");
    check("SELECT f.k, d.name FROM f JOIN d ON f.a = d.id AND (d.grp = 2 OR f.s LIKE 'a%')");
    check("SELECT f.k FROM f WHERE EXISTS (SELECT 1 FROM m WHERE m.a = f.a AND m.w > f.x)");
    check("SELECT f.k FROM f WHERE NOT EXISTS (SELECT 1 FROM m WHERE m.a = f.a AND m.w > f.x)");
  }

  /** Joins without an equi-key whose build side is one row at most: scalar subqueries. */
  @Test
  void scalarSubqueries() throws SQLException {
    check("SELECT k, x FROM f WHERE x > (SELECT avg(x) FROM f WHERE s LIKE 'a%')");
    check("SELECT a, sum(dc) AS t FROM f GROUP BY a HAVING sum(dc) > (SELECT sum(dc) * 0.01 FROM f) ORDER BY t DESC, a");
    check("SELECT f.k, (SELECT max(w) FROM m) AS mw FROM f WHERE f.k < 300");
    check("SELECT k FROM f WHERE x > (SELECT max(w) FROM m WHERE w < 0)"); // NULL: nothing passes
    check("SELECT k FROM f WHERE x >= (SELECT min(id) FROM e)"); // an empty build side
    check("SELECT k, x FROM f WHERE NOT EXISTS (SELECT 1 FROM d WHERE grp > 100)");
  }

  /**
   * A common table expression read by two build sides (TPC-H Q15's shape: joined with a dimension
   * and compared with its own maximum) runs once, its result read by both: EXPLAIN says so and
   * the rows are Calcite's. Also when the shared part holds a join of its own, when it is empty,
   * and when only one of its uses repeats it (nothing to share).
   */
  @Test
  void sharedSubplans() throws SQLException {
    String q15 = "WITH r AS (SELECT a, sum(dc * (1 - 0.05)) AS t FROM f WHERE x > 10 GROUP BY a) "
        + "SELECT d.id, d.name, r.t FROM d, r WHERE d.id = r.a AND r.t = (SELECT max(t) FROM r) ORDER BY d.id";
    String joined = "WITH r AS (SELECT d.grp, count(*) AS n, sum(f.dc) AS t FROM f JOIN d ON f.a = d.id "
        + "WHERE f.s LIKE 'a%' GROUP BY d.grp) "
        + "SELECT m.a, r1.n, r1.t, r2.n, r2.t FROM m JOIN r r1 ON m.a = r1.grp JOIN r r2 ON m.a = r2.grp + 1 WHERE m.w > 10";
    String empty = "WITH r AS (SELECT a, count(*) AS t FROM f WHERE x > 1000 GROUP BY a) "
        + "SELECT d.id, r.t FROM d, r WHERE d.id = r.a AND r.t >= (SELECT max(t) FROM r)";
    String twiceBelowMain = "WITH r AS (SELECT a, count(*) AS n FROM m GROUP BY a) "
        + "SELECT f.k, r1.n, r2.n FROM f JOIN r r1 ON f.a = r1.a JOIN r r2 ON f.a = r2.a + 1 WHERE f.k < 800";
    for (String q : List.of(q15, joined, empty, twiceBelowMain)) {
      String plan = explain(c, q);
      assertTrue(plan.contains("shared=[1 subplan run once"), q + "\n" + plan);
      check(q);
    }
    String once = "WITH r AS (SELECT a, count(*) AS n FROM m GROUP BY a) "
        + "SELECT f.k, r.n FROM f JOIN r ON f.a = r.a WHERE f.k < 800";
    assertFalse(explain(c, once).contains("shared="), explain(c, once));
    check(once);
  }

  /**
   * A build side matching under a quarter of a probe batch (its output gathered, not aligned),
   * decimals of both sides and of a missing side by reference.
   */
  @Test
  void selectiveJoinsAndDecimals() throws SQLException {
    check("SELECT f.k, f.dc, d.dc, d.name FROM f JOIN d ON f.a = d.id WHERE d.grp = 2");
    check("SELECT f.k, f.dc, d.dc FROM f LEFT JOIN d ON f.a = d.id AND d.grp = 2");
    check("SELECT d.grp, sum(f.dc * d.dc), count(*) FROM f JOIN d ON f.a = d.id WHERE d.grp IN (1, 3) GROUP BY d.grp");
  }

  /**
   * No equi-key, a small build side: a vectorized join pairing every row (TPC-H Q7's two nations
   * under an OR). The OR also gives each side its own filter (d1.grp IN (1, 2)), pushed to the scans.
   */
  @Test
  void keylessJoinsAndOrDerivedFilters() throws SQLException {
    check("SELECT d1.id, d2.id FROM d d1, d d2 WHERE d1.id < 30 AND d2.id < 20 AND d1.grp < d2.grp");
    String q = "SELECT f.k, d1.id, d2.id FROM f JOIN d d1 ON f.a = d1.id JOIN d d2 ON f.a + 1 = d2.id "
        + "WHERE (d1.grp = 1 AND d2.grp = 2) OR (d1.grp = 2 AND d2.grp = 1)";
    check(q);
    String plan = explain(c, q);
    assertTrue(plan.matches("(?s).*VectorizedScan\\(table=\\[\\[main, d\\]\\], filter=\\[OR\\(grp = 1, grp = 2\\).*"), plan);
    check("SELECT n1.id, n2.id, count(*) FROM f, d n1, d n2, m WHERE f.a = n1.id AND m.a = n2.id AND f.k < 400 "
        + "AND ((n1.s = 'alpha1' AND n2.s = 'beta2') OR (n1.s = 'beta2' AND n2.s = 'alpha1')) GROUP BY n1.id, n2.id");
  }

  @Test
  void outerJoins() throws SQLException {
    check("SELECT f.k, d.name, d.grp FROM f LEFT JOIN d ON f.a = d.id");
    check("SELECT f.k, m.w FROM f LEFT JOIN m ON f.a = m.a");
    check("SELECT d.id, f.k FROM d LEFT JOIN f ON d.id = f.a");
    check("SELECT f.k, d.name FROM d RIGHT JOIN f ON f.a = d.id");
    check("SELECT f.k, d.name FROM f RIGHT JOIN d ON f.a = d.id");
  }

  /**
   * FULL joins: NULL keys and unmatched rows on both sides, duplicate keys, a residual, an empty
   * side, the steps above the join (aggregation, sort, a further join) fed the unmatched build rows.
   */
  @Test
  void fullJoins() throws SQLException {
    check("SELECT f.k, d.id, d.name FROM f FULL JOIN d ON f.a = d.id");
    String plan = explain(c, "SELECT f.k, d.id, d.name FROM f FULL JOIN d ON f.a = d.id");
    assertTrue(plan.contains("joinType=[full]") && !plan.contains("EnumerableHashJoin"), plan);
    check("SELECT d.id, f.k FROM d FULL JOIN f ON d.id = f.a");
    check("SELECT f.k, m.w, m.s FROM f FULL JOIN m ON f.a = m.a"); // duplicate keys on both sides
    check("SELECT f.k, m.w FROM f FULL JOIN m ON f.a = m.a AND f.x > m.w"); // a residual decides matches
    check("SELECT f.k, d.id FROM f FULL JOIN d ON f.a = d.id AND f.s = d.s"); // composite, strings
    check("SELECT f.k, e.id FROM f FULL JOIN e ON f.a = e.id"); // an empty side
    check("SELECT e.id, f.k FROM e FULL JOIN f ON f.a = e.id");
    check("SELECT d.grp, count(*), count(f.k), count(d.id), sum(f.dc) FROM f FULL JOIN d ON f.a = d.id GROUP BY d.grp");
    check("SELECT f.k, d.id FROM f FULL JOIN d ON f.a = d.id WHERE f.k IS NULL OR d.id IS NULL ORDER BY d.id, f.k");
    check("SELECT x.k, x.id, m.w FROM (SELECT f.k, d.id FROM f FULL JOIN d ON f.a = d.id WHERE f.k < 900 OR f.k IS NULL)"
        + " x JOIN m ON x.id = m.a");
  }

  /**
   * With max_bytes_in_join at 1 byte every keyed join spills (a grace hash join, partition by
   * partition): the same answers as Calcite's, and no spill file left once each query ends.
   */
  @Test
  void spilledJoinsEqualTheInMemoryOnes() throws Exception {
    String files = "SELECT value FROM system.events WHERE event = 'ExternalProcessingFilesTotal'";
    long before = Long.parseLong(JdbcTestSupport.one(c, files));
    exec(c, "SET max_bytes_in_join = 1");
    try {
      check("SELECT f.k, f.a, d.name, d.grp FROM f JOIN d ON f.a = d.id");
      check("SELECT f.k, m.w, m.s FROM f JOIN m ON f.a = m.a"); // duplicate keys on both sides
      check("SELECT f.k, d.id FROM f JOIN d ON f.a = d.id AND f.s = d.s"); // composite, string
      check("SELECT f.k, m.w FROM f LEFT JOIN m ON f.a = m.a AND f.x > m.w"); // a residual
      check("SELECT f.k, m.w, m.s FROM f FULL JOIN m ON f.a = m.a");
      check("SELECT f.k, e.id FROM f FULL JOIN e ON f.a = e.id"); // an empty side
      check("SELECT k FROM f WHERE EXISTS (SELECT 1 FROM m WHERE m.a = f.a)");
      check("SELECT k FROM f WHERE NOT EXISTS (SELECT 1 FROM m WHERE m.a = f.a)");
      check("SELECT d.grp, count(*), sum(f.dc * d.dc) FROM f JOIN d ON f.a = d.id GROUP BY d.grp");
      check("SELECT f.k, d1.id, m.w FROM f JOIN d d1 ON f.a = d1.id JOIN m ON d1.id = m.a WHERE f.k < 2000");
    } finally {
      exec(c, "SET max_bytes_in_join = 0");
    }
    long spilled = Long.parseLong(JdbcTestSupport.one(c, files)) - before;
    assertTrue(spilled >= 8 * 2 * 64, "the joins spilled, 64 partitions of both sides each: " + spilled + " files");
    try (var left = java.nio.file.Files.list(dir.resolve("tmp"))) {
      assertEquals(List.of(), left.toList(), "no spill file is left");
    }
  }

  @Test
  void semiAndAntiJoins() throws SQLException {
    check("SELECT k, a FROM f WHERE a IN (SELECT id FROM d WHERE grp = 3)");
    check("SELECT k FROM f WHERE EXISTS (SELECT 1 FROM m WHERE m.a = f.a)");
    check("SELECT k FROM f WHERE NOT EXISTS (SELECT 1 FROM m WHERE m.a = f.a)");
    check("SELECT k FROM f WHERE NOT EXISTS (SELECT 1 FROM d WHERE d.id = f.a AND d.s = f.s)");
    // NOT NULL outer keys: [NOT] EXISTS planned as a semi (anti) join directly (ExistsToJoin),
    // the sub-query's own conjuncts filtering its rows, a residual comparing both sides.
    check("SELECT id FROM d WHERE NOT EXISTS (SELECT 1 FROM f WHERE f.a = d.id AND f.x > 90)");
    check("SELECT id FROM d WHERE EXISTS (SELECT 1 FROM m WHERE m.a = d.id AND m.w > d.id)");
    check("SELECT id FROM d WHERE NOT EXISTS (SELECT 1 FROM m WHERE m.a = d.id AND m.w > d.id)");
    check("SELECT k FROM f WHERE EXISTS (SELECT 1 FROM f f2 WHERE f2.a = f.k AND f2.k <> f.k) "
        + "AND NOT EXISTS (SELECT 1 FROM f f3 WHERE f3.k = f.k + 1 AND f3.x > 50)");
  }

  /** NOT IN with NULLs on either side: SQL's three-valued rule (a NULL in the list keeps no row). */
  @Test
  void notIn() throws SQLException {
    for (String q : List.of("SELECT k FROM f WHERE a NOT IN (SELECT a FROM m WHERE w > 170)",
        "SELECT k FROM f WHERE a NOT IN (SELECT id FROM d)",
        "SELECT k FROM f WHERE a NOT IN (SELECT a FROM m WHERE a IS NOT NULL AND w > 100)")) {
      exec(c, "SET vectorized_execution = 1");
      List<String> got = JdbcTestSupport.rowsRounded(c, q);
      exec(c, "SET vectorized_execution = 0");
      List<String> want = JdbcTestSupport.rowsRounded(c, q);
      exec(c, "SET vectorized_execution = 1");
      got.sort(null);
      want.sort(null);
      assertEquals(want, got, q);
    }
  }

  /**
   * NOT IN with NOT NULL values on both sides is an ANTI join (ExistsToJoin), checked against
   * Calcite's execution of the same question asked another way (a LEFT JOIN to the distinct
   * values, keeping the rows without a match), since Calcite's own plan of the NOT IN is the
   * rewritten one too.
   */
  @Test
  void notInOnNotNullValuesIsAnAntiJoin() throws SQLException {
    String[][] cases = {
        {"SELECT k FROM f WHERE k NOT IN (SELECT id FROM d WHERE grp < 3)",
            "SELECT f.k FROM f LEFT JOIN (SELECT DISTINCT id FROM d WHERE grp < 3) x ON f.k = x.id WHERE x.id IS NULL"},
        {"SELECT grp, count(*) FROM d WHERE id NOT IN (SELECT id FROM d WHERE grp = 1) AND id > 20 GROUP BY grp",
            "SELECT d.grp, count(*) FROM d LEFT JOIN (SELECT id FROM d WHERE grp = 1) x ON d.id = x.id "
                + "WHERE x.id IS NULL AND d.id > 20 GROUP BY d.grp"},
        {"SELECT id, name FROM d WHERE id NOT IN (SELECT id FROM e)", "SELECT id, name FROM d"},
        {"SELECT id FROM d WHERE id NOT IN (SELECT k FROM f WHERE x > 50) AND id + 1 NOT IN (SELECT id FROM d WHERE grp = 2)",
            "SELECT d.id FROM d LEFT JOIN (SELECT DISTINCT k FROM f WHERE x > 50) x ON d.id = x.k "
                + "LEFT JOIN (SELECT id FROM d WHERE grp = 2) y ON d.id + 1 = y.id WHERE x.k IS NULL AND y.id IS NULL"}};
    for (String[] q : cases) {
      exec(c, "SET vectorized_execution = 1");
      String plan = explain(c, q[0]);
      assertTrue(plan.matches("(?s).*VectorizedJoin\\(joinType=\\[(right_)?anti].*"), "no vectorized anti join: " + q[0] + "\n" + plan);
      assertFalse(plan.matches("(?s).*Enumerable\\w*Join.*"), plan);
      List<String> got = JdbcTestSupport.rowsRounded(c, q[0]);
      exec(c, "SET vectorized_execution = 0");
      List<String> want = JdbcTestSupport.rowsRounded(c, q[1]);
      exec(c, "SET vectorized_execution = 1");
      got.sort(null);
      want.sort(null);
      assertFalse(want.isEmpty(), q[1]);
      assertEquals(want, got, q[0] + "\n" + plan);
    }
  }

  @Test
  void emptySides() throws SQLException {
    check("SELECT f.k, e.name FROM f JOIN e ON f.a = e.id");
    check("SELECT f.k, e.name FROM f LEFT JOIN e ON f.a = e.id");
    check("SELECT e.id, f.k FROM e LEFT JOIN f ON e.id = f.a");
    check("SELECT k FROM f WHERE NOT EXISTS (SELECT 1 FROM e WHERE e.id = f.a)");
    check("SELECT f.k, d.id FROM f JOIN d ON f.a = d.id WHERE d.grp > 100");
  }

  @Test
  void operatorsAboveJoins() throws SQLException {
    check("SELECT d.grp, count(*), sum(f.x), min(f.s), max(d.name) FROM f JOIN d ON f.a = d.id GROUP BY d.grp");
    check("SELECT d.name, sum(f.dc) AS t FROM f JOIN d ON f.a = d.id GROUP BY d.name ORDER BY t DESC, d.name LIMIT 7");
    check("SELECT f.k, d.name FROM f JOIN d ON f.a = d.id ORDER BY f.x DESC, f.k LIMIT 11");
    check("SELECT count(*) FROM f JOIN m ON f.a = m.a JOIN d ON m.a = d.id WHERE d.grp < 4");
    check("SELECT d.grp, m.s, count(*) FROM f JOIN d ON f.a = d.id JOIN m ON f.s = m.s AND m.a = d.id "
        + "GROUP BY d.grp, m.s");
    check("SELECT g.grp, g.c, d.name FROM (SELECT grp, count(*) AS c FROM d GROUP BY grp) g JOIN d ON g.grp = d.grp");
  }

  /** The sides built are the smaller ones: the dimension, whichever side of the JOIN it is written on. */
  @Test
  void smallerSideBuilt() throws SQLException {
    for (String q : List.of("SELECT f.k, d.name FROM f JOIN d ON f.a = d.id",
        "SELECT f.k, d.name FROM d JOIN f ON f.a = d.id")) {
      String plan = explain(c, q);
      int join = plan.indexOf("VectorizedJoin");
      assertTrue(join >= 0, plan);
      String below = plan.substring(join);
      assertTrue(below.indexOf("table=[[t, f]]") < below.indexOf("table=[[t, d]]")
          || below.indexOf("f]]") < below.indexOf("d]]"), "f should be probed, d built:\n" + plan);
    }
  }

  /**
   * Runtime filters (on by default) keep the answers, with the dimension filtered to a few keys
   * (an exact set), to many (a Bloom filter), to none, or read whole (a range), on integer and
   * date keys, stacked joins and IN; and the same with them off.
   */
  @Test
  void runtimeFilters() throws SQLException {
    for (String on : List.of("1", "0")) {
      exec(c, "SET enable_join_runtime_filters = " + on);
      check("SELECT f.k, d.name FROM f JOIN d ON f.a = d.id WHERE d.grp = 3");
      check("SELECT count(*), sum(f.x) FROM f JOIN d ON f.k = d.id WHERE d.id BETWEEN 20 AND 30");
      check("SELECT f.k, d.name FROM f JOIN d ON f.a = d.id AND f.dt = d.dt WHERE d.name LIKE 'name1%'");
      check("SELECT f.k FROM f WHERE f.a IN (SELECT id FROM d WHERE grp = 2)");
      check("SELECT f.k, m.w FROM f JOIN m ON f.a = m.a JOIN d ON f.k = d.id WHERE d.grp < 2 AND m.w > 50");
      check("SELECT f.k, d.name FROM f JOIN d ON f.a = d.id WHERE d.grp = 99");
      check("SELECT f.k, d.name FROM f JOIN d ON f.a = d.id");
      check("SELECT f.k, d.name FROM f LEFT JOIN d ON f.a = d.id AND d.grp = 1");
      // string keys: by hash, an exact set of a few, a Bloom filter of many
      check("SELECT f.k, m.w FROM f JOIN m ON f.s = m.s WHERE m.w < 0");
      check("SELECT f.k, d.id FROM f JOIN d ON f.s = d.s AND f.a = d.id WHERE d.grp = 1");
      check("SELECT f.k FROM f WHERE f.s IN (SELECT s FROM d WHERE grp = 2)");
      check("SELECT d.id, d2.id FROM d JOIN d d2 ON d.name = d2.name WHERE d2.id > 100");
    }
    exec(c, "SET enable_join_runtime_filters = 1");
  }

  /** A dimension of three keys makes the probe side's scan read one granule of its sort key's forty. */
  @Test
  void runtimeFilterPrunesTheProbeScan() throws SQLException {
    exec(c, "CREATE TABLE big (k BIGINT NOT NULL, v INTEGER) ORDER BY k SETTINGS index_granularity = 1000");
    exec(c, "INSERT INTO big SELECT number, MOD(number, 7) FROM TABLE(numbers(40000))");
    exec(c, "SYSTEM FLUSH TABLE big");
    exec(c, "CREATE TABLE few (id BIGINT NOT NULL) ORDER BY id");
    exec(c, "INSERT INTO few VALUES (12000), (12005), (12999)");
    exec(c, "SYSTEM FLUSH TABLE few");
    exec(c, "SET vectorized_execution = 1");
    long[] read = new long[2];
    for (int on = 0; on < 2; on++) {
      exec(c, "SET enable_join_runtime_filters = " + on);
      String q = "SELECT sum(big.v) AS s" + on + " FROM big JOIN few ON big.k = few.id";
      assertEquals(String.valueOf(12000 % 7 + 12005 % 7 + 12999 % 7), JdbcTestSupport.one(c, q));
      read[on] = Long.parseLong(JdbcTestSupport.one(c, "SELECT read_rows FROM system.query_log WHERE query = '"
          + q + "'"));
    }
    exec(c, "SET enable_join_runtime_filters = 1");
    assertTrue(read[0] >= 40_000, "without the filter the whole table is read: " + read[0]);
    assertTrue(read[1] <= 1_003, "with it one granule and the three keys: " + read[1]);
  }

  /**
   * A filter passed sideways (TPC-H Q17's shape): the keys of an INNER join's small side filter the
   * scan under a later join's build side, an aggregate grouped by the key, which then reads one
   * granule of forty too; the answers equal Calcite's.
   */
  @Test
  void runtimeFilterReachesALaterJoinsBuildSide() throws SQLException {
    exec(c, "CREATE TABLE sw (k BIGINT NOT NULL, v INTEGER) ORDER BY k SETTINGS index_granularity = 1000");
    exec(c, "INSERT INTO sw SELECT number, MOD(number, 7) FROM TABLE(numbers(40000))");
    exec(c, "SYSTEM FLUSH TABLE sw");
    exec(c, "CREATE TABLE swf (id BIGINT NOT NULL, tag VARCHAR) ORDER BY id");
    exec(c, "INSERT INTO swf VALUES (12000, 'a'), (12005, 'b'), (12999, 'a'), (30001, 'c')");
    exec(c, "SYSTEM FLUSH TABLE swf");
    String q = "SELECT sum(sw.v) FROM sw JOIN swf ON sw.k = swf.id WHERE swf.tag IN ('a', 'b') AND sw.v * 3 >"
        + " (SELECT avg(s2.v) FROM sw s2 WHERE s2.k = swf.id)";
    check(q);
    long[] read = new long[2];
    for (int on = 0; on < 2; on++) {
      exec(c, "SET enable_join_runtime_filters = " + on);
      String named = q.replace("sum(sw.v)", "sum(sw.v) AS r" + on);
      JdbcTestSupport.one(c, named);
      read[on] = Long.parseLong(JdbcTestSupport.one(c, "SELECT read_rows FROM system.query_log WHERE query = '"
          + named.replace("'", "''") + "'"));
    }
    exec(c, "SET enable_join_runtime_filters = 1");
    String plan = explain(c, q);
    assertTrue(read[0] >= 80_000, "without filters both scans read the whole table: " + read[0] + "\n" + plan);
    assertTrue(read[1] <= 4_000, "with them each reads the granules of three keys: " + read[1] + "\n" + plan);
    check("SELECT swf.id, a.s FROM swf JOIN sw ON sw.k = swf.id JOIN (SELECT k, sum(v) AS s FROM sw GROUP BY k) a"
        + " ON a.k = sw.k WHERE swf.tag = 'a'");
    check("SELECT swf.id, a.s FROM swf JOIN sw ON sw.k = swf.id LEFT JOIN (SELECT k, sum(v) AS s FROM sw GROUP BY k) a"
        + " ON a.k = swf.id");
  }
}
