package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.rows;
import static dev.travertine.calcite.JdbcTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same random sequence of inserts, UPDATEs, DELETEs, merges, flushes and merge stops applied
 * to Travertine and to an in-memory model; full table contents and update counts must agree
 * after every step.
 */
class MutationRandomizedTest {
  @TempDir Path dir;

  /** A row of the model: id NOT NULL, v and s nullable. */
  private record Row(int id, Integer v, String s) {
    String show() {
      return id + ", " + v + ", " + s;
    }
  }

  private record Cond(String sql, Predicate<Row> test) {}

  private record Assign(String sql, UnaryOperator<Row> apply) {}

  private static Cond cond(Random rnd) {
    int x = rnd.nextInt(120);
    int y = x + rnd.nextInt(40);
    int m = 2 + rnd.nextInt(5);
    int r = rnd.nextInt(m);
    String lit = "s" + rnd.nextInt(4);
    return switch (rnd.nextInt(8)) {
      case 0 -> new Cond("v < " + x, row -> row.v() != null && row.v() < x);
      case 1 -> new Cond("id BETWEEN " + x + " AND " + y, row -> row.id() >= x && row.id() <= y);
      case 2 -> new Cond("s = '" + lit + "'", row -> lit.equals(row.s()));
      case 3 -> new Cond("v IS NULL", row -> row.v() == null);
      case 4 -> new Cond("MOD(id, " + m + ") = " + r, row -> row.id() % m == r);
      case 5 -> new Cond("v + id > " + (x * 2), row -> row.v() != null && row.v() + row.id() > x * 2);
      case 6 -> new Cond("(v > " + x + " OR s IS NULL) AND id < " + y,
          row -> ((row.v() != null && row.v() > x) || row.s() == null) && row.id() < y);
      default -> new Cond("s LIKE 's" + (r % 4) + "%'", row -> row.s() != null && row.s().startsWith("s" + (r % 4)));
    };
  }

  private static Assign assign(Random rnd) {
    int k = 1 + rnd.nextInt(9);
    String lit = "s" + rnd.nextInt(4);
    return switch (rnd.nextInt(5)) {
      case 0 -> new Assign("v = v + " + k, row -> new Row(row.id(), row.v() == null ? null : row.v() + k, row.s()));
      case 1 -> new Assign("s = '" + lit + "'", row -> new Row(row.id(), row.v(), lit));
      case 2 -> new Assign("v = NULL", row -> new Row(row.id(), null, row.s()));
      case 3 -> new Assign("v = id * 2, s = '" + lit + "'", row -> new Row(row.id(), row.id() * 2, lit));
      default -> new Assign("s = CASE WHEN v > 50 THEN 'big' ELSE s END",
          row -> new Row(row.id(), row.v(), row.v() != null && row.v() > 50 ? "big" : row.s()));
    };
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void travertineAgreesWithTheModel(long seed) throws Exception {
    Random rnd = new Random(seed);
    List<Row> model = new ArrayList<>();
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE t (id INTEGER NOT NULL, v INTEGER, s VARCHAR) ORDER BY id "
          + "SETTINGS min_insert_rows_for_direct_part = 20, index_granularity = 1000");
      for (int step = 0; step < 150; step++) {
        int op = rnd.nextInt(100);
        String what;
        if (op < 35) {
          int n = rnd.nextBoolean() ? 1 + rnd.nextInt(5) : 20 + rnd.nextInt(60);
          StringBuilder sql = new StringBuilder("INSERT INTO t VALUES ");
          for (int i = 0; i < n; i++) {
            Row row = new Row(rnd.nextInt(150), rnd.nextInt(10) == 0 ? null : rnd.nextInt(100),
                rnd.nextInt(10) == 0 ? null : "s" + rnd.nextInt(4));
            model.add(row);
            sql.append(i > 0 ? ", " : "").append('(').append(row.id()).append(", ").append(row.v()).append(", ")
                .append(row.s() == null ? "NULL" : "'" + row.s() + "'").append(')');
          }
          what = sql.toString();
          exec(c, what);
        } else if (op < 60) {
          Cond cond = cond(rnd);
          long expected = model.stream().filter(cond.test()).count();
          model.removeIf(cond.test());
          what = (rnd.nextBoolean() ? "DELETE FROM t WHERE " : "ALTER TABLE t DELETE WHERE ") + cond.sql();
          assertEquals(expected, update(c, what), what);
        } else if (op < 85) {
          Cond cond = cond(rnd);
          Assign a = assign(rnd);
          long expected = model.stream().filter(cond.test()).count();
          model.replaceAll(row -> cond.test().test(row) ? a.apply().apply(row) : row);
          what = rnd.nextBoolean() ? "UPDATE t SET " + a.sql() + " WHERE " + cond.sql()
              : "ALTER TABLE t UPDATE " + a.sql() + " WHERE " + cond.sql();
          assertEquals(expected, update(c, what), what);
        } else {
          what = switch (rnd.nextInt(6)) {
            case 0 -> "OPTIMIZE TABLE t";
            case 1 -> "OPTIMIZE TABLE t FINAL";
            case 2 -> "SYSTEM STOP MERGES t";
            case 3 -> "SYSTEM START MERGES t";
            case 4 -> "SET mutations_sync = " + rnd.nextInt(2);
            default -> "SYSTEM FLUSH";
          };
          exec(c, what);
        }
        List<String> expected = model.stream()
            .sorted(Comparator.comparingInt(Row::id).thenComparing(Row::v, Comparator.nullsLast(Integer::compare))
                .thenComparing(Row::s, Comparator.nullsLast(String::compareTo)))
            .map(Row::show).toList();
        assertEquals(expected, rows(c, "SELECT id, v, s FROM t ORDER BY id, v NULLS LAST, s NULLS LAST"),
            "seed " + seed + ", step " + step + ": " + what);
        assertEquals(String.valueOf(model.size()), rows(c, "SELECT count(*) FROM t").get(0), what);
        if (!model.isEmpty()) {
          long small = model.stream().filter(r -> Objects.equals(r.s(), "s1") && r.id() < 50).count();
          assertEquals(String.valueOf(small), rows(c, "SELECT count(*) FROM t WHERE s = 's1' AND id < 50").get(0),
              what);
        }
      }
    }
  }
}
