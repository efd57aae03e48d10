package dev.travertine.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The 22 TPC-H queries at scale factor 0.01 give the generator's reference answers: the data
 * generated and loaded as {@code bin/travertine benchmark}'s TPC-H run does (MergeTree tables
 * sorted by primary key, merged), each answer compared row by row (in order where the query
 * orders it), numbers within a cent (the reference rounds averages to two places), strings as
 * text.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchAnswersTest {
  @TempDir static Path dir;
  private Connection c;

  @BeforeAll
  void load() throws Exception {
    Path csv = dir.resolve("csv");
    TpchData.generate(0.01, csv);
    c = DriverManager.getConnection("jdbc:travertine:" + dir.resolve("db").toAbsolutePath());
    TpchData.loadTravertine(c, csv);
    assertEquals("60175", BenchSql.one(c, "SELECT count(*) FROM lineitem"));
  }

  @AfterAll
  void close() throws Exception {
    if (c != null) {
      c.close();
    }
  }

  @ParameterizedTest(name = "Q{0}")
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22})
  void answer(int n) throws Exception {
    check(n, rows(TpchData.query(n)), "");
    // and from the decoded-column cache: the first run fills it, the second reads its compact
    // vectors (integers at their width, strings as dictionary ids), as the benchmark's hot runs do
    try (Statement s = c.createStatement()) {
      s.execute("SET use_uncompressed_cache = 1");
      try {
        check(n, rows(TpchData.query(n)), " (filling the decoded-column cache)");
        check(n, rows(TpchData.query(n)), " (from the decoded-column cache)");
      } finally {
        s.execute("SET use_uncompressed_cache = 0");
      }
    }
  }

  private static void check(int q, List<List<String>> got, String how) throws Exception {
    int n = q;
    List<List<String>> want = TpchData.referenceAnswer(n);
    if (!TpchData.ordered(n)) {
      want = sorted(want);
      got = sorted(got);
    }
    assertEquals(want.size(), got.size(), "Q" + n + how + " rows: " + got);
    for (int i = 0; i < want.size(); i++) {
      List<String> w = want.get(i);
      List<String> g = got.get(i);
      assertEquals(w.size(), g.size(), "Q" + n + how + " row " + (i + 1) + ": " + g + " vs " + w);
      for (int j = 0; j < w.size(); j++) {
        assertTrue(same(w.get(j), g.get(j)), "Q" + n + how + " row " + (i + 1) + " column " + (j + 1) + ": got " + g.get(j)
            + ", want " + w.get(j) + "\n" + g + "\n" + w);
      }
    }
  }

  private List<List<String>> rows(String sql) throws Exception {
    List<List<String>> out = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      ResultSetMetaData md = rs.getMetaData();
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          row.add(rs.getString(i));
        }
        out.add(row);
      }
    }
    return out;
  }

  private static List<List<String>> sorted(List<List<String>> rows) {
    List<List<String>> s = new ArrayList<>(rows);
    s.sort((a, b) -> String.join("|", a).compareTo(String.join("|", b)));
    return s;
  }

  /** Numbers within a cent, NULL as the reference's "null", otherwise the same text (trailing blanks aside). */
  static boolean same(String want, String got) {
    if (got == null) {
      return want.equals("null");
    }
    try {
      BigDecimal w = new BigDecimal(want);
      BigDecimal g = new BigDecimal(got);
      return w.subtract(g).abs().compareTo(new BigDecimal("0.01")) <= 0;
    } catch (NumberFormatException e) {
      return want.strip().equals(got.strip());
    }
  }
}
