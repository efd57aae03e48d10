package dev.travertine.calcite;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad cluster properties are refused when the node opens, with an error that names them. */
class NodeExchangeConfigTest {
  @TempDir Path dir;

  private String refused(Map<String, String> props) {
    Properties p = new Properties();
    p.putAll(props);
    SQLException e = assertThrows(SQLException.class,
        () -> DriverManager.getConnection("jdbc:travertine:" + dir.resolve("n" + props.hashCode()), p).close());
    return String.valueOf(e.getMessage());
  }

  @Test void badPropertiesAreNamed() {
    assertTrue(refused(Map.of("exchange.port", "seventy", "cluster.secret", "s")).contains("Invalid exchange.port"));
    assertTrue(refused(Map.of("exchange.port", "70000", "cluster.secret", "s")).contains("Invalid exchange.port"));
    assertTrue(refused(Map.of("cluster.c.replicas", "127.0.0.1:9101")).contains("needs cluster.secret"));
    assertTrue(refused(Map.of("cluster.secret", "s", "cluster.c.replicas", "127.0.0.1"))
        .contains("Invalid replica '127.0.0.1' of cluster c"));
    assertTrue(refused(Map.of("cluster.secret", "s", "cluster.c.nodes", "127.0.0.1:1"))
        .contains("Unknown cluster setting: cluster.c.nodes"));
  }

  @Test void aRefusedOpenLeavesTheDirectoryUsable() throws Exception {
    Properties bad = new Properties();
    bad.setProperty("exchange.port", "-1");
    bad.setProperty("cluster.secret", "s");
    assertThrows(SQLException.class, () -> DriverManager.getConnection("jdbc:travertine:" + dir, bad).close());
    try (var c = DriverManager.getConnection("jdbc:travertine:" + dir)) {
      JdbcTestSupport.exec(c, "CREATE TABLE t (k BIGINT) ORDER BY k");
    }
  }
}
