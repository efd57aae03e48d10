package dev.travertine.slt;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one sqllogictest file did: queries run and passed, failures grouped by cause (with one
 * example query per cause), statements that should have failed but did not, whether a failing
 * {@code statement ok} stopped the file, the time taken and a histogram of per-query times.
 * One line of a results file ({@link #toTsv}, {@link #parseTsv}).
 */
public record FileResult(String file, int queries, int passed, int failed, int statementErrorsMissed,
    String aborted, long millis, Map<String, Integer> causes, Map<String, String> examples, long[] histogram) {

  /** Upper bounds (ms) of the per-query time buckets; the last bucket is everything slower. */
  public static final double[] BUCKETS_MS = {0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 25, 30, 40, 50,
      70, 100, 150, 200, 300, 500, 1000, Double.POSITIVE_INFINITY};

  /**
   * The share of queries passed, in percent, with three decimals or as many more (up to eight) as
   * it takes not to print 100 while some failed: 5,464,394 of 5,464,410 is "99.9997", not "100.000".
   */
  public static String passPercent(long passed, long queries) {
    if (queries == 0 || passed >= queries) {
      return "100.000";
    }
    double pct = 100.0 * passed / queries;
    String s = null;
    for (int decimals = 3; decimals <= 8; decimals++) {
      s = String.format(java.util.Locale.ROOT, "%." + decimals + "f", pct);
      if (!s.startsWith("100")) {
        return s;
      }
    }
    return s;
  }

  /** The median query time over several files' histograms (ms). */
  public static double medianMs(java.util.Collection<FileResult> results) {
    long[] sum = new long[BUCKETS_MS.length];
    for (FileResult r : results) {
      for (int i = 0; i < sum.length; i++) {
        sum[i] += r.histogram()[i];
      }
    }
    return medianMs(sum);
  }

  /** The median of a histogram of query times, interpolated within its bucket (ms). */
  public static double medianMs(long[] histogram) {
    long total = Arrays.stream(histogram).sum();
    if (total == 0) {
      return 0;
    }
    double half = total / 2.0;
    long seen = 0;
    for (int i = 0; i < histogram.length; i++) {
      if (seen + histogram[i] >= half) {
        double lo = i == 0 ? 0 : BUCKETS_MS[i - 1];
        double hi = Double.isInfinite(BUCKETS_MS[i]) ? lo : BUCKETS_MS[i];
        return lo + (hi - lo) * (half - seen) / histogram[i];
      }
      seen += histogram[i];
    }
    return BUCKETS_MS[BUCKETS_MS.length - 2];
  }

  public static final String TSV_HEADER =
      "file\tqueries\tpassed\tfailed\tstatement_errors_missed\taborted\tmillis\tquery_ms_histogram\tcauses\texample";

  public static int bucket(double ms) {
    int i = 0;
    while (ms > BUCKETS_MS[i]) {
      i++;
    }
    return i;
  }

  public String directory() {
    return directoryOf(file);
  }

  /** The group a file is reported in: select, evidence, index/between, random/aggregates… */
  public static String directoryOf(String file) {
    String[] p = file.split("/");
    if (p.length == 1) {
      return p[0].startsWith("select") ? "select" : p[0];
    }
    return p[0].equals("index") || p[0].equals("random") ? p[0] + "/" + p[1] : p[0];
  }

  public String toTsv() {
    StringBuilder c = new StringBuilder();
    String top = null;
    for (Map.Entry<String, Integer> e : causes.entrySet()) {
      if (c.length() > 0) {
        c.append(" ;; ");
      }
      c.append(e.getValue()).append(" x ").append(e.getKey());
      if (top == null) {
        top = e.getKey();
      }
    }
    StringBuilder h = new StringBuilder();
    for (int i = 0; i < histogram.length; i++) {
      h.append(i == 0 ? "" : ",").append(histogram[i]);
    }
    String example = top == null ? "" : clean(examples.getOrDefault(top, ""));
    return String.join("\t", file, Integer.toString(queries), Integer.toString(passed), Integer.toString(failed),
        Integer.toString(statementErrorsMissed), aborted == null ? "" : clean(aborted), Long.toString(millis),
        h.toString(), c.toString(), example);
  }

  public static FileResult parseTsv(String line) {
    String[] f = line.split("\t", -1);
    if (f.length < 10) {
      throw new IllegalArgumentException("Not a results line (" + f.length + " fields): " + line);
    }
    long[] hist = new long[BUCKETS_MS.length];
    if (!f[7].isEmpty()) {
      long[] read = Arrays.stream(f[7].split(",")).mapToLong(Long::parseLong).toArray();
      System.arraycopy(read, 0, hist, 0, Math.min(read.length, hist.length));
    }
    Map<String, Integer> causes = new LinkedHashMap<>();
    Map<String, String> examples = new LinkedHashMap<>();
    if (!f[8].isEmpty()) {
      for (String part : f[8].split(" ;; ")) {
        int x = part.indexOf(" x ");
        String cause = part.substring(x + 3);
        causes.put(cause, Integer.parseInt(part.substring(0, x)));
        if (examples.isEmpty() && !f[9].isEmpty()) {
          examples.put(cause, f[9]);
        }
      }
    }
    return new FileResult(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]),
        Integer.parseInt(f[4]), f[5].isEmpty() ? null : f[5], Long.parseLong(f[6]), causes, examples, hist);
  }

  /** One line, no tabs, at most 300 characters. */
  static String clean(String s) {
    String t = s.replaceAll("[\\t\\r\\n]+", " ").trim();
    return t.length() > 300 ? t.substring(0, 297) + "..." : t;
  }

  /**
   * The cause of a failure, with what varies between instances taken out (positions, numbers,
   * quoted names), so that failures group: "wrong result", "wrong number of values", or the
   * error's message.
   */
  public static String cause(String error) {
    if (error == null || error.isBlank()) {
      return "error without a message";
    }
    if (error.startsWith("Hash of data does not match") || error.startsWith("Output differs")) {
      return "wrong result";
    }
    if (error.startsWith("Expected ") && error.contains(" rows, got ")) {
      return "wrong number of values";
    }
    String s = error.lines().findFirst().orElse(error);
    // Over a server the message is wrapped: Error -1 (00000) : Error while executing SQL "…": Remote
    // driver error: RuntimeException: java.sql.SQLException: Error while executing SQL "…": the message.
    s = s.replaceFirst("^Error -?\\d+ \\(\\w+\\) : ", "");
    s = s.replaceAll("Error while executing SQL \".*?\": ", "");
    s = s.replaceAll("Remote driver error: \\w+: ", "").replaceAll("^(java\\.sql\\.)?SQLException: ", "");
    s = s.replaceFirst("^parse failed: ", "");
    s = s.replaceAll("From line \\d+, column \\d+ to line \\d+, column \\d+: ", "");
    s = s.replaceAll("(?i)at line \\d+, column \\d+", "at …");
    s = s.replaceAll("Encountered (\"[^\"]{0,20}\")[^.]*\\.", "Encountered $1.");
    s = s.replaceAll("(?<!Encountered )'[^']*'", "'…'").replaceAll("(?<!Encountered )\"[^\"]*\"", "\"…\"").replaceAll("`[^`]*`", "`…`");
    s = s.replaceAll("\\b\\d+(\\.\\d+)?\\b", "N");
    s = s.replace(";", ",").replace(" x ", " X ");
    s = clean(s);
    return s.length() > 160 ? s.substring(0, 157) + "..." : s;
  }

  /** Collects a file's outcome while it runs. */
  static final class Builder {
    final String file;
    int queries;
    int passed;
    int failed;
    int statementErrorsMissed;
    String aborted;
    final Map<String, Integer> causes = new LinkedHashMap<>();
    final Map<String, String> examples = new LinkedHashMap<>();
    final long[] histogram = new long[BUCKETS_MS.length];
    /** The first failures in full (query and message), for --verbose; not part of the result. */
    static final int DETAILS = 50;
    final List<String> details = new ArrayList<>();

    Builder(String file) {
      this.file = file;
    }

    void pass(double ms) {
      queries++;
      passed++;
      histogram[bucket(ms)]++;
    }

    void fail(String error, String sql, double ms) {
      queries++;
      failed++;
      if (ms >= 0) {
        histogram[bucket(ms)]++;
      }
      String c = cause(error);
      causes.merge(c, 1, Integer::sum);
      examples.putIfAbsent(c, sql);
      if (details.size() < DETAILS && ms >= 0) {
        details.add(sql + "\n  -> " + error.replace("\n", "\n     "));
      }
    }

    FileResult build(long millis) {
      List<Map.Entry<String, Integer>> sorted = new ArrayList<>(causes.entrySet());
      sorted.sort((a, b) -> b.getValue() - a.getValue());
      Map<String, Integer> c = new LinkedHashMap<>();
      sorted.forEach(e -> c.put(e.getKey(), e.getValue()));
      return new FileResult(file, queries, passed, failed, statementErrorsMissed, aborted, millis, c, examples,
          histogram.clone());
    }
  }

  @Override public String toString() {
    return String.format(Locale.ROOT, "%s: %d queries, %d passed, %d failed", file, queries, passed, failed);
  }
}
