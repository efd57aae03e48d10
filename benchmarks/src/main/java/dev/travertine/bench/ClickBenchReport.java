package dev.travertine.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The results of a ClickBench run: a text table for the console, the same as TSV and as a
 * Markdown table for docs/benchmarks.md, and the bar chart ({@link SvgChart}). Totals are over
 * the queries both engines finished.
 */
final class ClickBenchReport {
  private static final double SLOW = 4;

  private final String context;
  private final List<QueryOutcome> outcomes;
  /** What Travertine is compared with: DuckDB, or Travertine with a setting off (the "DuckDB" columns then hold it). */
  private final String peer;

  ClickBenchReport(String context, List<QueryOutcome> outcomes) {
    this(context, outcomes, "DuckDB");
  }

  ClickBenchReport(String context, List<QueryOutcome> outcomes, String peer) {
    this.context = context;
    this.outcomes = outcomes;
    this.peer = peer;
  }

  static String header() {
    return header("duck");
  }

  /** The table's header, the peer's columns named {@code peerShort}. */
  static String header(String peerShort) {
    return String.format(Locale.ROOT, "%-5s %12s %12s %12s %12s %8s  %-8s %s", "query", "trav cold", "trav hot",
        peerShort + " cold", peerShort + " hot", "ratio", "match", "rows");
  }

  static String line(QueryOutcome o) {
    return String.format(Locale.ROOT, "%-5s %12s %12s %12s %12s %8s  %-8s %s", "Q" + o.number(),
        cold(o.travertine()), hot(o.travertine()), cold(o.duckDb()), hot(o.duckDb()), ratio(o.ratio()),
        o.match().label, o.resultRows() < 0 ? "-" : Long.toString(o.resultRows()));
  }

  /** The totals line, the summary and a line per failure and mismatch (the table's rows are printed as they come). */
  void printTotals(PrintStream out) {
    Totals t = totals();
    out.printf(Locale.ROOT, "%-5s %12s %12.1f %12s %12.1f %8s  (%d queries both finished)%n", "total", "",
        t.travertine, "", t.duckDb, ratio(t.ratio()), t.both);
    out.println(summary(t));
    notes().forEach(out::println);
    long mismatches = outcomes.stream().filter(o -> o.match() == QueryOutcome.Match.MISMATCH).count();
    if (mismatches > 0) {
      out.println("!!! " + mismatches + (mismatches == 1 ? " QUERY GAVE" : " QUERIES GAVE")
          + " DIFFERENT ANSWERS ON THE TWO ENGINES !!!");
    }
  }

  /** Prints the totals, writes {@code base}.tsv, .md and .svg (the chart titled {@code chartTitle}) into {@code dir}. */
  void finish(Path dir, String base, String chartTitle) throws IOException {
    printTotals(System.out);
    writeTsv(dir.resolve(base + ".tsv"));
    writeMarkdown(dir.resolve(base + ".md"));
    writeChart(dir.resolve(base + ".svg"), chartTitle);
    System.out.println("# wrote " + dir.toAbsolutePath().resolve(base) + ".{tsv,md,svg}");
  }

  void writeTsv(Path file) throws IOException {
    StringBuilder s = new StringBuilder("# " + context + "\n");
    s.append("query\ttravertine_cold_ms\ttravertine_hot_ms\tduckdb_cold_ms\tduckdb_hot_ms\tratio\tmatch\trows\t"
        + "travertine_error\tduckdb_error\tdetail\n");
    for (QueryOutcome o : outcomes) {
      s.append(String.join("\t", "Q" + o.number(), cold(o.travertine()), hot(o.travertine()), cold(o.duckDb()),
          hot(o.duckDb()), ratio(o.ratio()), o.match().label, Long.toString(o.resultRows()),
          clean(o.travertine().error()), clean(o.duckDb().error()), clean(o.detail()))).append('\n');
    }
    Totals t = totals();
    s.append(String.format(Locale.ROOT, "total\t\t%.1f\t\t%.1f\t%s\t%d both finished\t\t\t\t%s%n", t.travertine,
        t.duckDb, ratio(t.ratio()), t.both, summary(t)));
    Files.writeString(file, s, StandardCharsets.UTF_8);
  }

