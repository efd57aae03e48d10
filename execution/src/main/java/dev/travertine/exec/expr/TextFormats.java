package dev.travertine.exec.expr;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;

/**
 * Formatting and parsing of values as Calcite's CAST to and from strings does: DOUBLE as Java's
 * {@code Double.toString} (zero as {@code 0E0}), DECIMAL without the leading zero ({@code .05}),
 * DATE {@code yyyy-MM-dd}, TIMESTAMP {@code yyyy-MM-dd HH:mm:ss} (Calcite drops the fraction),
 * BOOLEAN {@code TRUE}/{@code FALSE}. Parsing trims like Java's {@code String.trim()}.
 */
final class TextFormats {
  private TextFormats() {}

  static final long MILLIS_PER_DAY = 86_400_000L;

  static String formatDouble(double x) {
    return x == 0 ? "0E0" : Double.toString(x);
  }

  static String formatReal(double x) {
    return x == 0 ? "0E0" : Float.toString((float) x);
  }

  static String formatDecimal(BigDecimal x) {
    String s = x.toString();
    if (s.startsWith("0.")) {
      return s.substring(1);
    }
    if (s.startsWith("-0.")) {
      return "-" + s.substring(2);
    }
    return s;
  }

  static String formatDate(long days) {
    LocalDate d = LocalDate.ofEpochDay(days);
    StringBuilder sb = new StringBuilder(10);
    pad(sb, d.getYear(), 4).append('-');
    pad(sb, d.getMonthValue(), 2).append('-');
    pad(sb, d.getDayOfMonth(), 2);
    return sb.toString();
  }

  static String formatTimestamp(long millis) {
    long days = Math.floorDiv(millis, MILLIS_PER_DAY);
    long ms = Math.floorMod(millis, MILLIS_PER_DAY);
    StringBuilder sb = new StringBuilder(19).append(formatDate(days)).append(' ');
    long secs = ms / 1000;
    pad(sb, (int) (secs / 3600), 2).append(':');
    pad(sb, (int) (secs / 60 % 60), 2).append(':');
    pad(sb, (int) (secs % 60), 2);
    return sb.toString();
  }

  private static StringBuilder pad(StringBuilder sb, int v, int width) {
    String s = Integer.toString(v);
    for (int k = s.length(); k < width; k++) {
      sb.append('0');
    }
    return sb.append(s);
  }

  /** Whether the bytes are all ASCII. */
  static boolean ascii(byte[] b, int s, int l) {
    for (int k = s; k < s + l; k++) {
      if (b[k] < 0) {
        return false;
      }
    }
    return true;
  }

  static String string(byte[] b, int s, int l) {
    return new String(b, s, l, StandardCharsets.UTF_8);
  }

  /**
   * Parses a trimmed decimal integer from UTF-8 bytes without creating a String when it is plain
   * ASCII digits; otherwise defers to {@code Long.parseLong} for the exact exception.
   */
  static long parseLong(byte[] b, int s, int l, boolean trim) {
    int e = s + l;
    if (trim) {
      while (s < e && (b[s] & 0xFF) <= ' ') {
        s++;
      }
      while (e > s && (b[e - 1] & 0xFF) <= ' ') {
        e--;
      }
    }
    int p = s;
    boolean neg = false;
    if (p < e && (b[p] == '-' || b[p] == '+')) {
      neg = b[p] == '-';
      p++;
    }
    if (p == e || e - p > 18) {
      return Long.parseLong(string(b, s, e - s));
    }
    long v = 0;
    for (; p < e; p++) {
      int d = b[p] - '0';
      if (d < 0 || d > 9) {
        return Long.parseLong(string(b, s, e - s));
      }
      v = v * 10 + d;
    }
    return neg ? -v : v;
  }

  /** CAST(string AS BOOLEAN): TRUE/FALSE in any case, trimmed. */
  static boolean parseBoolean(String s) {
    String t = s.trim();
    if (t.equalsIgnoreCase("true")) {
      return true;
    }
    if (t.equalsIgnoreCase("false")) {
      return false;
    }
    throw new IllegalArgumentException("Invalid character for cast: " + t);
  }

  /** CAST(string AS DATE) for {@code yyyy-m-d} (trimmed); anything else is an error. */
  static int parseDate(String s) {
    String t = s.trim();
    int[] f = fields(t, 0, t.length(), '-', 3, s, "DATE");
    return toEpochDay(f[0], f[1], f[2], s);
  }

  /** CAST(string AS TIMESTAMP) for {@code yyyy-mm-dd[ hh:mm:ss[.fff]]}, milliseconds (rounded). */
  static long parseTimestamp(String s) {
    String t = s.trim();
    int sp = t.indexOf(' ');
    if (sp < 0) {
      if (t.length() != 10) {
        throw new IllegalArgumentException("Invalid DATE value, '" + t + "'");
      }
      return parseDate(t) * MILLIS_PER_DAY;
    }
    String date = t.substring(0, sp);
    String time = t.substring(sp + 1);
    if (date.length() != 10) {
      throw new IllegalArgumentException("Invalid DATE value, '" + t + "'");
    }
    long days = parseDate(date);
    int dot = time.indexOf('.');
    String hms = dot < 0 ? time : time.substring(0, dot);
    if (hms.length() != 8) {
      throw new IllegalArgumentException("Invalid TIME value, '" + t + "'");
    }
    int[] f = fields(hms, 0, hms.length(), ':', 3, t, "TIME");
    if (f[0] > 23 || f[1] > 59 || f[2] > 59) {
      throw new IllegalArgumentException("Invalid TIME value, '" + t + "'");
    }
    long millis = 0;
    if (dot >= 0) {
      String frac = time.substring(dot + 1);
      if (frac.isEmpty() || !frac.chars().allMatch(Character::isDigit)) {
        throw new IllegalArgumentException("Invalid TIME value, '" + t + "'");
      }
      millis = new BigDecimal("0." + frac).movePointRight(3)
          .setScale(0, java.math.RoundingMode.HALF_UP).longValue();
    }
    return days * MILLIS_PER_DAY + ((f[0] * 60L + f[1]) * 60 + f[2]) * 1000 + millis;
  }

  private static int[] fields(String t, int from, int to, char sep, int count, String orig, String what) {
    int[] f = new int[count];
    int p = from;
    for (int k = 0; k < count; k++) {
      int q = k == count - 1 ? to : t.indexOf(sep, p);
      if (q < 0 || q == p) {
        throw new IllegalArgumentException("Invalid " + what + " value, '" + orig + "'");
      }
      int v = 0;
      for (int c = p; c < q; c++) {
        char ch = t.charAt(c);
        if (ch < '0' || ch > '9' || q - p > 9) {
          throw new IllegalArgumentException("Invalid " + what + " value, '" + orig + "'");
        }
        v = v * 10 + (ch - '0');
      }
      f[k] = v;
      p = q + 1;
    }
    return f;
  }

  private static int toEpochDay(int y, int m, int d, String orig) {
    if (m < 1 || m > 12) {
      throw new IllegalArgumentException("Value of MONTH field is out of range in '" + orig + "'");
    }
    if (d < 1 || d > LocalDate.of(y, m, 1).lengthOfMonth()) {
      throw new IllegalArgumentException("Value of DAY field is out of range in '" + orig + "'");
    }
    return (int) LocalDate.of(y, m, d).toEpochDay();
  }
}
