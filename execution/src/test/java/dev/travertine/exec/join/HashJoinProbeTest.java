package dev.travertine.exec.join;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.junit.jupiter.api.Test;

/**
 * The probe of every join kind against a nested-loop oracle on random batches: one long key and a
 * (long, string) key pair, NULL keys, duplicate and unique build keys, an empty build side, and
 * probe batches with a selection that skips rows.
 */
class HashJoinProbeTest {
  private static final List<DataType> TYPES = List.of(DataType.of(TypeKind.BIGINT), DataType.of(TypeKind.VARCHAR));

  @Test
  void everyKindMatchesANestedLoop() {
    Random rnd = new Random(42);
    for (int round = 0; round < 40; round++) {
      int keyRange = round % 4 == 0 ? 1000 : 12; // mostly duplicates, sometimes (nearly) unique
      int buildRows = round % 10 == 9 ? 0 : 1 + rnd.nextInt(300);
      Batch build = batch(rnd, buildRows, keyRange, round % 4 == 0);
      Batch probe = batch(rnd, 1 + rnd.nextInt(500), keyRange, false);
      for (int[] keys : List.of(new int[] {0}, new int[] {0, 1})) {
        JoinTable t = JoinTable.build(TYPES, keys, List.of(build));
        for (HashJoinProbe.Kind kind : HashJoinProbe.Kind.values()) {
          BuildMatches matches = kind.emitsBuildRows() ? new BuildMatches(t) : null;
          Batch out = new HashJoinProbe(kind, t, TYPES, keys, null, matches).apply(probe);
          assertEquals(oracle(kind, probe, build, keys), rows(out, kind), kind + " keys " + keys.length + " round "
              + round + " " + t);
          if (kind.buildFieldsOnly()) {
            // RIGHT_SEMI, RIGHT_ANTI: nothing while probing, the build rows (matched, unmatched) at the end
            List<String> emitted = new ArrayList<>();
            for (Batch u : matches.output(kind, List.of(), 64)) {
              for (int x = 0; x < u.size(); x++) {
                emitted.add(row(u, u.sel()[x]));
              }
            }
            emitted.sort(null);
            List<String> unmatched = unmatchedOracle(probe, build, keys);
            List<String> want = unmatched;
            if (kind == HashJoinProbe.Kind.RIGHT_SEMI) {
              want = new ArrayList<>();
              for (int y = 0; y < build.size(); y++) {
                want.add(row(build, build.sel()[y]));
              }
              for (String u : unmatched) {
                want.remove(u);
              }
              want.sort(null);
            }
            assertEquals(want, emitted, kind + " keys " + keys.length + " round " + round);
          } else if (matches != null) {
            List<String> unmatched = new ArrayList<>();
            for (Batch u : matches.unmatched(TYPES, 64)) {
              Batch buildSide = new Batch(new ColumnVector[] {u.cols()[2], u.cols()[3]}, u.sel(), u.size());
              for (int x = 0; x < u.size(); x++) {
                assertEquals("null/null", row(u, u.sel()[x]), "the probe side of an unmatched build row");
                unmatched.add(row(buildSide, u.sel()[x]));
              }
            }
            unmatched.sort(null);
            assertEquals(unmatchedOracle(probe, build, keys), unmatched, kind + "'s unmatched build rows, round " + round);
          }
        }
      }
    }
  }

  /** Rows {@code n} at random, every third position selected; keys NULL now and then; unique keys if asked. */
  private static Batch batch(Random rnd, int n, int keyRange, boolean unique) {
    LongColumnVector k = new LongColumnVector(n);
    BytesColumnVector s = new BytesColumnVector(n);
    s.initBuffer();
    for (int i = 0; i < n; i++) {
      k.vector[i] = unique ? i : rnd.nextInt(keyRange);
      if (!unique && rnd.nextInt(10) == 0) {
        k.noNulls = false;
        k.isNull[i] = true;
      }
      byte[] b = ("s" + rnd.nextInt(3)).getBytes(StandardCharsets.UTF_8);
      s.setVal(i, b, 0, b.length);
    }
    int[] sel = new int[n];
    int m = 0;
    for (int i = 0; i < n; i++) {
      if (unique || i % 3 != 1) {
        sel[m++] = i;
      }
    }
    return new Batch(new ColumnVector[] {k, s}, sel, m);
  }

  private static String row(Batch b, int r) {
    LongColumnVector k = (LongColumnVector) b.cols()[0];
    BytesColumnVector s = (BytesColumnVector) b.cols()[1];
    return (!k.noNulls && k.isNull[r] ? "null" : String.valueOf(k.vector[r])) + "/" + s.toString(r);
  }

