package dev.travertine.exec.expr;

import static dev.travertine.exec.expr.ExprTestSupport.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.junit.jupiter.api.Test;

class LikeTest {
  private static boolean like(String s, String pattern, String escape) {
    byte[] b = ("xx" + s).getBytes(StandardCharsets.UTF_8); // an offset into the array
    return LikePattern.compile(pattern, escape).matches(b, 2, b.length - 2);
  }

  /** The reference: SQL LIKE as a Java regex ('%' any, '_' one character but a line terminator). */
  private static boolean regex(String s, String pattern) {
    StringBuilder r = new StringBuilder();
    for (int k = 0; k < pattern.length(); ) {
      int c = pattern.codePointAt(k);
      k += Character.charCount(c);
      if (c == '%') {
        r.append("(?s:.*)");
      } else if (c == '_') {
        r.append('.');
      } else {
        r.append(Pattern.quote(new String(Character.toChars(c))));
      }
    }
    return Pattern.compile(r.toString()).matcher(s).matches();
  }

  @Test void fastPathsAndGeneralMatcher() {
    assertEquals(true, like("google.com", "%google%", null));
    assertEquals(false, like("googl", "%google%", null));
    assertEquals(true, like("abc", "ab%", null));
    assertEquals(true, like("abc", "%bc", null));
    assertEquals(true, like("abc", "abc", null));
    assertEquals(false, like("abcd", "abc", null));
    assertEquals(true, like("", "%", null));
    assertEquals(false, like("", "_", null));
    assertEquals(true, like("a中b", "a_b", null));
    assertEquals(true, like("😀", "_", null));
    assertEquals(false, like("😀", "__", null));
    assertEquals(true, like("xaybzc", "%a%b%c", null));
    assertEquals(false, like("xaybz", "%a%b%c", null));
    assertEquals(true, like("aXbXc", "a%b%c", null));
    assertEquals(false, like("a\nb", "a_b", null));
    assertEquals(true, like("a\nb", "a%b", null));
    assertEquals(true, like("a\\b", "a\\b", null)); // no default escape
  }

  @Test void escapes() {
    assertEquals(true, like("50%", "50!%", "!"));
    assertEquals(false, like("500", "50!%", "!"));
    assertEquals(true, like("a_c", "a!_c", "!"));
    assertEquals(false, like("abc", "a!_c", "!"));
    assertEquals(true, like("a!c", "a!!c", "!"));
    assertEquals(true, like("x%y", "%\\%%", "\\"));
    assertThrows(IllegalArgumentException.class, () -> LikePattern.compile("a!x", "!"));
    assertThrows(IllegalArgumentException.class, () -> LikePattern.compile("a!", "!"));
    assertThrows(IllegalArgumentException.class, () -> LikePattern.compile("a", "!!"));
  }

  @Test void matchesTheRegexReferenceOnRandomStrings() {
    String[] alphabet = {"a", "b", "é", "中", "😀", "%", "_", "\n"};
    String[] pieces = {"a", "b", "é", "中", "😀", "%", "_", "%%", "ab"};
    Random rnd = new Random(42);
    for (int t = 0; t < 3000; t++) {
      StringBuilder p = new StringBuilder();
      for (int k = rnd.nextInt(5); k > 0; k--) {
        p.append(pieces[rnd.nextInt(pieces.length)]);
      }
      StringBuilder s = new StringBuilder();
      for (int k = rnd.nextInt(7); k > 0; k--) {
        s.append(alphabet[rnd.nextInt(alphabet.length)]);
      }
      assertEquals(regex(s.toString(), p.toString()), like(s.toString(), p.toString(), null),
          "'" + s + "' LIKE '" + p + "'");
    }
  }

  /**
   * The substring search (eight positions at a time on the needle's first two bytes) finds the
   * first occurrence a plain search finds, on long strings of few letters (many candidates, real
   * and false), at every start and end within the array.
   */
  @Test void substringSearchMatchesAPlainSearch() {
    Random rnd = new Random(7);
    byte[] letters = {'s', 'p', 'e', 'c', 'a', (byte) 0xC3, (byte) 0xA9, 0};
    for (int t = 0; t < 4000; t++) {
      byte[] b = new byte[rnd.nextInt(80)];
      for (int i = 0; i < b.length; i++) {
        b[i] = letters[rnd.nextInt(letters.length)];
      }
      byte[] x = new byte[1 + rnd.nextInt(4)];
      for (int i = 0; i < x.length; i++) {
        x[i] = letters[rnd.nextInt(letters.length)];
      }
      int from = b.length == 0 ? 0 : rnd.nextInt(b.length + 1);
      int to = from + rnd.nextInt(b.length - from + 1);
      int want = -1;
      for (int p = from; p + x.length <= to && want < 0; p++) {
        if (java.util.Arrays.equals(b, p, p + x.length, x, 0, x.length)) {
          want = p;
        }
      }
      assertEquals(want, LikePattern.indexOf(b, from, to, x), java.util.Arrays.toString(b) + " " + from + ".." + to
          + " " + java.util.Arrays.toString(x));
    }
  }

  @Test void likeExpressionWithNullsRepeatingAndGaps() {
    ColumnVector s = vector(STR, "http://google.com", null, "yandex", "GOOGLE", "google");
    Expr like = call(Op.LIKE, BOOL, col(0, STR), lit("%google%", STR));
    assertEquals(list(true, null, false, false, true), eval(like, all(s)));
    assertEquals(List.of(0, 4), filter(like, all(s)));
    assertEquals(List.of(4), filter(like, batch(new ColumnVector[] {s}, 1, 2, 4)));
    Expr notLike = call(Op.NOT_LIKE, BOOL, col(0, STR), lit("%google%", STR));
    assertEquals(List.of(2, 3), filter(notLike, all(s)));
    ColumnVector rep = repeating(STR, "abc", 3);
    assertEquals(List.of(0, 1, 2), filter(call(Op.LIKE, BOOL, col(0, STR), lit("a_c", STR)), all(rep)));
    Expr escaped = call(Op.LIKE, BOOL, col(0, STR), lit("%!%", STR), lit("!", STR));
    assertEquals(List.of(1), filter(escaped, all(vector(STR, "100", "100%"))));
  }
}
