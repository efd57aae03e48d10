package dev.travertine.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.server.tools.DriverJar;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver jar as a GUI tool uses it: loaded alone in a fresh class loader (nothing of this
 * JVM's classpath visible), its driver classes instantiated by name, and the metadata walked the
 * way DBeaver walks it, embedded and against a server.
 */
class DriverJarTest {
  @TempDir static Path jarDir;
  @TempDir Path dir;
  private static Path jar;

  @BeforeAll static void writeTheJar() throws Exception {
    List<Path> runtime = new ArrayList<>();
    for (Path p : DriverJar.elements(System.getProperty("java.class.path"))) {
      String s = p.toString();
      if (!s.contains("junit") && !s.contains("opentest4j") && !s.contains("apiguardian") && !s.contains("surefire")
          && !s.endsWith("test-classes")) {
        runtime.add(p);
      }
    }
    jar = jarDir.resolve("travertine-jdbc.jar");
    DriverJar.Written w = DriverJar.write(runtime, jar, dev.travertine.jdbc.Version.get());
    assertTrue(w.entries() > 10_000, "a whole runtime: " + w);
  }

  private ClassLoader saved;

  /**
   * A driver class from the jar alone. As a GUI tool does while it talks to a driver, the thread's
   * context class loader is the driver's (libraries inside, ORC's and Hadoop's, look their
   * services up through it).
   */
  private Driver driver(String className) throws Exception {
    URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
    Class<?> c = Class.forName(className, true, loader);
    assertEquals(loader, c.getClassLoader(), "loaded from the jar, not from the test's classpath");
    saved = Thread.currentThread().getContextClassLoader();
    Thread.currentThread().setContextClassLoader(loader);
    return (Driver) c.getDeclaredConstructor().newInstance();
  }

  @org.junit.jupiter.api.AfterEach void restoreContextLoader() {
    if (saved != null) {
      Thread.currentThread().setContextClassLoader(saved);
    }
  }

  private static List<String> column(ResultSet rs, String... names) throws Exception {
    List<String> out = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        List<String> parts = new ArrayList<>();
        for (String n : names) {
          parts.add(String.valueOf(rs.getObject(n)));
        }
        out.add(String.join("|", parts));
      }
    }
    return out;
  }

  @Test
  void embeddedDriverServesAGuiClient() throws Exception {
    Driver d = driver("dev.travertine.jdbc.Driver");
    assertTrue(d.acceptsURL("jdbc:travertine:" + dir));
    try (Connection c = d.connect("jdbc:travertine:" + dir, new Properties())) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (k INTEGER NOT NULL, d DATE NOT NULL, price DECIMAL(12, 2), name VARCHAR)"
            + " ORDER BY (k, d)");
        s.execute("INSERT INTO t VALUES (1, DATE '2024-01-01', 9.99, 'a')");
        s.execute("CREATE VIEW v AS SELECT k, name FROM t");
      }
      DatabaseMetaData md = c.getMetaData();
      assertEquals("Travertine", md.getDatabaseProductName());
      assertEquals(dev.travertine.jdbc.Version.get(), md.getDatabaseProductVersion());
      assertEquals(List.of("SYSTEM TABLE", "TABLE", "VIEW"), column(md.getTableTypes(), "TABLE_TYPE"));
      List<String> schemas = column(md.getSchemas(), "TABLE_SCHEM");
      assertTrue(schemas.contains("main") && schemas.contains("system"), schemas.toString());
      assertFalse(schemas.contains("metadata"), "Calcite's internal schema is not shown: " + schemas);
      assertEquals(List.of("main|t|TABLE", "main|v|VIEW"),
          column(md.getTables(null, "main", "%", null), "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE"));
      assertEquals(List.of("k|4|INTEGER|10|0|0", "d|91|DATE|10|null|0", "price|3|DECIMAL|12|2|1",
              "name|12|VARCHAR|2147483647|null|1"),
          column(md.getColumns(null, "main", "t", "%"), "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE",
              "DECIMAL_DIGITS", "NULLABLE"));
      assertEquals(List.of("k|1", "d|2"), column(md.getPrimaryKeys(null, "main", "t"), "COLUMN_NAME", "KEY_SEQ"));
      column(md.getIndexInfo(null, "main", "t", false, true), "INDEX_NAME"); // answers, whatever it holds
      column(md.getImportedKeys(null, "main", "t"), "PKCOLUMN_NAME");
      assertEquals(List.of("travertine"), column(md.getCatalogs(), "TABLE_CAT"));
      assertEquals(List.of("travertine|main|t"), column(md.getTables(null, "main", "t", null), "TABLE_CAT",
          "TABLE_SCHEM", "TABLE_NAME"));
      assertEquals(List.of("travertine|main|t"), column(md.getTables("travertine", "main", "t", null), "TABLE_CAT",
          "TABLE_SCHEM", "TABLE_NAME"));
      assertTrue(column(md.getSchemas("travertine", null), "TABLE_SCHEM").contains("main"));
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT name FROM v")) {
        assertTrue(rs.next());
        assertEquals("a", rs.getString(1));
      }
    }
  }

  @Test
  void remoteDriverNamesTheProductThroughTheServer() throws Exception {
    ServerConfig config = ServerConfig.load(null, Map.of("port", "0", "data", dir.resolve("data").toString()));
    try (TravertineServer server = TravertineServer.start(config)) {
      Driver d = driver("dev.travertine.jdbc.RemoteDriver");
      try (Connection c = d.connect(server.jdbcUrl(), new Properties())) {
        DatabaseMetaData md = c.getMetaData();
        assertEquals("Travertine", md.getDatabaseProductName());
        assertEquals(dev.travertine.jdbc.Version.get(), md.getDatabaseProductVersion());
        assertTrue(md.getDriverName().contains("Travertine"), md.getDriverName());
        assertNotEquals("unknown version", md.getDriverVersion());
        try (Statement s = c.createStatement()) {
          s.execute("CREATE TABLE r (k BIGINT NOT NULL) ORDER BY k");
        }
        assertEquals(List.of("r|TABLE"), column(md.getTables(null, "main", "%", new String[] {"TABLE"}),
            "TABLE_NAME", "TABLE_TYPE"));
        assertEquals(List.of("k|BIGINT|19"), column(md.getColumns(null, "main", "r", "%"), "COLUMN_NAME",
            "TYPE_NAME", "COLUMN_SIZE"));
        assertEquals(List.of("k|1"), column(md.getPrimaryKeys(null, "main", "r"), "COLUMN_NAME", "KEY_SEQ"));
        assertEquals(List.of("travertine"), column(md.getCatalogs(), "TABLE_CAT"));
      }
    }
  }
}
