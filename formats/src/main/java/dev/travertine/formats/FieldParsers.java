package dev.travertine.formats;

import java.nio.charset.StandardCharsets;

/**
 * Typed values straight from the bytes of a text field, without a String in between for the
 * common cases: integers, decimal doubles (the exact fast path: at most 15 significant digits and
 * a power of ten up to 22, where one correctly rounded multiplication or division is the correctly
 * rounded result), ISO dates and timestamps. Anything else falls back to the JDK's parsers.
 * A field that is not a value of the type throws {@link BadValue}.
 */
final class FieldParsers {
  private FieldParsers() {}

  /** A field that does not parse as its column's type (no stack trace: bad rows can be many). */
  static final class BadValue extends Exception {
    static final BadValue INSTANCE = new BadValue();

    private BadValue() {
      super("bad value", null, false, false);
    }
  }

  private static final double[] POW10 = new double[23];

  static {
    double p = 1;
    for (int i = 0; i < POW10.length; i++) {
      POW10[i] = p;
      p *= 10;
    }
  }

  /** An integer in [min, max], spaces around it allowed. */
  static long parseLong(byte[] b, int s, int e, long min, long max) throws BadValue {
    while (s < e && b[s] == ' ') {
      s++;
    }
    while (e > s && b[e - 1] == ' ') {
      e--;
    }
    if (s == e) {
      throw BadValue.INSTANCE;
    }
    boolean neg = false;
    if (b[s] == '-' || b[s] == '+') {
      neg = b[s] == '-';
      if (++s == e) {
        throw BadValue.INSTANCE;
      }
    }
    // Accumulate negatively so that Long.MIN_VALUE fits.
    long v = 0;
    for (int i = s; i < e; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        throw BadValue.INSTANCE;
      }
      if (v < Long.MIN_VALUE / 10) {
        throw BadValue.INSTANCE;
      }
      v *= 10;
      if (v < Long.MIN_VALUE + d) {
        throw BadValue.INSTANCE;
      }
      v -= d;
    }
    if (!neg) {
      if (v == Long.MIN_VALUE) {
        throw BadValue.INSTANCE;
      }
      v = -v;
    }
    if (v < min || v > max) {
      throw BadValue.INSTANCE;
    }
    return v;
  }

  static double parseDouble(byte[] b, int s, int e) throws BadValue {
    while (s < e && b[s] == ' ') {
      s++;
    }
    while (e > s && b[e - 1] == ' ') {
      e--;
    }
    if (s == e) {
      throw BadValue.INSTANCE;
    }
    int i = s;
    boolean neg = false;
    if (b[i] == '-' || b[i] == '+') {
      neg = b[i] == '-';
      i++;
    }
    long m = 0;
    int significant = 0;
    int exp10 = 0;
    int digits = 0;
    boolean dot = false;
    for (; i < e; i++) {
      byte c = b[i];
      if (c >= '0' && c <= '9') {
        digits++;
        if (m != 0 || c != '0') {
          if (++significant > 15) {
            return slowDouble(b, s, e);
          }
          m = m * 10 + (c - '0');
        }
        if (dot) {
          exp10--;
        }
      } else if (c == '.' && !dot) {
        dot = true;
      } else {
        break;
      }
    }
    if (digits == 0) {
      return slowDouble(b, s, e);
    }
    if (i < e) {
      if (b[i] != 'e' && b[i] != 'E') {
        throw BadValue.INSTANCE;
      }
      int x = (int) parseLong(b, i + 1, e, -100_000, 100_000);
      if (b[i + 1] == ' ' || b[e - 1] == ' ') {
        throw BadValue.INSTANCE;
      }
      exp10 += x;
    }
    double v;
    if (m == 0) {
      v = 0;
    } else if (exp10 >= 0 && exp10 < POW10.length) {
      v = m * POW10[exp10];
    } else if (exp10 < 0 && -exp10 < POW10.length) {
      v = m / POW10[-exp10];
    } else {
      return slowDouble(b, s, e);
    }
    return neg ? -v : v;
  }

  private static double slowDouble(byte[] b, int s, int e) throws BadValue {
    String t = new String(b, s, e - s, StandardCharsets.ISO_8859_1);
    switch (t.toLowerCase(java.util.Locale.ROOT)) {
      case "inf", "+inf", "infinity", "+infinity" -> {
        return Double.POSITIVE_INFINITY;
      }
      case "-inf", "-infinity" -> {
        return Double.NEGATIVE_INFINITY;
      }
      case "nan", "+nan", "-nan" -> {
        return Double.NaN;
      }
      default -> { }
    }
    char last = t.charAt(t.length() - 1);
    if (!(last >= '0' && last <= '9') && last != '.') {
      throw BadValue.INSTANCE; // the JDK would take 1d, 1f, 0x1p3
    }
    try {
      return Double.parseDouble(t);
    } catch (NumberFormatException ex) {
      throw BadValue.INSTANCE;
    }
  }

  /** {@code YYYY-MM-DD} as days since 1970-01-01. */
  static int parseDate(byte[] b, int s, int e) throws BadValue {
    while (s < e && b[s] == ' ') {
      s++;
    }
    while (e > s && b[e - 1] == ' ') {
      e--;
    }
    if (e - s != 10 || b[s + 4] != '-' || b[s + 7] != '-') {
      throw BadValue.INSTANCE;
    }
    return (int) epochDay(digits(b, s, 4), digits(b, s + 5, 2), digits(b, s + 8, 2));
  }

  /**
   * {@code YYYY-MM-DD[( |T)HH:MM[:SS[.fraction]]]} as milliseconds since 1970-01-01 00:00 (no
   * time zone); digits past the millisecond are dropped.
   */
  static long parseTimestamp(byte[] b, int s, int e) throws BadValue {
    while (s < e && b[s] == ' ') {
      s++;
    }
    while (e > s && b[e - 1] == ' ') {
      e--;
    }
    if (e - s < 10 || b[s + 4] != '-' || b[s + 7] != '-') {
      throw BadValue.INSTANCE;
    }
    long day = epochDay(digits(b, s, 4), digits(b, s + 5, 2), digits(b, s + 8, 2));
    long ms = 0;
    int i = s + 10;
    if (i < e) {
      if ((b[i] != ' ' && b[i] != 'T') || e - i < 6 || b[i + 3] != ':') {
        throw BadValue.INSTANCE;
      }
      int h = digits(b, i + 1, 2);
      int mi = digits(b, i + 4, 2);
      int sec = 0;
      i += 6;
      if (i < e) {
        if (b[i] != ':' || e - i < 3) {
          throw BadValue.INSTANCE;
        }
        sec = digits(b, i + 1, 2);
        i += 3;
        if (i < e) {
          if (b[i] != '.' || i + 1 == e) {
            throw BadValue.INSTANCE;
          }
          int frac = 0;
          int n = 0;
          for (int k = i + 1; k < e; k++) {
            int d = b[k] - '0';
            if (d < 0 || d > 9) {
              throw BadValue.INSTANCE;
            }
            if (n < 3) {
              frac = frac * 10 + d;
              n++;
            }
          }
          while (n < 3) {
            frac *= 10;
            n++;
          }
          ms = frac;
        }
      }
      if (h > 23 || mi > 59 || sec > 59) {
        throw BadValue.INSTANCE;
      }
      ms += (h * 3600L + mi * 60L + sec) * 1000L;
    }
    return day * 86_400_000L + ms;
  }

  static boolean parseBoolean(byte[] b, int s, int e) throws BadValue {
    while (s < e && b[s] == ' ') {
      s++;
    }
    while (e > s && b[e - 1] == ' ') {
      e--;
    }
    String t = new String(b, s, e - s, StandardCharsets.ISO_8859_1).toLowerCase(java.util.Locale.ROOT);
    return switch (t) {
      case "true", "t", "1", "yes", "y" -> true;
      case "false", "f", "0", "no", "n" -> false;
      default -> throw BadValue.INSTANCE;
    };
  }

  private static int digits(byte[] b, int s, int n) throws BadValue {
    int v = 0;
    for (int i = s; i < s + n; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        throw BadValue.INSTANCE;
      }
      v = v * 10 + d;
    }
    return v;
  }

  /** Days since 1970-01-01 of a proleptic Gregorian date, checked. */
  static long epochDay(int y, int m, int d) throws BadValue {
    if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) {
      throw BadValue.INSTANCE;
    }
    long yy = m <= 2 ? y - 1 : y;
    long era = Math.floorDiv(yy, 400);
    long yoe = yy - era * 400;
    long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146_097 + doe - 719_468;
  }

  private static int daysInMonth(int y, int m) {
    return switch (m) {
      case 2 -> (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28;
      case 4, 6, 9, 11 -> 30;
      default -> 31;
    };
  }
}