  private static String buildRow(Batch b, int r) {
    return r < 0 ? "null/null" : row(b, r);
  }

  private static boolean matches(Batch p, int i, Batch b, int j, int[] keys) {
    LongColumnVector pk = (LongColumnVector) p.cols()[0];
    LongColumnVector bk = (LongColumnVector) b.cols()[0];
    if (!pk.noNulls && pk.isNull[i] || !bk.noNulls && bk.isNull[j] || pk.vector[i] != bk.vector[j]) {
      return false;
    }
    return keys.length == 1 || ((BytesColumnVector) p.cols()[1]).toString(i)
        .equals(((BytesColumnVector) b.cols()[1]).toString(j));
  }

  private static List<String> oracle(HashJoinProbe.Kind kind, Batch p, Batch b, int[] keys) {
    List<String> out = new ArrayList<>();
    for (int x = 0; x < p.size(); x++) {
      int i = p.sel()[x];
      boolean any = false;
      for (int y = 0; y < b.size(); y++) {
        int j = b.sel()[y];
        if (matches(p, i, b, j, keys)) {
          any = true;
          if (kind == HashJoinProbe.Kind.INNER || kind == HashJoinProbe.Kind.LEFT || kind == HashJoinProbe.Kind.FULL
              || kind == HashJoinProbe.Kind.RIGHT) {
            out.add(row(p, i) + "|" + row(b, j));
          }
        }
      }
      if ((kind == HashJoinProbe.Kind.LEFT || kind == HashJoinProbe.Kind.FULL) && !any) {
        out.add(row(p, i) + "|null/null");
      } else if (kind == HashJoinProbe.Kind.SEMI && any || kind == HashJoinProbe.Kind.ANTI && !any) {
        out.add(row(p, i));
      }
    }
    out.sort(null);
    return out;
  }

  /** The build rows (selected) that no selected probe row matches. */
  private static List<String> unmatchedOracle(Batch p, Batch b, int[] keys) {
    List<String> out = new ArrayList<>();
    for (int y = 0; y < b.size(); y++) {
      int j = b.sel()[y];
      boolean any = false;
      for (int x = 0; x < p.size() && !any; x++) {
        any = matches(p, p.sel()[x], b, j, keys);
      }
      if (!any) {
        out.add(row(b, j));
      }
    }
    out.sort(null);
    return out;
  }

  /**
   * A build large enough to run in parallel (hashing and chaining split over tasks) gives the same
   * table as the serial one: every probe kind answers alike, duplicate and NULL keys included.
   */
  @Test
  void aParallelBuildEqualsTheSerialOne() {
    Random rnd = new Random(7);
    List<Batch> batches = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      batches.add(batch(rnd, 3000, i % 2 == 0 ? 50_000 : 200, false));
    }
    Batch probe = batch(rnd, 4000, 50_000, false);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(3);
    try {
      JoinTable.Parallel parallel = new dev.travertine.exec.op.Workers(pool, 4).forJoinBuild(() -> { });
      for (int[] keys : List.of(new int[] {0}, new int[] {0, 1})) {
        JoinTable serial = JoinTable.build(TYPES, keys, batches);
        JoinTable wide = JoinTable.build(TYPES, keys, batches, parallel);
        assertEquals(serial.rows(), wide.rows());
        assertEquals(serial.chained(), wide.chained());
        assertEquals(serial.unique(), wide.unique());
        for (HashJoinProbe.Kind kind : HashJoinProbe.Kind.values()) {
          Batch a = new HashJoinProbe(kind, serial, TYPES, keys, null, new BuildMatches(serial)).apply(probe);
          Batch b = new HashJoinProbe(kind, wide, TYPES, keys, null, new BuildMatches(wide)).apply(probe);
          assertEquals(rows(a, kind), rows(b, kind), kind + " keys " + keys.length);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static List<String> rows(Batch out, HashJoinProbe.Kind kind) {
    List<String> rows = new ArrayList<>();
    for (int x = 0; x < out.size(); x++) {
      int r = out.sel()[x];
      if (kind == HashJoinProbe.Kind.SEMI || kind == HashJoinProbe.Kind.ANTI) {
        rows.add(row(out, r));
      } else {
        ColumnVector[] c = out.cols();
        Batch buildSide = new Batch(new ColumnVector[] {c[2], c[3]}, out.sel(), out.size());
        LongColumnVector bk = (LongColumnVector) c[2];
        // a matched build row never has a NULL key: a NULL one is LEFT's missing side
        boolean missing = !bk.noNulls && bk.isNull[bk.isRepeating ? 0 : r];
        rows.add(row(out, r) + "|" + (missing ? "null/null" : buildRow(buildSide, r)));
      }
    }
    rows.sort(null);
    return rows;
  }
}
