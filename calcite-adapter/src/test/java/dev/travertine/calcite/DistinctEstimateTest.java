package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static dev.travertine.calcite.JdbcTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The planner's distinct counts come from the parts' sketches: a GROUP BY is estimated at the
 * groups it makes, not at the rows (a string column) or the span of the values (a sparse integer
 * column, as TPC-H's order keys are), and rows still in the insert buffer count as new values.
 */
class DistinctEstimateTest {
  @TempDir Path dir;

  /** The estimated rows of the plan's aggregate. */
  private static double groups(Connection c, String column) throws Exception {
    String plan = String.join("\n",
        rows(c, "EXPLAIN PLAN INCLUDING ALL ATTRIBUTES FOR SELECT " + column + ", count(*) FROM t GROUP BY " + column));
    Matcher m = Pattern.compile("Aggregate\\(.*rowcount = ([0-9.E]+)").matcher(plan);
    assertTrue(m.find(), plan);
    return Double.parseDouble(m.group(1));
  }

  private static void assertNear(double expected, double estimate, String what) {
    assertTrue(Math.abs(estimate - expected) <= 0.06 * expected, what + ": " + expected + " estimated as " + estimate);
  }

  @Test
  void groupsAreEstimatedFromThePartsSketches() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE t (k BIGINT NOT NULL, s VARCHAR, g INTEGER) ORDER BY k");
      // k: 20,000 values, each twice, spread over 80,000; s: 150 strings; g: 1,000 values over 7,000
      for (int from = 0; from < 40_000; from += 10_000) {
        List<String> values = new ArrayList<>();
        for (int i = from; i < from + 10_000; i++) {
          values.add("(" + 4L * (i / 2) + ", 'v" + i % 150 + "', " + i % 1000 * 7 + ")");
        }
        exec(c, "INSERT INTO t VALUES " + String.join(", ", values));
        exec(c, "SYSTEM FLUSH TABLE t");
      }
      assertNear(20_000, groups(c, "k"), "k");
      assertNear(150, groups(c, "s"), "s");
      assertNear(1_000, groups(c, "g"), "g");

      List<String> buffered = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        buffered.add("(" + (2 * i + 1) + ", 'new" + i + "', 1)");
      }
      exec(c, "INSERT INTO t VALUES " + String.join(", ", buffered)); // in the buffer: up to 100 more values
      assertEquals("40000", one(c, "SELECT sum(\"rows\") FROM system.parts WHERE \"table\" = 't'"), "the rows are buffered");
      double s = groups(c, "s");
      assertTrue(s >= 150 * 0.94 + 100 && s <= 150 * 1.06 + 100, "s with 100 buffered rows: " + s);

      // ALTER keeps the parts: estimates follow the columns, not their positions, and a column
      // added since the parts were written has no sketch (estimated at the rows)
      exec(c, "SYSTEM FLUSH TABLE t");
      assertNear(250, groups(c, "s"), "s once flushed");
      assertNear(1_000, groups(c, "g"), "g once flushed");
      exec(c, "ALTER TABLE t DROP COLUMN s");
      assertNear(1_000, groups(c, "g"), "g after DROP COLUMN s");
      exec(c, "ALTER TABLE t ADD COLUMN w INTEGER");
      exec(c, "ALTER TABLE t ADD COLUMN w2 INTEGER");
      assertNear(40_100, groups(c, "w2"), "w2, added after the parts");
      assertNear(1_000, groups(c, "g"), "g after ADD COLUMN");
    }
  }
}
