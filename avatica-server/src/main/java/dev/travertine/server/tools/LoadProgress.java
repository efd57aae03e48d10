package dev.travertine.server.tools;

import java.io.PrintStream;
import java.util.Locale;

/** A load's progress: a bar on a terminal, a line every few seconds otherwise. */
final class LoadProgress {
  private final long totalBytes;
  private final boolean terminal;
  private final PrintStream err;
  private final long start = System.nanoTime();
  private long lastPrint = System.nanoTime();
  private long bytes;

  LoadProgress(long totalBytes, boolean terminal, PrintStream err) {
    this.totalBytes = totalBytes;
    this.terminal = terminal;
    this.err = err;
  }

  void update(long rows, long bytesRead) {
    bytes = bytesRead;
    long now = System.nanoTime();
    long every = terminal ? 200_000_000L : 5_000_000_000L;
    if (now - lastPrint < every) {
      return;
    }
    lastPrint = now;
    double secs = (now - start) / 1e9;
    double frac = totalBytes == 0 ? 1 : Math.min(1, (double) bytes / totalBytes);
    double rate = rows / secs;
    double eta = frac > 0 ? secs / frac - secs : 0;
    if (terminal) {
      int width = 30;
      int filled = (int) (frac * width);
      err.printf(Locale.ROOT, "\r[%s%s] %3.0f%% %,d rows %.1f MB %,.0f rows/s ETA %.0fs ",
          "=".repeat(filled), " ".repeat(width - filled), frac * 100, rows, bytes / 1e6, rate, eta);
    } else {
      err.printf(Locale.ROOT, "%,d rows, %.1f MB (%.0f%%), %,.0f rows/s, ETA %.0fs%n", rows, bytes / 1e6,
          frac * 100, rate, eta);
    }
  }

  void done(long rows) {
    double secs = (System.nanoTime() - start) / 1e9;
    if (terminal) {
      err.print("\r");
    }
    err.printf(Locale.ROOT, "%s, %.1f MB in %.1f s (%,.0f rows/s)%n", Loader.rows(rows), totalBytes / 1e6, secs,
        rows / Math.max(secs, 1e-9));
  }
}
