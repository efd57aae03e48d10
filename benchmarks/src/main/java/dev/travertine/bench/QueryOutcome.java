package dev.travertine.bench;

/**
 * What both engines did with one query: per engine its cold and median hot times, whether their
 * answers agreed, and how many rows the answer has (-1 when neither engine answered).
 */
record QueryOutcome(int number, Timing travertine, Timing duckDb, Match match, String detail, long resultRows) {
  /** One engine's times in milliseconds (NaN when it did not finish), or its error. */
  record Timing(double coldMs, double hotMs, String error) {
    boolean failed() {
      return error != null;
    }
  }

  /** How the answers compared. */
  enum Match {
    YES("yes"), ROW_COUNT("rows"), MISMATCH("MISMATCH"), NOT_COMPARED("-");

    final String label;

    Match(String label) {
      this.label = label;
    }
  }

  /** Travertine's hot median over DuckDB's, NaN unless both finished. */
  double ratio() {
    return bothRan() ? travertine.hotMs() / duckDb.hotMs() : Double.NaN;
  }

  boolean bothRan() {
    return !travertine.failed() && !duckDb.failed();
  }
}
