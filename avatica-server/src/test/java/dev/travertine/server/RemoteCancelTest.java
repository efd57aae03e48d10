package dev.travertine.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The remote driver's {@code Statement.cancel()} and {@code setQueryTimeout} stop the statement on
 * the server (Avatica has no cancel: the driver sends a KILL by its connection id), with and
 * without authentication.
 */
class RemoteCancelTest {
  @TempDir Path dir;

  private static final String LONG = "SELECT count(*) FROM TABLE(numbers(100000000000)) WHERE MOD(number, 7) = 3";

  private static String one(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }

  @Test
  void cancelAndTimeoutStopTheStatementOnTheServer() throws Exception {
    for (boolean auth : new boolean[] {false, true}) {
      Map<String, String> cfg = auth
          ? Map.of("port", "0", "data", dir.resolve("a").toString(), "auth.user.alice", "pw")
          : Map.of("port", "0", "data", dir.resolve("n").toString());
      try (TravertineServer server = TravertineServer.start(ServerConfig.load(null, cfg))) {
        String url = server.jdbcUrl() + (auth ? ";avatica_user=alice;avatica_password=pw" : "");
        try (Connection c = DriverManager.getConnection(url); Connection watcher = DriverManager.getConnection(url)) {
          Statement s = c.createStatement();
          CompletableFuture<SQLException> running = CompletableFuture.supplyAsync(() -> {
            try (ResultSet rs = s.executeQuery(LONG)) {
              rs.next();
              return null;
            } catch (SQLException e) {
              return e;
            }
          });
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
          while (!one(watcher, "SELECT count(*) FROM system.processes WHERE connection_id IS NOT NULL"
              + " AND query LIKE '%numbers(100000000000)%' AND elapsed > 1").equals("1")) {
            assertTrue(System.nanoTime() < deadline, "the statement runs on the server");
            Thread.sleep(50);
          }
          s.cancel();
          SQLException e = running.get(60, TimeUnit.SECONDS);
          assertTrue(e != null && e.getMessage().contains("cancelled"), String.valueOf(e));
          assertEquals("0", one(watcher, "SELECT count(*) FROM system.processes WHERE query LIKE '%numbers(1000000%'"
              + " AND query NOT LIKE '%system.processes%'"));
          assertEquals("1", one(c, "SELECT 1"), "the connection serves on");

          Statement timed = c.createStatement();
          timed.setQueryTimeout(2);
          long start = System.nanoTime();
          SQLException t = null;
          try (ResultSet rs = timed.executeQuery(LONG)) {
            rs.next();
          } catch (SQLException x) {
            t = x;
          }
          assertTrue(t != null && t.getMessage().contains("cancelled"), String.valueOf(t));
          assertTrue(System.nanoTime() - start >= TimeUnit.SECONDS.toNanos(2), "not before its timeout");

          // A prepared statement: cancel and timeout the same way.
          java.sql.PreparedStatement ps = c.prepareStatement(LONG);
          CompletableFuture<SQLException> prepared = CompletableFuture.supplyAsync(() -> {
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              return null;
            } catch (SQLException x) {
              return x;
            }
          });
          deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
          while (!one(watcher, "SELECT count(*) FROM system.processes WHERE connection_id IS NOT NULL"
              + " AND query LIKE '%numbers(100000000000)%' AND elapsed > 1").equals("1")) {
            assertTrue(System.nanoTime() < deadline, "the prepared statement runs on the server");
            Thread.sleep(50);
          }
          ps.cancel();
          e = prepared.get(60, TimeUnit.SECONDS);
          assertTrue(e != null && e.getMessage().contains("cancelled"), String.valueOf(e));
          java.sql.PreparedStatement timedPs = c.prepareStatement(LONG);
          timedPs.setQueryTimeout(2);
          start = System.nanoTime();
          t = null;
          try (ResultSet rs = timedPs.executeQuery()) {
            rs.next();
          } catch (SQLException x) {
            t = x;
          }
          assertTrue(t != null && t.getMessage().contains("cancelled"), String.valueOf(t));
          assertTrue(System.nanoTime() - start >= TimeUnit.SECONDS.toNanos(2), "not before its timeout");
          java.sql.PreparedStatement param = c.prepareStatement("SELECT CAST(? AS VARCHAR) || 'x'");
          param.setNString(1, "n");
          try (ResultSet rs = param.executeQuery()) {
            rs.next();
            assertEquals("nx", rs.getString(1), "a JDBC 4.1 setter reaches the server");
          }
        }
      }
    }
  }
}
