package dev.travertine.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The queries of {@code clickbench-queries.sql}: each starts at a {@code -- Qn} line and ends with
 * a line ending in {@code ;}; {@code -- check: rowcount} before it says only the row counts can be
 * compared; {@code {min_count}} becomes rows / 1000.
 */
final class ClickBenchQueries {
  /** A query; {@code ordered} when its rows come in an order both engines must agree on. */
  record Query(int number, String sql, boolean ordered, boolean rowCountOnly) {}

  private ClickBenchQueries() {}

  static List<Query> load(long rows) throws IOException {
    List<Query> out = new ArrayList<>();
    try (InputStream in = ClickBenchQueries.class.getResourceAsStream("/clickbench-queries.sql");
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      int number = -1;
      boolean countOnly = false;
      StringBuilder sql = new StringBuilder();
      String line;
      while ((line = r.readLine()) != null) {
        String t = line.strip();
        if (t.matches("-- Q\\d+")) {
          number = Integer.parseInt(t.substring(4));
          countOnly = false;
        } else if (t.equals("-- check: rowcount")) {
          countOnly = true;
        } else if (number >= 0 && !t.startsWith("--") && !t.isEmpty()) {
          sql.append(sql.length() > 0 ? " " : "").append(t);
          if (t.endsWith(";")) {
            String text = sql.substring(0, sql.length() - 1).replace("{min_count}",
                Long.toString(Math.max(1, rows / 1000)));
            out.add(new Query(number, text, text.toUpperCase(Locale.ROOT).contains(" ORDER BY "), countOnly));
            sql.setLength(0);
            number = -1;
          }
        }
      }
    }
    return out;
  }

  /** The query numbers a filter selects: "all", or numbers and ranges such as "0,3,20-25". */
  static Set<Integer> filter(String spec) {
    Set<Integer> out = new TreeSet<>();
    if (spec == null || spec.isBlank() || spec.equals("all")) {
      for (int i = 0; i < 100; i++) {
        out.add(i);
      }
      return out;
    }
    for (String part : spec.split(",")) {
      String p = part.strip().replaceFirst("^[Qq]", "");
      int dash = p.indexOf('-');
      int from = Integer.parseInt(dash < 0 ? p : p.substring(0, dash));
      int to = dash < 0 ? from : Integer.parseInt(p.substring(dash + 1).replaceFirst("^[Qq]", ""));
      for (int i = from; i <= to; i++) {
        out.add(i);
      }
    }
    return out;
  }
}
