package dev.travertine.bench;

import java.sql.Connection;
import java.sql.DriverManager;

/**
 * A replica node for {@link ExchangeBench}, in a process of its own: opens a database of its own
 * with an exchange endpoint, serves other nodes' fragments and stops when its standard input
 * closes. Arguments: data directory, then the connection's settings (";k=v" pairs).
 */
public final class ExchangeNode {
  private ExchangeNode() {}

  public static void main(String[] args) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:travertine:" + args[0] + args[1])) {
      System.out.println("READY");
      System.out.flush();
      while (System.in.read() >= 0) {
        // until the benchmark closes our stdin
      }
    }
  }
}
