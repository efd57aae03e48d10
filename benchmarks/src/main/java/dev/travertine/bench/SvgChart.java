package dev.travertine.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A bar chart of the hot medians, two bars per query (Travertine, DuckDB), on a logarithmic time
 * axis, as hand-written SVG; a query an engine did not finish gets a red cross instead of a bar.
 */
final class SvgChart {
  private static final String TRAVERTINE = "#9c6b3c";
  private static final String DUCKDB = "#e0b000";
  private static final int LEFT = 78;
  private static final int RIGHT = 16;
  private static final int TOP = 60;
  private static final int PLOT_HEIGHT = 300;
  private static final int GROUP = 26;
  private static final int BAR = 10;

  private SvgChart() {}

  static void write(Path file, String title, List<QueryOutcome> outcomes) throws IOException {
    double min = Double.MAX_VALUE;
    double max = 0;
    for (QueryOutcome o : outcomes) {
      for (QueryOutcome.Timing t : List.of(o.travertine(), o.duckDb())) {
        if (!t.failed() && t.hotMs() > 0) {
          min = Math.min(min, t.hotMs());
          max = Math.max(max, t.hotMs());
        }
      }
    }
    if (max == 0) {
      min = 1;
      max = 10;
    }
    int lo = (int) Math.floor(Math.log10(min));
    int hi = Math.max(lo + 1, (int) Math.ceil(Math.log10(max)));
    int width = LEFT + RIGHT + Math.max(outcomes.size(), 8) * GROUP;
    int height = TOP + PLOT_HEIGHT + 58;
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
        + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n", width, height, width, height));
    s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" font-size=\"14\" font-weight=\"bold\">%s</text>%n",
        LEFT, escape(title)));
    for (int e = lo; e <= hi; e++) { // a grid line and a label per decade
      double y = y(Math.pow(10, e), lo, hi);
      s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
          LEFT, y, width - RIGHT, y));
      s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT - 6,
          y + 4, decade(e)));
    }
    for (int i = 0; i < outcomes.size(); i++) {
      QueryOutcome o = outcomes.get(i);
      int x = LEFT + i * GROUP + (GROUP - 2 * BAR) / 2;
      bar(s, x, o.travertine(), TRAVERTINE, lo, hi);
      bar(s, x + BAR, o.duckDb(), DUCKDB, lo, hi);
      s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\">"
          + "Q%d</text>%n", x + BAR, TOP + PLOT_HEIGHT + 14, o.number()));
    }
    s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", LEFT, TOP,
        LEFT, TOP + PLOT_HEIGHT));
    s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", LEFT,
        TOP + PLOT_HEIGHT, width - RIGHT, TOP + PLOT_HEIGHT));
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">query</text>%n",
        LEFT + (width - LEFT - RIGHT) / 2, TOP + PLOT_HEIGHT + 34));
    s.append(String.format(Locale.ROOT, "<text transform=\"translate(16 %d) rotate(-90)\" text-anchor=\"middle\">"
        + "hot median time (log scale)</text>%n", TOP + PLOT_HEIGHT / 2));
    legend(s, LEFT, 40);
    s.append("</svg>\n");
    Files.writeString(file, s, StandardCharsets.UTF_8);
  }

  private static void bar(StringBuilder s, int x, QueryOutcome.Timing t, String colour, int lo, int hi) {
    double bottom = TOP + PLOT_HEIGHT;
    if (t.failed()) {
      s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#d00\" "
          + "font-weight=\"bold\">&#215;<title>%s</title></text>%n", x + BAR / 2.0, bottom - 4, escape(t.error())));
      return;
    }
    double y = y(Math.max(t.hotMs(), Math.pow(10, lo)), lo, hi);
    s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\">"
        + "<title>%s</title></rect>%n", x, y, BAR - 1, bottom - y, colour, millis(t.hotMs())));
  }

  private static void legend(StringBuilder s, int x, int y) {
    s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
        + "<text x=\"%d\" y=\"%d\">Travertine</text>%n", x, y - 10, TRAVERTINE, x + 16, y));
    s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
        + "<text x=\"%d\" y=\"%d\">DuckDB</text>%n", x + 90, y - 10, DUCKDB, x + 106, y));
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#d00\" font-weight=\"bold\">&#215;</text>"
        + "<text x=\"%d\" y=\"%d\">failed</text>%n", x + 170, y, x + 182, y));
  }

  private static double y(double ms, int lo, int hi) {
    return TOP + PLOT_HEIGHT * (hi - Math.log10(ms)) / (hi - lo);
  }

  private static String decade(int e) {
    return e >= 3 ? (long) Math.pow(10, e - 3) + " s" : e >= 0 ? (long) Math.pow(10, e) + " ms"
        : java.math.BigDecimal.ONE.movePointLeft(-e).toPlainString() + " ms";
  }

  private static String millis(double ms) {
    return String.format(Locale.ROOT, "%.1f ms", ms);
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
