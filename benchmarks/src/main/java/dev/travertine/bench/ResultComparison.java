package dev.travertine.bench;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Compares two engines' rows of a query: in order when the query orders them, otherwise as
 * multisets; numbers by value, floating point within 1e-6 relative.
 */
final class ResultComparison {
  private static final double TOLERANCE = 1e-6;

  private ResultComparison() {}

  /** Null when the answers agree, otherwise what differs. */
  static String difference(ClickBenchQueries.Query q, List<List<Object>> a, List<List<Object>> b) {
    if (a.size() != b.size()) {
      return a.size() + " rows vs " + b.size();
    }
    if (q.rowCountOnly()) {
      return null;
    }
    List<List<Object>> x = a;
    List<List<Object>> y = b;
    if (!q.ordered()) {
      x = new ArrayList<>(a);
      y = new ArrayList<>(b);
      x.sort(ROWS);
      y.sort(ROWS);
    }
    for (int i = 0; i < x.size(); i++) {
      if (!sameRow(x.get(i), y.get(i))) {
        return "row " + (i + 1) + ": " + x.get(i) + " vs " + y.get(i);
      }
    }
    return null;
  }

  private static boolean sameRow(List<Object> r, List<Object> s) {
    if (r.size() != s.size()) {
      return false;
    }
    for (int i = 0; i < r.size(); i++) {
      if (!same(r.get(i), s.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean same(Object a, Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a instanceof Double || b instanceof Double) {
      if (!(a instanceof Number p) || !(b instanceof Number q)) {
        return false;
      }
      double u = p.doubleValue();
      double v = q.doubleValue();
      return u == v || Math.abs(u - v) <= TOLERANCE * Math.max(Math.abs(u), Math.abs(v));
    }
    if (a instanceof BigDecimal p && b instanceof BigDecimal q) {
      return p.compareTo(q) == 0;
    }
    return a.equals(b);
  }

  private static final Comparator<Object> VALUES = (a, b) -> {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    if (a instanceof BigDecimal p && b instanceof BigDecimal q) {
      return p.compareTo(q);
    }
    if (a instanceof Number p && b instanceof Number q) {
      return Double.compare(p.doubleValue(), q.doubleValue());
    }
    return a.toString().compareTo(b.toString());
  };

  private static final Comparator<List<Object>> ROWS = (r, s) -> {
    for (int i = 0; i < Math.min(r.size(), s.size()); i++) {
      int c = VALUES.compare(r.get(i), s.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(r.size(), s.size());
  };
}
