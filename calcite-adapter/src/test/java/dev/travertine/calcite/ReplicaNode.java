package dev.travertine.calcite;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Properties;

/**
 * A cluster node in a process of its own, for multi-process tests: opens a database with an
 * exchange endpoint and serves other nodes' fragments until its standard input closes.
 * Arguments: data directory, exchange port, cluster secret, cluster name, the cluster's replicas.
 */
public final class ReplicaNode {
  private ReplicaNode() {}

  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    p.setProperty("exchange.port", args[1]);
    p.setProperty("cluster.secret", args[2]);
    p.setProperty("cluster." + args[3] + ".replicas", args[4]);
    try (Connection c = DriverManager.getConnection("jdbc:travertine:" + args[0], p)) {
      System.out.println("READY");
      System.out.flush();
      while (System.in.read() >= 0) {
        // until the test closes our stdin (or kills us)
      }
    } catch (IOException e) {
      // stdin gone: stop
    }
  }
}
