package dev.travertine.exec.join;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.exec.Columns;
import dev.travertine.vector.Predicate;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.junit.jupiter.api.Test;

/**
 * A join's runtime filter never drops a key the build side holds (whatever form it takes: exact
 * set, Bloom filter, range), drops NULLs and, where it is selective, most keys it does not hold.
 */
class KeyFilterTest {

  private static LongColumnVector keys(long[] values, boolean withNull) {
    LongColumnVector v = new LongColumnVector(values.length + 1);
    System.arraycopy(values, 0, v.vector, 0, values.length);
    if (withNull) {
      v.noNulls = false;
      v.isNull[values.length] = true;
    }
    return v;
  }

  @Test
  void neverDropsABuildKeyAndDropsMostOthers() {
    Random rnd = new Random(7);
    for (int n : new int[] {1, 10, 64, 65, 1000, 50_000}) {
      long[] values = new long[n];
      Set<Long> held = new HashSet<>();
      for (int i = 0; i < n; i++) {
        values[i] = rnd.nextLong() % 10_000_000L;
        held.add(values[i]);
      }
      KeyFilter f = KeyFilter.of(keys(values, true), n + 1, false);
      assertTrue(f.selective(), f.toString());
      for (long x : values) {
        assertTrue(f.mayContain(x), f + " dropped " + x);
      }
      int others = 0;
      int passed = 0;
      for (int i = 0; i < 20_000; i++) {
        long x = rnd.nextLong() % 10_000_000L;
        if (!held.contains(x)) {
          others++;
          passed += f.mayContain(x) ? 1 : 0;
        }
      }
      assertTrue(passed < others / 20, f + " kept " + passed + " of " + others + " absent keys");
    }
  }

  @Test
  void filtersASelectionAndNulls() {
    long[] values = new long[200];
    for (int i = 0; i < values.length; i++) {
      values[i] = i * 7L;
    }
    KeyFilter f = KeyFilter.of(keys(values, false), values.length, true);
    LongColumnVector probe = new LongColumnVector(10);
    probe.noNulls = false;
    long[] in = {0, 1, 7, 14, 15, 1393, 1400, -7, 700, 700};
    System.arraycopy(in, 0, probe.vector, 0, in.length);
    probe.isNull[9] = true;
    int[] sel = Columns.identity(10);
    int m = f.filter(probe, sel, 10);
    // 0, 7, 14, 1393 and 700 are held; the Bloom filter may keep an absent one, never a NULL.
    List<Integer> kept = java.util.Arrays.stream(sel, 0, m).boxed().toList();
    assertTrue(kept.containsAll(List.of(0, 2, 3, 5, 8)), kept.toString());
    assertFalse(kept.contains(9), "a NULL key passed");
    assertFalse(kept.contains(6), "1400 is past the largest key");
    assertFalse(kept.contains(7), "-7 is below the smallest key");
  }

  @Test
  void formsAndScanPredicates() {
    KeyFilter empty = KeyFilter.of(keys(new long[0], true), 1, false);
    assertTrue(empty.empty());
    assertEquals(new Predicate.In(3, List.of()), empty.narrowing(3));
    assertEquals(0, empty.filter(keys(new long[] {1, 2}, false), new int[] {0, 1}, 2));

    KeyFilter few = KeyFilter.of(keys(new long[] {5, 3, 5, 9}, false), 4, false);
    assertEquals(new Predicate.In(0, List.of(3L, 5L, 9L)), few.narrowing(0));

    long[] dense = new long[1000];
    for (int i = 0; i < dense.length; i++) {
      dense[i] = 100 + i;
    }
    KeyFilter range = KeyFilter.of(keys(dense, false), dense.length, true);
    assertFalse(range.selective(), "a primary key read whole needs no more than its range");
    assertInstanceOf(Predicate.And.class, range.narrowing(1));
    assertTrue(range.mayContain(100) && range.mayContain(1099) && !range.mayContain(1100) && !range.mayContain(99));
    // The same values repeated are not known to be unique: the row count says nothing of density.
    assertTrue(KeyFilter.of(keys(dense, false), dense.length, false).selective());
  }

  @Test
  void anInstanceStopsTestingAFilterThatKeepsEverything() {
    long[] values = new long[100_000];
    for (int i = 0; i < values.length; i++) {
      values[i] = 2L * i;
    }
    KeyFilter f = KeyFilter.of(keys(values, false), values.length, false);
    KeyFilter.Instance inst = f.instance();
    LongColumnVector probe = new LongColumnVector(1000);
    int kept = 0;
    for (int b = 0; b < 200; b++) {
      for (int i = 0; i < 1000; i++) {
        probe.vector[i] = 2L * (b * 1000 + i) % 200_000; // every key held
      }
      kept += inst.filter(probe, Columns.identity(1000), 1000);
    }
    assertEquals(200_000, kept);
    // Judged useless: an absent key now passes too (the join itself still drops it).
    probe.vector[0] = -1;
    assertFalse(f.mayContain(-1));
    assertEquals(1, inst.filter(probe, new int[] {0}, 1));
  }

