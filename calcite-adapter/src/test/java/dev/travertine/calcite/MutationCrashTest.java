package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static dev.travertine.calcite.JdbcTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.io.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kills (SIGKILL) a process while its mutation worker rewrites parts; after a restart the data is
 * right at once (old parts with the mutation applied on read, or new parts — never both), the
 * mutation completes, and no stray part file is left.
 */
class MutationCrashTest {
  private static final Logger LOG = LoggerFactory.getLogger(MutationCrashTest.class);
  private static final int PARTS = 6;
  private static final int ROWS = 200_000;

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(ints = {150, 700})
  void killDuringRewriteLosesNothing(int killAfterMillis) throws Exception {
    Process p = ChildJvm.of(CrashingMutator.class).maxHeap("1g").args(dir.toString(), Integer.toString(PARTS),
        Integer.toString(ROWS)).start();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      boolean recorded = false;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("RECORDED")) {
          recorded = true;
          break;
        }
      }
      assertTrue(recorded, "child recorded its mutation");
      Thread.sleep(killAfterMillis);
    } finally {
      p.destroyForcibly();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    }
    long total = (long) PARTS * ROWS;
    long expectedSum = PARTS * (ROWS / 100L) * (100L * 101 / 2); // v = id % 100 + 1
    try (Connection c = connect(dir)) {
      exec(c, "SYSTEM STOP MERGES big");
      String rewritten = one(c, "SELECT count(*) FROM system.parts WHERE \"table\" = 'big' AND data_version > "
          + PARTS);
      LOG.info("Killed after {} ms: {} of {} parts were rewritten", killAfterMillis, rewritten, PARTS);
      assertEquals(total + ", " + expectedSum + ", " + total,
          one(c, "SELECT count(*), sum(v), sum(CASE WHEN s = 'u' THEN 1 ELSE 0 END) FROM big"));
      exec(c, "SET mutations_sync = 1");
      exec(c, "SYSTEM START MERGES big");
      update(c, "DELETE FROM big WHERE id < 0"); // waits for every mutation
      assertEquals("0", one(c, "SELECT count(*) FROM system.mutations WHERE NOT is_done"));
      assertEquals(total + ", " + expectedSum, one(c, "SELECT count(*), sum(v) FROM big"));
      long active = Long.parseLong(one(c, "SELECT count(*) FROM system.parts WHERE \"table\" = 'big'"));
      exec(c, "SYSTEM STOP MERGES big");
      try (Stream<Path> s = Files.walk(dir)) {
        long files = s.filter(f -> f.toString().endsWith(".orc")).count();
        assertTrue(files >= active && files <= active + 1, files + " files for " + active + " parts");
      }
    }
    try (Connection c = connect(dir); Stream<Path> s = Files.walk(dir)) {
      long active = Long.parseLong(one(c, "SELECT count(*) FROM system.parts WHERE \"table\" = 'big'"));
      assertEquals(active, s.filter(f -> f.toString().endsWith(".orc")).count(), "no stray part files");
    }
  }
}
