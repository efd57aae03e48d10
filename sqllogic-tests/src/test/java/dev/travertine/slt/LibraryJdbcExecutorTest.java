package dev.travertine.slt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.server.ServerConfig;
import dev.travertine.server.TravertineServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.hydromatic.sqllogictest.OptionsParser;
import net.hydromatic.sqllogictest.SltTestFile;
import net.hydromatic.sqllogictest.TestStatistics;
import net.hydromatic.sqllogictest.executors.JdbcExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A generic JDBC client: the sqllogictest library's own {@code JdbcExecutor} (not ours), which
 * starts by dropping every TABLE that {@code DatabaseMetaData.getTables} lists (so it needs
 * system tables listed as SYSTEM TABLE and dropped tables gone from the list at once), runs a few
 * corpus files one after the other on one database, embedded and over a real server, with every
 * query passing. (The library prints "Statement should have failed" for every {@code statement
 * error}: it reports the statement's exception and goes on without telling the caller.)
 */
class LibraryJdbcExecutorTest {
  private static final List<String> FILES = List.of("evidence/slt_lang_update.test",
      "evidence/slt_lang_createview.test", "evidence/slt_lang_droptable.test", "evidence/slt_lang_dropview.test",
      "evidence/slt_lang_dropindex.test");

  @TempDir Path dir;

  @Test
  void embedded() throws Exception {
    runAll("jdbc:travertine:" + dir.resolve("embedded") + ";storage.fsync=false");
  }

  @Test
  void overTheServer() throws Exception {
    ServerConfig cfg = ServerConfig.load(null, Map.of("port", "0", "data", dir.resolve("server").toString(),
        "storage.fsync", "false"));
    try (TravertineServer server = TravertineServer.start(cfg)) {
      runAll(server.jdbcUrl());
    }
  }

  private static void runAll(String url) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    OptionsParser parser = new OptionsParser(false, print, print);
    OptionsParser.SuppliedOptions options = parser.getOptions();
    for (String file : FILES) {
      SltTestFile test = TravertineSltExecutor.load(file, options);
      JdbcExecutor executor = new JdbcExecutor(options, url, "", "") {};
      TestStatistics stats;
      try {
        stats = executor.execute(test, options);
      } catch (java.sql.SQLException e) {
        throw new AssertionError(file + " over " + url + ": " + e.getMessage() + "\n" + out.toString(StandardCharsets.UTF_8), e);
      }
      executor.closeConnection();
      String log = out.toString(StandardCharsets.UTF_8);
      assertEquals(0, stats.getFailedTestCount(), file + " over " + url + ":\n" + log);
      assertTrue(stats.getPassedTestCount() > 0 || file.contains("_drop"), file + ": " + log);
    }
  }
}
