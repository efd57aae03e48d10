package dev.travertine.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.junit.jupiter.api.Test;

/**
 * Strings as dictionary ids: the same strings and NULLs as Hive's vector they were made from, in
 * every way a consumer reads them (widened whole or at a selection, row by row, through pushed
 * predicates), also after the dictionary has grown for later batches.
 */
class DictionaryVectorTest {
  private static final String[] WORDS = {"MAIL", "SHIP", "AIR", "", "REG AIR", "ünï", "TRUCK", "FOB", "MAILS"};

  /** Hive's vector of {@code values} (null: NULL), as ORC's dictionary reader gives them: references into one buffer. */
  private static BytesColumnVector strings(String[] values) {
    BytesColumnVector v = new BytesColumnVector(values.length);
    byte[] buffer = String.join("|", WORDS).getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null) {
        v.noNulls = false;
        v.isNull[i] = true;
        continue;
      }
      byte[] w = values[i].getBytes(StandardCharsets.UTF_8);
      int at = indexOf(buffer, w);
      if (at >= 0 && i % 2 == 0) {
        v.setRef(i, buffer, at, w.length); // shared buffer
      } else {
        v.setRef(i, w, 0, w.length); // a buffer of its own
      }
    }
    return v;
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static String[] random(Random rnd, int n, boolean nulls) {
    String[] s = new String[n];
    for (int i = 0; i < n; i++) {
      s[i] = nulls && rnd.nextInt(6) == 0 ? null : WORDS[rnd.nextInt(WORDS.length)];
    }
    return s;
  }

  private static String read(ColumnVector v, int row) {
    return (String) Vectors.get(v, TypeKind.VARCHAR, row);
  }

  @Test
  void aSealedDictionaryDropsItsLookupAndKeepsItsIds() {
    StringDictionary d = new StringDictionary();
    long empty = d.bytes();
    byte[] buf = "MAILSHIPAIR".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(0, d.add(buf, 0, 4));
    assertEquals(1, d.add(buf, 4, 4));
    long adding = d.bytes();
    assertTrue(adding >= empty + 16_000, "the lookup of add is counted: " + adding + " against " + empty);
    d.seal();
    assertTrue(d.bytes() <= adding - 16_000, "sealed: " + d.bytes());
    assertEquals(2, d.size());
    assertEquals(1, d.add(buf, 4, 4), "an id stays");
    assertEquals(2, d.add(buf, 8, 3), "adding after sealing still works");
  }

  @Test
  void holdsTheSameStringsAsHiveAndGrowsAcrossBatches() {
    Random rnd = new Random(5);
    StringDictionary dict = new StringDictionary();
    List<DictionaryVector> made = new ArrayList<>();
    List<String[]> values = new ArrayList<>();
    for (int batch = 0; batch < 6; batch++) {
      String[] s = random(rnd, 500, batch % 2 == 1);
      if (batch == 4) {
        for (int i = 0; i < s.length; i++) {
          s[i] = s[i] == null ? null : s[i] + "-" + i % 40; // new strings: the dictionary grows
        }
      }
      DictionaryVector d = DictionaryVector.encode(strings(s), s.length, dict, 1000);
      made.add(d);
      values.add(s);
    }
    assertTrue(dict.size() > WORDS.length && dict.size() <= WORDS.length + WORDS.length * 40, "" + dict.size());
    for (int b = 0; b < made.size(); b++) {
      DictionaryVector d = made.get(b);
      String[] s = values.get(b);
      BytesColumnVector w = d.widen();
      for (int i = 0; i < s.length; i++) {
        assertEquals(s[i], read(d, i), "batch " + b + " row " + i);
        assertEquals(s[i], read(w, i));
      }
      int[] sel = {3, 10, 11, 499};
      BytesColumnVector at = new BytesColumnVector(500);
      d.widenAt(at, sel, sel.length);
      for (int i : sel) {
        assertEquals(s[i], read(at, i));
      }
      assertEquals(Vectors.bytes(w, TypeKind.VARCHAR, s.length), Vectors.bytes(d, TypeKind.VARCHAR, s.length));
      Widener widener = new Widener();
      ColumnVector ws = widener.wide(d, sel, sel.length);
      for (int i : sel) {
        assertEquals(s[i], read(ws, i));
      }
    }
    assertThrows(UnsupportedOperationException.class, () -> made.get(0).reset());
    assertInstanceOf(BytesColumnVector.class, Vectors.wide(made.get(0)));
  }

  @Test
  void givesUpPastItsLimitAndRepeatsAsHiveDoes() {
    String[] many = new String[300];
    for (int i = 0; i < many.length; i++) {
      many[i] = "s" + i;
    }
    assertNull(DictionaryVector.encode(strings(many), many.length, new StringDictionary(), 100));
    BytesColumnVector rep = strings(new String[] {"AIR", "AIR"});
    rep.isRepeating = true;
    DictionaryVector d = DictionaryVector.encode(rep, 2, new StringDictionary(), 10);
    assertTrue(d.isRepeating);
    assertEquals("AIR", read(d, 1));
    BytesColumnVector none = strings(new String[] {null, null});
    DictionaryVector empty = DictionaryVector.encode(none, 2, new StringDictionary(), 10);
    assertEquals(0, empty.entries);
    assertEquals(0, empty.select((b, s, l) -> true, new int[] {0, 1}, 2, new int[2]));
  }

  /** Pushed comparisons, IN and OR of equalities select the same rows from both forms; NULL never passes. */
  @Test
  void pushedPredicatesSelectAlikeOnBothForms() {
    Random rnd = new Random(9);
    String[] s = random(rnd, 2000, true);
    BytesColumnVector hive = strings(s);
    DictionaryVector dict = DictionaryVector.encode(hive, s.length, new StringDictionary(), 1000);
    List<Predicate> preds = new ArrayList<>();
    for (Predicate.Op op : Predicate.Op.values()) {
      preds.add(new Predicate.Compare(0, op, "MAIL"));
      preds.add(new Predicate.Compare(0, op, ""));
    }
    preds.add(new Predicate.In(0, List.of("SHIP", "ünï", "nothing")));
    preds.add(new Predicate.Or(List.of(new Predicate.Compare(0, Predicate.Op.EQ, "MAIL"),
        new Predicate.In(0, List.of("AIR", "FOB")))));
    preds.add(new Predicate.Or(List.of(new Predicate.Compare(0, Predicate.Op.EQ, "MAIL"),
        new Predicate.Compare(0, Predicate.Op.GT, "SHIP"))));
    for (Predicate p : preds) {
      for (int[] sel : new int[][] {identity(s.length), {1, 2, 3, 500, 1999}}) {
        int[] a = sel.clone();
        int[] b = sel.clone();
        int m = p.filter(new ColumnVector[] {hive}, a, a.length);
        assertEquals(m, p.filter(new ColumnVector[] {dict}, b, b.length), p.toString());
        for (int k = 0; k < m; k++) {
          assertEquals(a[k], b[k], p.toString());
          assertTrue(s[b[k]] != null, "NULL passed " + p);
        }
      }
    }
  }

  /** Comparisons with '' (answered by the entries' lengths) on vectors of one string, or of NULL. */
  @Test
  void comparisonsWithTheEmptyStringOnRepeatingVectors() {
    for (String one : new String[] {"", "AIR", null}) {
      String[] s = new String[50];
      java.util.Arrays.fill(s, one);
      BytesColumnVector hive = strings(s);
      hive.isRepeating = true;
      DictionaryVector dict = DictionaryVector.encode(hive, s.length, new StringDictionary(), 1000);
      assertTrue(dict.isRepeating, "repeats");
      for (Predicate.Op op : Predicate.Op.values()) {
        Predicate p = new Predicate.Compare(0, op, "");
        int[] a = {3, 7, 49};
        int[] b = a.clone();
        int m = p.filter(new ColumnVector[] {hive}, a, a.length);
        assertEquals(m, p.filter(new ColumnVector[] {dict}, b, b.length), one + " " + op);
        assertEquals(one == null ? 0 : op.test(one.isEmpty() ? 0 : 1) ? 3 : 0, m, one + " " + op);
      }
    }
  }

  private static int[] identity(int n) {
    int[] sel = new int[n];
    for (int i = 0; i < n; i++) {
      sel[i] = i;
    }
    return sel;
  }
}