  void writeMarkdown(Path file) throws IOException {
    StringBuilder s = new StringBuilder();
    s.append(context).append(". Times in ms; hot = median of the hot runs; ratio = Travertine hot / ").append(peer)
        .append(" hot.\n\n");
    s.append("| Query | Travertine cold | Travertine hot | " + peer + " cold | " + peer + " hot | Ratio | Match | Rows |\n");
    s.append("|---|--:|--:|--:|--:|--:|---|--:|\n");
    for (QueryOutcome o : outcomes) {
      s.append(String.format(Locale.ROOT, "| Q%d | %s | %s | %s | %s | %s | %s | %s |%n", o.number(),
          cold(o.travertine()), hot(o.travertine()), cold(o.duckDb()), hot(o.duckDb()), ratio(o.ratio()),
          o.match().label, o.resultRows() < 0 ? "-" : Long.toString(o.resultRows())));
    }
    Totals t = totals();
    s.append(String.format(Locale.ROOT, "| **Total** (%d queries) | | **%.1f** | | **%.1f** | **%s** | | |%n%n", t.both,
        t.travertine, t.duckDb, ratio(t.ratio())));
    s.append(summary(t)).append("\n");
    List<String> notes = notes();
    if (!notes.isEmpty()) {
      s.append('\n');
      notes.forEach(n -> s.append("* ").append(n.replace("|", "\\|")).append('\n'));
    }
    Files.writeString(file, s, StandardCharsets.UTF_8);
  }

  void writeChart(Path file, String title) throws IOException {
    SvgChart.write(file, title, outcomes);
  }

  private record Totals(double travertine, double duckDb, int both, int slow, double geoMean) {
    double ratio() {
      return duckDb > 0 ? travertine / duckDb : Double.NaN;
    }
  }

  private Totals totals() {
    double trav = 0;
    double duck = 0;
    double logs = 0;
    int both = 0;
    int slow = 0;
    for (QueryOutcome o : outcomes) {
      if (o.bothRan()) {
        trav += o.travertine().hotMs();
        duck += o.duckDb().hotMs();
        both++;
        slow += o.ratio() > SLOW ? 1 : 0;
        logs += Math.log(Math.max(o.travertine().hotMs(), 1e-3) / Math.max(o.duckDb().hotMs(), 1e-3));
      }
    }
    return new Totals(trav, duck, both, slow, both == 0 ? Double.NaN : Math.exp(logs / both));
  }

  private String summary(Totals t) {
    long failedT = outcomes.stream().filter(o -> o.travertine().failed()).count();
    long failedD = outcomes.stream().filter(o -> o.duckDb().failed()).count();
    long mismatches = outcomes.stream().filter(o -> o.match() == QueryOutcome.Match.MISMATCH).count();
    return String.format(Locale.ROOT, "Sum of hot medians: Travertine %.1f ms, %s %.1f ms, ratio %s; "
        + "geometric mean of the per-query ratios %s; slower than %.0fx: %d of %d queries; failed: Travertine %d, "
        + "%s %d; mismatching answers: %d.", t.travertine, peer, t.duckDb, ratio(t.ratio()), ratio(t.geoMean), SLOW,
        t.slow, t.both, failedT, peer, failedD, mismatches);
  }

  /** A line per failure and per mismatch. */
  private List<String> notes() {
    List<String> out = new ArrayList<>();
    for (QueryOutcome o : outcomes) {
      if (o.travertine().failed()) {
        out.add("Q" + o.number() + " failed on Travertine: " + o.travertine().error());
      }
      if (o.duckDb().failed()) {
        out.add("Q" + o.number() + " failed on " + peer + ": " + o.duckDb().error());
      }
      if (o.match() == QueryOutcome.Match.MISMATCH) {
        out.add("Q" + o.number() + " ANSWERS DIFFER (Travertine vs " + peer + "): " + o.detail());
      }
    }
    return out;
  }

  private static String cold(QueryOutcome.Timing t) {
    return Double.isNaN(t.coldMs()) ? (t.error() != null && t.error().startsWith("timeout") ? "TIMEOUT" : "FAILED")
        : String.format(Locale.ROOT, "%.1f", t.coldMs());
  }

  private static String hot(QueryOutcome.Timing t) {
    if (t.failed()) { // a hot run failed after the cold one finished, or the cold one failed (no hot runs)
      return Double.isNaN(t.coldMs()) ? "-" : t.error().startsWith("timeout") ? "TIMEOUT" : "FAILED";
    }
    return String.format(Locale.ROOT, "%.1f", t.hotMs());
  }

  private static String ratio(double r) {
    return Double.isNaN(r) ? "-" : String.format(Locale.ROOT, "%.2f", r);
  }

  private static String clean(String s) {
    return s == null ? "" : s.replace('\t', ' ').replace('\n', ' ');
  }
}
