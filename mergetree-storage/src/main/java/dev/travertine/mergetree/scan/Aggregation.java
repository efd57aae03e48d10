package dev.travertine.mergetree.scan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.travertine.mergetree.TableSnapshot;
import dev.travertine.mergetree.block.Vectors;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.mergetree.schema.TypeKind;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * Hash aggregation on column vectors (COUNT, SUM, MIN, MAX with GROUP BY), run over a scan's
 * filtered batches: group ids are computed per batch, then each aggregate updates its
 * accumulators column by column. A COUNT(*) without filter or grouping is answered from part
 * metadata without reading data (ClickHouse's trivial count).
 */
public final class Aggregation {
  /** Aggregate functions the engine computes; SUM0 is SUM that gives 0 for no rows. */
  public enum Kind { COUNT_STAR, COUNT, SUM, SUM0, MIN, MAX }

  /** One aggregate: function and table column (-1 for COUNT(*)). */
  public record Spec(Kind kind, int column) {
    @JsonCreator
    public Spec(@JsonProperty("kind") Kind kind, @JsonProperty("column") int column) {
      this.kind = kind;
      this.column = column;
    }
  }

  private final TableSchema schema;
  private final int[] groupCols;
  private final List<Spec> specs;
  private final TypeKind[] groupKinds;
  private int groups;
  // Group lookup: a primitive map for one long-backed key, else boxed keys.
  private final boolean longKey;
  private long[] lkeys = new long[1024];
  private int[] lslots = new int[1024];
  private int nullGroup = -1;
  private final Map<List<Object>, Integer> objGroups = new HashMap<>();
  private final List<Object[]> keys = new ArrayList<>();
  // Accumulators, indexed [spec][group].
  private final long[][] counts;
  private final long[][] lsums;
  private final double[][] dsums;
  private final BigDecimal[][] bsums;
  private final Object[][] extremes;

  public Aggregation(TableSchema schema, int[] groupCols, List<Spec> specs) {
    this.schema = schema;
    this.groupCols = groupCols;
    this.specs = specs;
    this.groupKinds = new TypeKind[groupCols.length];
    for (int i = 0; i < groupCols.length; i++) {
      groupKinds[i] = schema.column(groupCols[i]).type().kind();
    }
    this.longKey = groupCols.length == 1 && (groupKinds[0].isLongBacked());
    Arrays.fill(lslots, -1);
    int n = specs.size();
    counts = new long[n][];
    lsums = new long[n][];
    dsums = new double[n][];
    bsums = new BigDecimal[n][];
    extremes = new Object[n][];
    for (int i = 0; i < n; i++) {
      counts[i] = new long[16];
      lsums[i] = new long[16];
      dsums[i] = new double[16];
      bsums[i] = new BigDecimal[16];
      extremes[i] = new Object[16];
    }
    if (groupCols.length == 0) {
      newGroup(new Object[0]);
    }
  }

  /** The column indexes a scan must read for this aggregation. */
  public static int[] columnsRead(int[] groupCols, List<Spec> specs) {
    java.util.BitSet b = new java.util.BitSet();
    for (int g : groupCols) {
      b.set(g);
    }
    for (Spec s : specs) {
      if (s.column() >= 0) {
        b.set(s.column());
      }
    }
    return b.stream().toArray();
  }

  /** Whether the aggregation is only COUNT(*) of the whole table. */
  public static boolean isTrivialCount(Predicate filter, int[] groupCols, List<Spec> specs) {
    return filter == null && groupCols.length == 0 && specs.stream().allMatch(s -> s.kind() == Kind.COUNT_STAR);
  }

  /** Rows of a snapshot from metadata alone. */
  public static long trivialCount(TableSnapshot snapshot) {
    long n = snapshot.bufferedRows();
    for (PartRef p : snapshot.parts()) {
      n += p.info().rows();
    }
    return n;
  }

  /** Consumes every batch of a scanner; {@code check} runs before each batch (cancellation). */
  public void consume(TableScanner scanner, Runnable check) throws IOException {
    ScanBatch b;
    int[] gid = new int[0];
    while (true) {
      check.run();
      if ((b = scanner.next()) == null) {
        break;
      }
      if (gid.length < b.size()) {
        gid = new int[Math.max(b.size(), 1024)];
      }
      groupIds(b, gid);
      for (int s = 0; s < specs.size(); s++) {
        accumulate(s, b, gid);
      }
    }
  }

  private void groupIds(ScanBatch b, int[] gid) {
    int n = b.size();
    int[] sel = b.sel();
    if (groupCols.length == 0) {
      Arrays.fill(gid, 0, n, 0);
      return;
    }
    if (longKey) {
      ColumnVector v = b.cols()[groupCols[0]];
      long[] vec = ((LongColumnVector) v).vector;
      for (int k = 0; k < n; k++) {
        int r = v.isRepeating ? 0 : sel[k];
        if (!v.noNulls && v.isNull[r]) {
          if (nullGroup < 0) {
            nullGroup = newGroup(new Object[] {null});
          }
          gid[k] = nullGroup;
        } else {
          gid[k] = longGroup(vec[r]);
        }
      }
      return;
    }
    for (int k = 0; k < n; k++) {
      int r = sel[k];
      Object[] key = new Object[groupCols.length];
      for (int i = 0; i < groupCols.length; i++) {
        key[i] = Vectors.get(b.cols()[groupCols[i]], groupKinds[i], r);
      }
      List<Object> kl = Arrays.asList(key);
      Integer g = objGroups.get(kl);
      if (g == null) {
        g = newGroup(key);
        objGroups.put(kl, g);
      }
      gid[k] = g;
    }
  }

  private int longGroup(long key) {
    int mask = lkeys.length - 1;
    int h = (int) (mix(key) & mask);
    while (true) {
      int slot = lslots[h];
      if (slot < 0) {
        Object boxed = Vectors.get(longVector(key), groupKinds[0], 0);
        int g = newGroup(new Object[] {boxed});
        lkeys[h] = key;
        lslots[h] = g;
        if ((groups - (nullGroup >= 0 ? 1 : 0)) * 2 > lkeys.length) {
          rehash();
        }
        return g;
      }
      if (lkeys[h] == key) {
        return slot;
      }
      h = (h + 1) & mask;
    }
  }

  private static LongColumnVector longVector(long v) {
    LongColumnVector c = new LongColumnVector(1);
    c.vector[0] = v;
    return c;
  }

  private static long mix(long x) {
    x ^= x >>> 33;
    x *= 0xff51afd7ed558ccdL;
    x ^= x >>> 33;
    return x;
  }

  private void rehash() {
    long[] ok = lkeys;
    int[] os = lslots;
    lkeys = new long[ok.length * 2];
    lslots = new int[os.length * 2];
    Arrays.fill(lslots, -1);
    int mask = lkeys.length - 1;
    for (int i = 0; i < ok.length; i++) {
      if (os[i] >= 0) {
        int h = (int) (mix(ok[i]) & mask);
        while (lslots[h] >= 0) {
          h = (h + 1) & mask;
        }
        lkeys[h] = ok[i];
        lslots[h] = os[i];
      }
    }
  }

  private int newGroup(Object[] key) {
    int g = groups++;
    keys.add(key);
    if (counts.length > 0 && g >= counts[0].length) {
      int cap = counts[0].length * 2;
      for (int i = 0; i < specs.size(); i++) {
        counts[i] = Arrays.copyOf(counts[i], cap);
        lsums[i] = Arrays.copyOf(lsums[i], cap);
        dsums[i] = Arrays.copyOf(dsums[i], cap);
        bsums[i] = Arrays.copyOf(bsums[i], cap);
        extremes[i] = Arrays.copyOf(extremes[i], cap);
      }
    }
    return g;
  }

  private void accumulate(int s, ScanBatch b, int[] gid) {
    Spec spec = specs.get(s);
    int n = b.size();
    int[] sel = b.sel();
    long[] cnt = counts[s];
    if (spec.kind() == Kind.COUNT_STAR) {
      for (int k = 0; k < n; k++) {
        cnt[gid[k]]++;
      }
      return;
    }
    ColumnVector v = b.cols()[spec.column()];
    TypeKind kind = schema.column(spec.column()).type().kind();
    boolean rep = v.isRepeating;
    boolean noNulls = v.noNulls;
    switch (spec.kind()) {
      case COUNT -> {
        for (int k = 0; k < n; k++) {
          int r = rep ? 0 : sel[k];
          if (noNulls || !v.isNull[r]) {
            cnt[gid[k]]++;
          }
        }
      }
      case SUM, SUM0 -> {
        if (v instanceof LongColumnVector lv && kind != TypeKind.TIMESTAMP) {
          long[] sum = lsums[s];
          long[] vec = lv.vector;
          for (int k = 0; k < n; k++) {
            int r = rep ? 0 : sel[k];
            if (noNulls || !v.isNull[r]) {
              int g = gid[k];
              sum[g] += vec[r];
              cnt[g]++;
            }
          }
        } else if (v instanceof DoubleColumnVector dv) {
          double[] sum = dsums[s];
          double[] vec = dv.vector;
          for (int k = 0; k < n; k++) {
            int r = rep ? 0 : sel[k];
            if (noNulls || !v.isNull[r]) {
              int g = gid[k];
              sum[g] += vec[r];
              cnt[g]++;
            }
          }
        } else if (v instanceof DecimalColumnVector dec) {
          BigDecimal[] sum = bsums[s];
          for (int k = 0; k < n; k++) {
            int r = rep ? 0 : sel[k];
            if (noNulls || !v.isNull[r]) {
              int g = gid[k];
              BigDecimal x = dec.vector[r].getHiveDecimal().bigDecimalValue();
              sum[g] = sum[g] == null ? x : sum[g].add(x);
              cnt[g]++;
            }
          }
        } else {
          throw new IllegalArgumentException("Cannot SUM a " + kind + " column");
        }
      }
      case MIN, MAX -> {
        boolean max = spec.kind() == Kind.MAX;
        Object[] ext = extremes[s];
        for (int k = 0; k < n; k++) {
          int r = sel[k];
          Object x = Vectors.get(v, kind, r);
          if (x == null) {
            continue;
          }
          int g = gid[k];
          Object cur = ext[g];
          if (cur == null || (max ? Vectors.compareValues(x, cur) > 0 : Vectors.compareValues(x, cur) < 0)) {
            ext[g] = x;
          }
        }
      }
      default -> throw new AssertionError(spec.kind());
    }
  }

  /**
   * One row per group: the group key values, then each aggregate (storage representation:
   * COUNT Long; SUM Long, Double or BigDecimal by column type, null for no rows unless SUM0;
   * MIN/MAX the column's value).
   */
  public List<Object[]> result() {
    List<Object[]> out = new ArrayList<>(groups);
    for (int g = 0; g < groups; g++) {
      Object[] row = new Object[groupCols.length + specs.size()];
      System.arraycopy(keys.get(g), 0, row, 0, groupCols.length);
      for (int s = 0; s < specs.size(); s++) {
        Spec spec = specs.get(s);
        Object val;
        switch (spec.kind()) {
          case COUNT_STAR, COUNT -> val = counts[s][g];
          case SUM, SUM0 -> {
            TypeKind kind = schema.column(spec.column()).type().kind();
            if (counts[s][g] == 0) {
              val = spec.kind() == Kind.SUM0 ? (kind.isDoubleBacked() ? (Object) 0.0
                  : kind == TypeKind.DECIMAL ? BigDecimal.ZERO : (Object) 0L) : null;
            } else if (kind.isDoubleBacked()) {
              val = dsums[s][g];
            } else if (kind == TypeKind.DECIMAL) {
              val = bsums[s][g];
            } else {
              val = lsums[s][g];
            }
          }
          default -> val = extremes[s][g];
        }
        row[groupCols.length + s] = val;
      }
      out.add(row);
    }
    return out;
  }
}
