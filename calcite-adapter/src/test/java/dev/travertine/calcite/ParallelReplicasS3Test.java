package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.io.S3ProxyFixture;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parallel replicas over S3 (S3Proxy in this JVM): two nodes with data directories of their own
 * and the same S3 credentials; the table lives on S3, and the replica reads its share of the
 * parts from there. The answers equal the initiator's alone, and the replica did read tasks.
 */
class ParallelReplicasS3Test {
  @TempDir Path dir;

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static Connection node(Path dir, int port, String cluster, Map<String, String> s3) throws Exception {
    Properties p = new Properties();
    p.putAll(s3);
    p.setProperty("exchange.port", Integer.toString(port));
    p.setProperty("cluster.secret", "s3-cluster");
    p.setProperty("cluster.pair.replicas", cluster);
    return DriverManager.getConnection("jdbc:travertine:" + dir, p);
  }

  @Test void aTableOnS3ReadByTwoNodes() throws Exception {
    try (S3ProxyFixture s3 = new S3ProxyFixture("shared")) {
      int p0 = freePort();
      int p1 = freePort();
      String cluster = "127.0.0.1:" + p0 + ",127.0.0.1:" + p1;
      try (Connection replica = node(dir.resolve("node1"), p1, cluster, s3.properties());
          Connection c = node(dir.resolve("node0"), p0, cluster, s3.properties())) {
        exec(c, "CREATE TABLE t (k BIGINT NOT NULL, g INTEGER, s VARCHAR) ORDER BY k "
            + "SETTINGS storage = 's3://shared/warehouse', index_granularity = 1000");
        exec(c, "SYSTEM STOP MERGES t");
        for (int part = 0; part < 8; part++) {
          exec(c, "INSERT INTO t SELECT number + " + part * 20000 + ", CAST(MOD(number, 97) AS INTEGER), 's' || "
              + "CAST(MOD(number * 13, 5000) AS VARCHAR) FROM TABLE(numbers(20000))");
          exec(c, "SYSTEM FLUSH TABLE t");
        }
        List<String> queries = List.of("SELECT g, count(*), sum(k), min(s) FROM t GROUP BY g",
            "SELECT s, count(*) FROM t WHERE k > 30000 GROUP BY s ORDER BY 2 DESC, 1 LIMIT 7",
            "SELECT count(DISTINCT s), max(k) FROM t WHERE g < 50");
        List<List<String>> local = new ArrayList<>();
        for (String q : queries) {
          local.add(sorted(JdbcTestSupport.rowsRounded(c, q), q));
        }
        exec(c, "SET enable_parallel_replicas = 1");
        exec(c, "SET cluster_for_parallel_replicas = 'pair'");
        long tasks0 = Long.parseLong(one(c, "SELECT coalesce(max(\"value\"), 0) FROM system.events "
            + "WHERE event = 'ParallelReplicasReadTasksOnReplicas'"));
        // Tasks go to whoever asks first: the answers must be right every time, and within a few
        // rounds the replica must have read some.
        long tasks = 0;
        for (int round = 0; round < 5 && tasks == 0; round++) {
          for (int i = 0; i < queries.size(); i++) {
            assertEquals(local.get(i), sorted(JdbcTestSupport.rowsRounded(c, queries.get(i)), queries.get(i)),
                queries.get(i));
          }
          tasks = Long.parseLong(one(c, "SELECT coalesce(max(\"value\"), 0) FROM system.events "
              + "WHERE event = 'ParallelReplicasReadTasksOnReplicas'")) - tasks0;
        }
        assertTrue(tasks > 0, "the replica read no task");
        assertEquals("ok", one(c, "SELECT state FROM system.clusters WHERE replica_num = 2"));
        // The replica's share of each query shows in its own query log, under the initiating user.
        String initiatorQueries = one(replica, "SELECT count(*) FROM system.query_log "
            + "WHERE query LIKE 'parallel replica of query % on table t' AND \"user\" = 'default' AND exception IS NULL");
        assertTrue(Long.parseLong(initiatorQueries) >= queries.size(), initiatorQueries);
      }
    }
  }

  private static List<String> sorted(List<String> rows, String q) {
    if (!q.contains("ORDER BY")) {
      rows.sort(null);
    }
    return rows;
  }
}
