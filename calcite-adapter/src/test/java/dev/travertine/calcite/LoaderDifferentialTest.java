package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.exec;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.travertine.calcite.dml.TableLoad;
import dev.travertine.formats.BulkLoad;
import dev.travertine.formats.TextFormat;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parallel text loader against Calcite's own conversions: the same random CSV (every type,
 * NULLs, quotes, delimiters and line breaks in strings, extreme numbers) is loaded by
 * {@link BulkLoad} into one table, and into another by Calcite's CASTs of the same fields read as
 * strings ({@code INSERT … SELECT CAST(c AS …) FROM TABLE(file(…, 'c VARCHAR, …'))}); both tables
 * must hold the same rows.
 */
class LoaderDifferentialTest {
  @TempDir Path dir;

  private static final String COLUMNS = "id BIGINT NOT NULL, b BOOLEAN, t TINYINT, sm SMALLINT, i INTEGER,"
      + " bi BIGINT, d DOUBLE, dc DECIMAL(18, 4), s VARCHAR, dt DATE, ts TIMESTAMP";
  private static final String[] TYPES = {"BIGINT", "BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "DOUBLE",
      "DECIMAL(18, 4)", "VARCHAR", "DATE", "TIMESTAMP"};

  @Test void csvLoadedInParallelEqualsCalcitesCasts() throws Exception {
    for (long seed = 1; seed <= 3; seed++) {
      Random rnd = new Random(seed);
      StringBuilder csv = new StringBuilder();
      int rows = 4000;
      for (int r = 0; r < rows; r++) {
        csv.append(r);
        for (int c = 1; c < TYPES.length; c++) {
          csv.append(',');
          if (rnd.nextInt(9) == 0) {
            continue; // NULL
          }
          csv.append(value(rnd, TYPES[c]));
        }
        csv.append(rnd.nextInt(5) == 0 ? "\r\n" : "\n");
      }
      Path f = Files.createDirectories(dir.resolve("user_files")).resolve("d" + seed + ".csv");
      Files.writeString(f, csv);
      try (Connection c = DriverManager.getConnection("jdbc:travertine:" + dir)) {
        exec(c, "DROP TABLE IF EXISTS loaded");
        exec(c, "DROP TABLE IF EXISTS casted");
        exec(c, "CREATE TABLE loaded (" + COLUMNS + ") ORDER BY id");
        exec(c, "CREATE TABLE casted (" + COLUMNS + ") ORDER BY id");
        TableLoad.load(c, new TableLoad.Request("loaded", TextFormat.csv(), 0, List.of(BulkLoad.Source.file(f)), null,
            null));
        StringBuilder sel = new StringBuilder("INSERT INTO casted SELECT CAST(c0 AS BIGINT)");
        StringBuilder structure = new StringBuilder("c0 VARCHAR");
        for (int k = 1; k < TYPES.length; k++) {
          sel.append(", CAST(").append(TYPES[k].equals("BOOLEAN") ? "LOWER(TRIM(c" + k + "))" : "c" + k)
              .append(" AS ").append(TYPES[k]).append(")");
          structure.append(", c").append(k).append(" VARCHAR");
        }
        sel.append(" FROM TABLE(file('d").append(seed).append(".csv', 'CSV', '").append(structure).append("'))");
        exec(c, sel.toString());
        List<String> a = JdbcTestSupport.rows(c, "SELECT * FROM loaded ORDER BY id");
        List<String> b = JdbcTestSupport.rows(c, "SELECT * FROM casted ORDER BY id");
        assertEquals(rows, a.size());
        for (int r = 0; r < rows; r++) {
          assertEquals(b.get(r), a.get(r), "seed " + seed + ", row " + r);
        }
      }
    }
  }

  private static String value(Random rnd, String type) {
    return switch (type) {
      case "BOOLEAN" -> rnd.nextBoolean() ? "true" : "FALSE";
      case "TINYINT" -> String.valueOf(rnd.nextInt(256) - 128);
      case "SMALLINT" -> String.valueOf(rnd.nextInt(65536) - 32768);
      case "INTEGER" -> String.valueOf(rnd.nextInt());
      case "BIGINT" -> String.valueOf(rnd.nextInt(4) == 0 ? (rnd.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE)
          : rnd.nextLong());
      case "DOUBLE" -> switch (rnd.nextInt(4)) {
        case 0 -> String.valueOf(rnd.nextDouble() * Math.pow(10, rnd.nextInt(40) - 20));
        case 1 -> String.format(Locale.ROOT, "%.3f", rnd.nextGaussian() * 1000);
        case 2 -> String.valueOf(rnd.nextLong());
        default -> String.format(Locale.ROOT, "%.6e", rnd.nextGaussian());
      };
      case "DECIMAL(18, 4)" -> BigDecimal.valueOf(rnd.nextLong() % 100_000_000_000_000L, 4).toPlainString();
      case "VARCHAR" -> {
        String s = switch (rnd.nextInt(5)) {
          case 0 -> "plain" + rnd.nextInt(100);
          case 1 -> "with, comma";
          case 2 -> "quote \"q\" here";
          case 3 -> "line\nbreak";
          default -> "ünïcödé " + rnd.nextInt(10);
        };
        yield "\"" + s.replace("\"", "\"\"") + "\"";
      }
      case "DATE" -> LocalDate.ofEpochDay(rnd.nextInt(60_000) - 20_000).toString();
      case "TIMESTAMP" -> LocalDateTime.of(1950 + rnd.nextInt(100), 1 + rnd.nextInt(12), 1 + rnd.nextInt(28),
          rnd.nextInt(24), rnd.nextInt(60), rnd.nextInt(60)).plusNanos(rnd.nextInt(1000) * 1_000_000L).toString()
          .replace('T', ' ');
      default -> throw new AssertionError(type);
    };
  }
}
