package dev.travertine.exec.expr;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A compiled SQL LIKE pattern matching UTF-8 bytes: {@code %} any sequence, {@code _} one
 * character (one UTF-8 sequence) other than a line terminator (as in Calcite, whose regex
 * translation maps it to '.'), an optional escape character (none by default: a backslash is an
 * ordinary character). Patterns made of literals and
 * {@code %} only use byte searches (exact, prefix, suffix, substring, or segments in order);
 * others use a backtracking matcher over the bytes. No String per row.
 */
abstract class LikePattern {
  abstract boolean matches(byte[] b, int s, int l);

  /** Token kinds of a parsed pattern. */
  private static final int LITERAL = 0;
  private static final int ANY_ONE = 1;
  private static final int ANY_MANY = 2;

  /** Compiles a pattern; {@code escape} is null or a one-character string. */
  static LikePattern compile(String pattern, String escape) {
    if (escape != null && escape.length() != 1) {
      throw new IllegalArgumentException("Invalid escape character '" + escape + "'");
    }
    int esc = escape == null ? -1 : escape.codePointAt(0);
    // tokens: literal byte runs, '_' and '%'
    List<Object> tokens = new ArrayList<>();
    ByteArrayOutputStream lit = new ByteArrayOutputStream();
    boolean hasOne = false;
    for (int k = 0; k < pattern.length(); ) {
      int c = pattern.codePointAt(k);
      k += Character.charCount(c);
      if (c == esc) {
        if (k >= pattern.length()) {
          throw new IllegalArgumentException("Invalid escape sequence '" + pattern + "'");
        }
        int d = pattern.codePointAt(k);
        if (d != '_' && d != '%' && d != esc) {
          throw new IllegalArgumentException("Invalid escape sequence '" + pattern + "'");
        }
        k += Character.charCount(d);
        lit.writeBytes(new String(Character.toChars(d)).getBytes(StandardCharsets.UTF_8));
      } else if (c == '%' || c == '_') {
        if (lit.size() > 0) {
          tokens.add(lit.toByteArray());
          lit.reset();
        }
        if (c == '_') {
          hasOne = true;
          tokens.add(ANY_ONE);
        } else if (tokens.isEmpty() || !Integer.valueOf(ANY_MANY).equals(tokens.get(tokens.size() - 1))) {
          tokens.add(ANY_MANY);
        }
      } else {
        lit.writeBytes(new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8));
      }
    }
    if (lit.size() > 0) {
      tokens.add(lit.toByteArray());
    }
    if (hasOne) {
      return new General(tokens);
    }
    boolean lead = !tokens.isEmpty() && tokens.get(0).equals(ANY_MANY);
    boolean trail = !tokens.isEmpty() && tokens.get(tokens.size() - 1).equals(ANY_MANY);
    List<byte[]> segs = new ArrayList<>();
    for (Object t : tokens) {
      if (t instanceof byte[] b) {
        segs.add(b);
      }
    }
    if (segs.isEmpty()) {
      return lead ? new Any() : new Exact(new byte[0]);
    }
    if (segs.size() == 1) {
      byte[] x = segs.get(0);
      if (lead && trail) {
        return new Contains(x);
      }
      if (lead) {
        return new Suffix(x);
      }
      if (trail) {
        return new Prefix(x);
      }
      return new Exact(x);
    }
    return new Segments(segs, lead, trail);
  }

  static boolean regionEquals(byte[] b, int s, byte[] x) {
    return Arrays.equals(b, s, s + x.length, x, 0, x.length);
  }

  private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
      long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  /**
   * First position >= from (and <= to - x.length) where x occurs in b, or -1. Eight positions at a
   * time, a candidate is where the byte equals the needle's first and, for a needle of two bytes or
   * more, the next byte its second: a SWAR zero-byte test on {@code v ^ pattern} flags every real
   * zero and maybe a byte above one, so candidates are checked, and the lowest flag is never above
   * a real match. 's' starts many words; "sp" few.
   */
  static int indexOf(byte[] b, int from, int to, byte[] x) {
    int n = x.length;
    if (n == 0) {
      return from;
    }
    byte first = x[0];
    int last = to - n;
    long pattern = ONES * (first & 0xff);
    boolean pair = n >= 2;
    long pattern2 = pair ? ONES * (x[1] & 0xff) : 0;
    int reads = pair ? 9 : 8; // bytes a step reads from p
    int p = from;
    while (p <= last && p + reads <= to) {
      long v = (long) LONGS.get(b, p) ^ pattern;
      long t = (v - ONES) & ~v & HIGHS;
      if (pair) {
        long w = (long) LONGS.get(b, p + 1) ^ pattern2;
        t &= (w - ONES) & ~w;
      }
      if (t == 0) {
        p += 8;
        continue;
      }
      int q = p + (Long.numberOfTrailingZeros(t) >>> 3);
      if (q > last) {
        return -1;
      }
      if (Arrays.equals(b, q + 1, q + n, x, 1, n)) {
        return q;
      }
      p = q + 1;
    }
    for (; p <= last; p++) {
      if (b[p] == first && Arrays.equals(b, p + 1, p + n, x, 1, n)) {
        return p;
      }
    }
    return -1;
  }

  private static final class Any extends LikePattern {
    @Override boolean matches(byte[] b, int s, int l) {
      return true;
    }
  }

  private static final class Exact extends LikePattern {
    private final byte[] x;

    Exact(byte[] x) {
      this.x = x;
    }

    @Override boolean matches(byte[] b, int s, int l) {
      return l == x.length && regionEquals(b, s, x);
    }
  }

  private static final class Prefix extends LikePattern {
    private final byte[] x;

    Prefix(byte[] x) {
      this.x = x;
    }

    @Override boolean matches(byte[] b, int s, int l) {
      return l >= x.length && regionEquals(b, s, x);
    }
  }

  private static final class Suffix extends LikePattern {
    private final byte[] x;

    Suffix(byte[] x) {
      this.x = x;
    }

    @Override boolean matches(byte[] b, int s, int l) {
      return l >= x.length && regionEquals(b, s + l - x.length, x);
    }
  }

  private static final class Contains extends LikePattern {
    private final byte[] x;

    Contains(byte[] x) {
      this.x = x;
    }

    @Override boolean matches(byte[] b, int s, int l) {
      return indexOf(b, s, s + l, x) >= 0;
    }
  }

  /** seg0 % seg1 % ... segN, optionally open at either end: leftmost matching is exact here. */
  private static final class Segments extends LikePattern {
    private final byte[][] segs;
    private final boolean lead;
    private final boolean trail;
    private final int minLength;

    Segments(List<byte[]> segs, boolean lead, boolean trail) {
      this.segs = segs.toArray(new byte[0][]);
      this.lead = lead;
      this.trail = trail;
      int m = 0;
      for (byte[] x : this.segs) {
        m += x.length;
      }
      this.minLength = m;
    }

    @Override boolean matches(byte[] b, int s, int l) {
      if (l < minLength) {
        return false;
      }
      int p = s;
      int e = s + l;
      int first = 0;
      int last = segs.length;
      if (!lead) {
        if (!regionEquals(b, s, segs[0])) {
          return false;
        }
        p += segs[0].length;
        first = 1;
      }
      if (!trail) {
        byte[] x = segs[segs.length - 1];
        if (e - x.length < p || !regionEquals(b, e - x.length, x)) {
          return false;
        }
        e -= x.length;
        last--;
      }
      for (int k = first; k < last; k++) {
        int q = indexOf(b, p, e, segs[k]);
        if (q < 0) {
          return false;
        }
        p = q + segs[k].length;
      }
      return true;
    }
  }

  /** Any pattern: backtracking over '%' (one saved position suffices for '%' and '_'). */
  private static final class General extends LikePattern {
    private final int[] kind;
    private final byte[] lit; // literal bytes; kind LITERAL tokens are one byte each

    General(List<Object> tokens) {
      List<Integer> ks = new ArrayList<>();
      ByteArrayOutputStream bs = new ByteArrayOutputStream();
      for (Object t : tokens) {
        if (t instanceof byte[] b) {
          for (byte x : b) {
            ks.add(LITERAL);
            bs.write(x);
          }
        } else {
          ks.add((Integer) t);
          bs.write(0);
        }
      }
      kind = ks.stream().mapToInt(Integer::intValue).toArray();
      lit = bs.toByteArray();
    }

    @Override boolean matches(byte[] b, int s, int l) {
      int e = s + l;
      int p = s; // subject position
      int t = 0; // token index
      int starT = -1;
      int starP = -1;
      while (p < e) {
        if (t < kind.length && kind[t] == LITERAL && lit[t] == b[p]) {
          t++;
          p++;
        } else if (t < kind.length && kind[t] == ANY_ONE && !lineTerminator(b, p, e)) {
          t++;
          p += charBytes(b[p]);
        } else if (t < kind.length && kind[t] == ANY_MANY) {
          starT = t++;
          starP = p;
        } else if (starT >= 0) {
          t = starT + 1;
          starP += charBytes(b[starP]);
          p = starP;
        } else {
          return false;
        }
      }
      while (t < kind.length && kind[t] == ANY_MANY) {
        t++;
      }
      return t == kind.length && p == e;
    }

    private static int charBytes(byte lead) {
      int c = lead & 0xFF;
      return c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    }

    /** Line terminators, which '_' does not match (Calcite's regex '.'): \n \r U+0085 U+2028 U+2029. */
    private static boolean lineTerminator(byte[] b, int p, int e) {
      int c = b[p] & 0xFF;
      if (c == '\n' || c == '\r') {
        return true;
      }
      if (c == 0xC2) {
        return p + 1 < e && (b[p + 1] & 0xFF) == 0x85;
      }
      return c == 0xE2 && p + 2 < e && (b[p + 1] & 0xFF) == 0x80
          && ((b[p + 2] & 0xFF) == 0xA8 || (b[p + 2] & 0xFF) == 0xA9);
    }
  }
}