  /**
   * Keys that fill a small share of a range small beside their count get a bitmap over the range:
   * exact (not one absent key passes), and alike on a wide vector and on the same values kept at
   * their width.
   */
  @Test
  void aBitmapOverASmallRangeIsExactOnWideAndNarrowVectors() {
    Random rnd = new Random(11);
    long[] values = new long[20_000];
    Set<Long> held = new HashSet<>();
    for (int i = 0; i < values.length; i++) {
      values[i] = 5_000 + rnd.nextInt(100_000);
      held.add(values[i]);
    }
    KeyFilter f = KeyFilter.of(keys(values, true), values.length + 1, false);
    assertTrue(f.toString().contains("bitmap"), f.toString());
    int n = 110_000;
    LongColumnVector probe = new LongColumnVector(n);
    probe.noNulls = false;
    for (int i = 0; i < n; i++) {
      probe.vector[i] = i;
      probe.isNull[i] = i % 1000 == 7;
    }
    int[] sel = Columns.identity(n);
    int m = f.filter(probe, sel, n);
    int[] narrowSel = Columns.identity(n);
    var narrow = dev.travertine.vector.IntegerVector.narrow(probe, dev.travertine.vector.TypeKind.INTEGER, n);
    assertEquals(m, f.filter(narrow, narrowSel, n));
    int want = 0;
    for (int i = 0; i < n; i++) {
      want += held.contains((long) i) && i % 1000 != 7 ? 1 : 0;
    }
    assertEquals(want, m);
    for (int k = 0; k < m; k++) {
      assertTrue(held.contains((long) sel[k]), "absent key " + sel[k] + " passed");
      assertEquals(sel[k], narrowSel[k]);
    }
  }

  /** A Bloom filter tests a run of equal probe keys once, and keeps or drops the whole run. */
  @Test
  void runsOfEqualProbeKeysFilterAsEachKeyDoes() {
    Random rnd = new Random(13);
    long[] values = new long[5_000];
    for (int i = 0; i < values.length; i++) {
      values[i] = rnd.nextLong();
    }
    KeyFilter f = KeyFilter.of(keys(values, false), values.length, false);
    assertTrue(f.toString().contains("bloom"), f.toString());
    LongColumnVector probe = new LongColumnVector(4_000);
    for (int i = 0; i < 4_000; i++) {
      probe.vector[i] = i % 8 < 4 ? values[i / 4] : rnd.nextLong(); // runs of 4 held keys, then 4 others
    }
    int[] sel = Columns.identity(4_000);
    int m = f.filter(probe, sel, 4_000);
    int k = 0;
    for (int i = 0; i < 4_000; i++) {
      if (f.mayContain(probe.vector[i])) {
        assertEquals(i, sel[k++]);
      }
    }
    assertEquals(k, m);
    assertTrue(m >= 2_000, "every held key passes: " + m);
  }

  /** A string vector of {@code values} (null entries NULL), filled by reference. */
  private static org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector strings(String[] values) {
    var v = new org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector(Math.max(1, values.length));
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null) {
        v.noNulls = false;
        v.isNull[i] = true;
      } else {
        byte[] b = values[i].getBytes(java.nio.charset.StandardCharsets.UTF_8);
        v.setRef(i, b, 0, b.length);
      }
    }
    return v;
  }

  /**
   * String keys: a few kept exactly (by hash), many in a Bloom filter over their hashes; a member
   * always passes, NULL never does, nearly every non-member fails, and the scan gets no predicate.
   */
  @Test
  void stringKeysFilterByTheirHash() {
    for (int n : new int[] {5, 5000}) {
      String[] build = new String[n + 1];
      for (int i = 0; i < n; i++) {
        build[i] = "key-" + i + (i % 3 == 0 ? " ünï" : "");
      }
      build[n] = null;
      KeyFilter f = KeyFilter.ofStrings(strings(build), build.length);
      assertTrue(f.selective(), f.toString());
      assertEquals(null, f.narrowing(3), "string hashes prune no granule");
      String[] probe = new String[2 * n + 1];
      for (int i = 0; i < n; i++) {
        probe[i] = build[i];
        probe[n + i] = "other-" + i;
      }
      probe[2 * n] = null;
      int[] sel = Columns.identity(probe.length);
      int kept = f.filter(strings(probe), sel, probe.length);
      // the same strings as dictionary ids (from the decoded-column cache): the same rows pass
      int[] dictSel = Columns.identity(probe.length);
      var dict = dev.travertine.vector.DictionaryVector.encode(strings(probe), probe.length,
          new dev.travertine.vector.StringDictionary(), probe.length);
      assertEquals(kept, f.filter(dict, dictSel, probe.length));
      assertArrayEquals(java.util.Arrays.copyOf(sel, kept), java.util.Arrays.copyOf(dictSel, kept));
      Set<Integer> passed = new HashSet<>();
      for (int k = 0; k < kept; k++) {
        passed.add(sel[k]);
      }
      for (int i = 0; i < n; i++) {
        assertTrue(passed.contains(i), "member " + build[i] + " passes");
      }
      assertFalse(passed.contains(2 * n), "NULL fails");
      assertTrue(kept - n <= Math.max(1, n / 20), "few non-members pass: " + (kept - n) + " of " + n);
    }
    KeyFilter none = KeyFilter.ofStrings(strings(new String[] {null, null}), 2);
    assertTrue(none.empty());
    assertEquals(0, none.filter(strings(new String[] {"a"}), new int[] {0}, 1));
  }
}
