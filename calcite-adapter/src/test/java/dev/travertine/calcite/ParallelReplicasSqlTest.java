package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.explain;
import static dev.travertine.calcite.JdbcTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.io.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parallel replicas through SQL, with real node processes: this JVM is the initiator (it owns the
 * table, in its data directory, which the other nodes read as a shared directory) and two
 * {@link ReplicaNode} processes are the cluster's other nodes. Every query's answer with parallel
 * replicas equals the answer on this node alone and Calcite's own execution of the same SQL, on
 * randomized data with parts and insert-buffer rows; EXPLAIN shows the exchange; system.clusters
 * shows the peers; a dead node loses nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ParallelReplicasSqlTest {
  private static final String SECRET = "s3cret-of-the-cluster";
  @TempDir static Path dir;
  private Connection c;
  private final List<Process> nodes = new ArrayList<>();
  private String cluster;

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  @BeforeAll
  void start() throws Exception {
    int[] ports = {freePort(), freePort(), freePort()};
    cluster = "127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1] + ",127.0.0.1:" + ports[2];
    for (int i = 1; i < 3; i++) {
      Process p = ChildJvm.of(ReplicaNode.class).maxHeap("512m").args(dir.resolve("node" + i).toString(),
          Integer.toString(ports[i]), SECRET, "c", cluster).start();
      nodes.add(p);
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line;
      StringBuilder seen = new StringBuilder();
      while ((line = out.readLine()) != null && !line.equals("READY")) {
        seen.append(line).append('\n');
      }
      assertTrue(line != null, "node " + i + " did not start:\n" + seen);
      Thread drain = new Thread(() -> {
        try {
          while (out.readLine() != null) {
            // the node's log
          }
        } catch (java.io.IOException e) {
          // gone
        }
      });
      drain.setDaemon(true);
      drain.start();
    }
    Properties props = new Properties();
    props.setProperty("exchange.port", Integer.toString(ports[0]));
    props.setProperty("cluster.secret", SECRET);
    props.setProperty("cluster.c.replicas", cluster);
    c = DriverManager.getConnection("jdbc:travertine:" + dir.resolve("node0"), props);
    String ddl = " (k BIGINT NOT NULL, b BOOLEAN, ti TINYINT, si SMALLINT, i INTEGER, bi BIGINT, r REAL, d DOUBLE, "
        + "dc DECIMAL(10, 2), s VARCHAR, ch CHAR(3), dt DATE, ts TIMESTAMP) ORDER BY k";
    exec(c, "CREATE TABLE t" + ddl + " SETTINGS index_granularity = 1000");
    exec(c, "CREATE TABLE u (k BIGINT NOT NULL, name VARCHAR) ORDER BY k");
    Random rnd = new Random(20261202);
    int k = 0;
    for (int batch = 0; batch < 25; batch++) {
      StringBuilder sb = new StringBuilder("INSERT INTO t VALUES ");
      int n = batch == 24 ? 41 : 400;
      for (int j = 0; j < n; j++) {
        sb.append(j == 0 ? "" : ", ").append(VectorizedDifferentialTest.row(rnd, k++));
      }
      exec(c, sb.toString());
      if (batch % 3 == 2) {
        exec(c, "SYSTEM FLUSH TABLE t"); // parts of 1200 rows; the last insert stays in the buffer
      }
    }
    exec(c, "INSERT INTO u VALUES (1, 'one'), (2, 'two'), (3, 'three'), (5, 'five'), (8, 'eight')");
    exec(c, "SYSTEM FLUSH TABLE u");
  }

  @AfterAll
  void stop() throws Exception {
    if (c != null) {
      c.close();
    }
    for (Process p : nodes) {
      p.getOutputStream().close();
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  private List<String> result(String sql) throws SQLException {
    List<String> out = JdbcTestSupport.rowsRounded(c, sql);
    if (!sql.toUpperCase(Locale.ROOT).contains("ORDER BY")) {
      out.sort(null);
    }
    return out;
  }

  /** Calcite's rows, this node's vectorized rows, and the rows with parallel replicas: all equal. */
  private void check(String sql) throws SQLException {
    exec(c, "SET enable_parallel_replicas = 0");
    exec(c, "SET vectorized_execution = 0");
    List<String> reference = result(sql);
    exec(c, "SET vectorized_execution = 1");
    List<String> local = result(sql);
    assertSame(reference, local, "vectorized, this node alone: " + sql);
    exec(c, "SET enable_parallel_replicas = 1");
    exec(c, "SET cluster_for_parallel_replicas = 'c'");
    String plan = explain(c, sql);
    List<String> distributed = result(sql);
    assertSame(reference, distributed, "parallel replicas: " + sql + "\n" + plan);
    exec(c, "SET enable_parallel_replicas = 0");
  }

  /** Equal lists, or a failure that shows the first rows that differ (not every row). */
  private static void assertSame(List<String> want, List<String> got, String what) {
    if (want.equals(got)) {
      return;
    }
    List<String> missing = new ArrayList<>(want);
    missing.removeAll(got);
    List<String> extra = new ArrayList<>(got);
    extra.removeAll(want);
    throw new AssertionError(what + ": " + want.size() + " rows expected, " + got.size() + " got; missing "
        + missing.subList(0, Math.min(10, missing.size())) + ", unexpected " + extra.subList(0, Math.min(10,
        extra.size())));
  }

  @Test @Order(1)
  void explainShowsTheExchange() throws SQLException {
    exec(c, "SET enable_parallel_replicas = 1");
    exec(c, "SET cluster_for_parallel_replicas = 'c'");
    String plan = explain(c, "SELECT s, count(*) FROM t GROUP BY s");
    assertTrue(plan.contains("parallel replicas: cluster c") && plan.contains("partial aggregate states")
        && plan.contains("final aggregate"), plan);
    exec(c, "SET enable_parallel_replicas = 0");
    assertTrue(!explain(c, "SELECT s, count(*) FROM t GROUP BY s").contains("parallel replicas"));
  }

  @Test @Order(2)
  void aggregatesOfLowAndHighCardinality() throws SQLException {
    check("SELECT count(*), sum(i), avg(d), min(s), max(ts), count(DISTINCT s), count(DISTINCT bi) FROM t");
    check("SELECT ch, count(*), sum(bi), min(dc), max(dt), avg(si) FROM t GROUP BY ch");
    check("SELECT k, count(*), sum(d) FROM t GROUP BY k");
    check("SELECT s, ti, count(*), count(DISTINCT ch) FROM t GROUP BY s, ti");
    check("SELECT dc, sum(dc), count(r) FROM t WHERE k > 2000 GROUP BY dc");
  }

  @Test @Order(3)
  void filtersTopNAndRows() throws SQLException {
    check("SELECT k, i, s FROM t ORDER BY i DESC, k LIMIT 17");
    check("SELECT k, s FROM t WHERE s LIKE '%a%' AND i + si > 10");
    check("SELECT s, count(*) AS n FROM t GROUP BY s ORDER BY n DESC, s LIMIT 5");
    check("SELECT count(*) FROM t WHERE k BETWEEN 1000 AND 4500 AND d > 0");
    // Full sorts: every node sorts its share, the initiator merges the sorted blocks as runs.
    check("SELECT k, i, s, d FROM t ORDER BY i DESC, k");
    check("SELECT s, ts, k, dc FROM t WHERE MOD(k, 3) <> 0 ORDER BY s NULLS FIRST, ts DESC, k");
    check("SELECT k, r FROM t ORDER BY r, k LIMIT 70000 OFFSET 3"); // past a top-N heap's bound
  }

  @Test @Order(4)
  void aJoinOnTop() throws SQLException {
    check("SELECT u.name, count(*), sum(t.i) FROM t JOIN u ON t.ti = u.k GROUP BY u.name");
  }

  @Test @Order(5)
  void systemClustersShowsThePeers() throws SQLException {
    check("SELECT ch, count(*) FROM t GROUP BY ch");
    List<String> peers = rows(c, "SELECT replica_num, is_local, state FROM system.clusters WHERE cluster = 'c' "
        + "ORDER BY replica_num");
    assertEquals(List.of("1, true, local", "2, false, ok", "3, false, ok"), peers);
  }

  @Test @Order(6)
  void limitsHoldAcrossNodes() throws SQLException {
    exec(c, "SET enable_parallel_replicas = 1");
    exec(c, "SET cluster_for_parallel_replicas = 'c'");
    exec(c, "SET max_memory_usage = 20000");
    SQLException e = assertThrows(SQLException.class, () -> result("SELECT k, s, count(*) FROM t GROUP BY k, s"));
    assertTrue(String.valueOf(e.getMessage()).contains("max_memory_usage"), e.getMessage());
    exec(c, "SET max_memory_usage = 0");
    check("SELECT k, s, count(*) FROM t GROUP BY k, s"); // every node goes on serving
  }

  @Test @Order(6)
  void anUnknownClusterIsAClearError() throws SQLException {
    exec(c, "SET enable_parallel_replicas = 1");
    exec(c, "SET cluster_for_parallel_replicas = 'nope'");
    SQLException e = assertThrows(SQLException.class, () -> result("SELECT ch, count(*) FROM t GROUP BY ch"));
    assertTrue(String.valueOf(e.getMessage()).contains("Cluster 'nope' is not configured (known: c)"),
        e.getMessage());
    exec(c, "SET enable_parallel_replicas = 0");
  }

  /**
   * A node that does not write the table attaches it from the shared storage (ATTACH TABLE …
   * FROM system.tables.data_path) and initiates parallel-replica queries of its own: the same
   * answers as the writer alone; it refuses to change the table; it sees the writer's new parts.
   */
  @Test @Order(6)
  void aNodeThatAttachedTheTableRunsQueriesOnTheClusterToo() throws Exception {
    exec(c, "SYSTEM FLUSH TABLE t"); // rows in the writer's insert buffer are not in its storage yet
    String location = JdbcTestSupport.one(c, "SELECT data_path FROM system.tables WHERE name = 't'");
    Properties props = new Properties();
    props.setProperty("cluster.secret", SECRET);
    props.setProperty("cluster.c.replicas", cluster);
    try (Connection f = DriverManager.getConnection("jdbc:travertine:" + dir.resolve("follower"), props)) {
      exec(f, "ATTACH TABLE hits FROM '" + location + "'");
      assertEquals("true, " + location, JdbcTestSupport.one(f,
          "SELECT is_readonly, data_path FROM system.tables WHERE name = 'hits'"));
      for (String sql : List.of(
          "SELECT count(*), sum(bi), min(s), max(dt) FROM %s",
          "SELECT ch, count(*), sum(i), count(DISTINCT s) FROM %s GROUP BY ch",
          "SELECT k, s FROM %s WHERE i > 0 ORDER BY bi DESC, k LIMIT 7")) {
        exec(c, "SET enable_parallel_replicas = 0");
        exec(c, "SET vectorized_execution = 0");
        List<String> calcite = result(String.format(sql, "t"));
        exec(c, "SET vectorized_execution = 1");
        List<String> writerAlone = result(String.format(sql, "t"));
        assertSame(calcite, writerAlone, "the writer alone against Calcite's execution: " + sql);
        exec(f, "SET enable_parallel_replicas = 1");
        exec(f, "SET cluster_for_parallel_replicas = 'c'");
        String q = String.format(sql, "hits");
        assertTrue(explain(f, q).contains("parallel replicas: cluster c"), explain(f, q));
        List<String> got = JdbcTestSupport.rowsRounded(f, q);
        if (!q.contains("ORDER BY")) {
          got.sort(null);
        }
        assertSame(writerAlone, got, "initiated by the attaching node: " + q);
      }
      SQLException e = assertThrows(SQLException.class, () -> exec(f, "INSERT INTO hits (k) VALUES (-1)"));
      assertEquals("25006", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains("attached read-only"), e.getMessage());
      long before = Long.parseLong(JdbcTestSupport.one(f, "SELECT count(*) FROM hits"));
      exec(c, "INSERT INTO t (k) VALUES (-1), (-2)");
      exec(c, "SYSTEM FLUSH TABLE t");
      assertEquals(String.valueOf(before + 2), JdbcTestSupport.one(f, "SELECT count(*) FROM hits"));
      exec(f, "DROP TABLE hits");
    }
    assertEquals("2", JdbcTestSupport.one(c, "SELECT count(*) FROM t WHERE k < 0"), "the writer's table is whole");
  }

  @Test @Order(7)
  void aDeadNodeLosesNothing() throws Exception {
    Process p = nodes.get(0);
    p.destroyForcibly();
    assertTrue(p.waitFor(20, TimeUnit.SECONDS));
    check("SELECT ch, count(*), sum(bi), count(DISTINCT s) FROM t GROUP BY ch");
    List<String> peers = rows(c, "SELECT replica_num, state, errors_count > 0 FROM system.clusters "
        + "WHERE cluster = 'c' AND replica_num = 2");
    assertEquals(List.of("2, failing, true"), peers);
  }
}
