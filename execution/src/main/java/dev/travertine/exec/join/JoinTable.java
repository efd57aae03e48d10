package dev.travertine.exec.join;

import dev.travertine.exec.Columns;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Decimals;
import dev.travertine.vector.TypeKind;
import java.util.List;
import java.util.function.IntConsumer;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * The build side of a hash join: its rows copied into one vector per field (strings referenced
 * where they lie), and a chained hash table over their keys: {@code heads[hash & mask]} is the
 * first row of a bucket (+1, 0 = empty) and {@code next[row]} the next one, each row's full hash
 * beside it so that a probe compares hashes before keys (DuckDB's pointer table and chains). Rows
 * with a NULL key are kept (an outer join may return them) but never chained: SQL's equality
 * matches no NULL. Read-only once built, so every probing worker shares it.
 */
public final class JoinTable {
  private final List<DataType> types;
  private final ColumnVector[] cols;
  private final int rows;
  private final int[] keys;
  private final TypeKind[] keyKinds;
  /** For one long-backed key: its values, else null. */
  private final long[] longKey;
  /** For two keys, both long-backed: their values, else null. */
  private final long[][] longKeys;
  private final int[] heads;
  private final int[] next;
  private final int[] hashes;
  private final int mask;
  private final boolean unique;
  private final int chained;

  private JoinTable(List<DataType> types, ColumnVector[] cols, int rows, int[] keys, Parallel parallel) {
    this.types = List.copyOf(types);
    this.cols = cols;
    this.rows = rows;
    this.keys = keys.clone();
    this.keyKinds = JoinKeys.kinds(types, keys);
    this.longKey = keys.length == 1 && keyKinds[0].isLongBacked() && rows > 0
        ? ((LongColumnVector) cols[keys[0]]).vector : null;
    this.longKeys = keys.length == 2 && keyKinds[0].isLongBacked() && keyKinds[1].isLongBacked() && rows > 0
        ? new long[][] {((LongColumnVector) cols[keys[0]]).vector, ((LongColumnVector) cols[keys[1]]).vector} : null;
    int cap = Integer.highestOneBit(Math.max(16, rows * 2 - 1)) << 1;
    this.heads = new int[cap];
    this.mask = cap - 1;
    this.next = new int[rows];
    this.hashes = new int[rows];
    ColumnVector[] own = new ColumnVector[keys.length];
    for (int c = 0; c < keys.length; c++) {
      own[c] = cols[keys[c]];
    }
    boolean[] nul = new boolean[rows];
    int ranges = parallel == null ? 1 : Math.max(1, Math.min(parallel.threads() * 4, rows >> 14));
    // Hashes: ranges of rows, each on its own.
    IntConsumer hashRange = t -> {
      int from = (int) ((long) rows * t / ranges);
      int to = (int) ((long) rows * (t + 1) / ranges);
      int n = to - from;
      int[] pos = new int[n];
      for (int k = 0; k < n; k++) {
        pos[k] = from + k;
      }
      long[] h = new long[n];
      boolean[] nn = new boolean[n];
      java.util.Arrays.fill(h, JoinKeys.SEED);
      for (int c = 0; c < keys.length; c++) {
        JoinKeys.hash(cols[keys[c]], keyKinds[c], pos, n, h, nn);
      }
      for (int k = 0; k < n; k++) {
        hashes[from + k] = nn[k] ? 0 : JoinKeys.finish(h[k]);
        nul[from + k] = nn[k];
      }
    };
    if (parallel == null) {
      hashRange.accept(0);
      int[] counted = insert(own, nul, 0, rows, null, 0, 0);
      this.unique = counted[1] == 1;
      this.chained = counted[0];
      return;
    }
    parallel.run(ranges, hashRange);
    // Chains: the buckets split by their high bits into partitions, each partition's rows inserted
    // by one task, so no two tasks write one chain head (a row's next is its own).
    int bits = Math.min(Integer.numberOfTrailingZeros(cap), 6);
    int partitions = 1 << bits;
    int shift = Integer.numberOfTrailingZeros(cap) - bits;
    int[] start = new int[partitions + 1];
    for (int r = 0; r < rows; r++) {
      if (!nul[r]) {
        start[((hashes[r] & mask) >>> shift) + 1]++;
      }
    }
    for (int p = 0; p < partitions; p++) {
      start[p + 1] += start[p];
    }
    int[] order = new int[start[partitions]];
    int[] fill = java.util.Arrays.copyOf(start, partitions);
    for (int r = 0; r < rows; r++) {
      if (!nul[r]) {
        order[fill[(hashes[r] & mask) >>> shift]++] = r;
      }
    }
    int[] chainedPer = new int[partitions];
    boolean[] uniquePer = new boolean[partitions];
    parallel.run(partitions, p -> {
      int[] counted = insert(own, nul, 0, 0, order, start[p], start[p + 1]);
      chainedPer[p] = counted[0];
      uniquePer[p] = counted[1] == 1;
    });
    int count = 0;
    boolean uniq = true;
    for (int p = 0; p < partitions; p++) {
      count += chainedPer[p];
      uniq &= uniquePer[p];
    }
    this.unique = uniq;
    this.chained = count;
  }

  /**
   * Chains rows (those of {@code order[from .. to)} when {@code order} is given, else rows
   * {@code lo .. hi)), from the last down so each chain lists its rows in their input order;
   * returns {rows chained, 1 if no two had equal keys}.
   */
  private int[] insert(ColumnVector[] own, boolean[] nul, int lo, int hi, int[] order, int from, int to) {
    boolean uniq = true;
    int count = 0;
    int first = order == null ? hi - 1 : to - 1;
    int last = order == null ? lo : from;
    for (int i = first; i >= last; i--) {
      int r = order == null ? i : order[i];
      if (nul[r]) {
        continue;
      }
      int hash = hashes[r];
      int b = hash & mask;
      if (uniq && find(heads[b] - 1, hash, own, r) >= 0) {
        uniq = false;
      }
      next[r] = heads[b];
      heads[b] = r + 1;
      count++;
    }
    return new int[] {count, uniq ? 1 : 0};
  }

  /** Where a large build runs in parallel (the query's workers, which check its cancellation). */
  public interface Parallel {
    int threads();

    /** Runs tasks 0 … n - 1, each once, and returns when all are done. */
    void run(int n, IntConsumer task);
  }

  /** Rows from which a build hashes and chains in parallel (below, the threads cost more than they give). */
  static final int PARALLEL_ROWS = 1 << 16;

  /**
   * The table over the rows of {@code batches} (their selected positions, in order).
   *
   * @param keys the key fields of the batches
   */
  public static JoinTable build(List<DataType> types, int[] keys, List<Batch> batches) {
    return build(types, keys, batches, null);
  }

  /**
   * As above; with {@code parallel} (null: the caller's thread alone), a build of at least
   * {@link #PARALLEL_ROWS} rows copies the batches, hashes and chains on the query's workers.
   */
  public static JoinTable build(List<DataType> types, int[] keys, List<Batch> batches, Parallel parallel) {
    long total = 0;
    for (Batch b : batches) {
      total += b.size();
    }
    if (total > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("A join's build side of " + total + " rows is more than one table holds");
    }
    int n = (int) total;
    ColumnVector[] cols = new ColumnVector[types.size()];
    for (int c = 0; c < cols.length; c++) {
      DataType t = types.get(c);
      // DECIMALs of up to 18 digits as scaled longs whatever form the batches bring: no object per row
      cols[c] = t.kind() == TypeKind.DECIMAL && t.precision() <= 18 ? Decimals.newScaled(Math.max(1, n), t)
          : Columns.gatherTarget(t, n);
    }
    boolean wide = parallel != null && parallel.threads() > 1 && n >= PARALLEL_ROWS;
    int[] at = new int[batches.size() + 1];
    for (int i = 0; i < batches.size(); i++) {
      at[i + 1] = at[i] + batches.get(i).size();
    }
    IntConsumer copy = i -> {
      Batch b = batches.get(i);
      for (int c = 0; c < cols.length; c++) {
        VectorGather.gather(b.cols()[c], types.get(c).kind(), b.sel(), b.size(), cols[c], at[i]);
      }
    };
    if (wide) {
      parallel.run(batches.size(), copy);
    } else {
      for (int i = 0; i < batches.size(); i++) {
        copy.accept(i);
      }
    }
    return new JoinTable(types, cols, n, keys, wide ? parallel : null);
  }

  /** Whether a key of type {@code a} joins with one of type {@code b} (both hash and compare alike). */
  public static boolean compatible(DataType a, DataType b) {
    return JoinKeys.compatible(a, b);
  }

  public int rows() {
    return rows;
  }

  /** Whether no two rows have equal keys: every probe row matches at most one. */
  public boolean unique() {
    return unique;
  }

  public List<DataType> types() {
    return types;
  }

  ColumnVector[] cols() {
    return cols;
  }

  int[] keys() {
    return keys;
  }

  TypeKind[] keyKinds() {
    return keyKinds;
  }

  /** The first row of the chain of {@code hash}, or -1. */
  int head(int hash) {
    return heads[hash & mask] - 1;
  }

  /** The row after {@code row} in its chain, or -1. */
  int next(int row) {
    return next[row] - 1;
  }

  /**
   * The first row from {@code row} on along its chain whose key equals the key of row {@code p}
   * of the probe's key columns {@code probeKeys} (hash {@code hash}), or -1.
   */
  int find(int row, int hash, ColumnVector[] probeKeys, int p) {
    if (longKey != null) {
      ColumnVector v = probeKeys[0];
      long x = ((LongColumnVector) v).vector[v.isRepeating ? 0 : p];
      // the key itself is as cheap to compare as its hash, and one memory access fewer
      for (; row >= 0; row = next[row] - 1) {
        if (longKey[row] == x) {
          return row;
        }
      }
      return -1;
    }
    if (longKeys != null) {
      ColumnVector v0 = probeKeys[0];
      ColumnVector v1 = probeKeys[1];
      long x0 = ((LongColumnVector) v0).vector[v0.isRepeating ? 0 : p];
      long x1 = ((LongColumnVector) v1).vector[v1.isRepeating ? 0 : p];
      long[] k0 = longKeys[0];
      long[] k1 = longKeys[1];
      for (; row >= 0; row = next[row] - 1) {
        if (k0[row] == x0 && k1[row] == x1) {
          return row;
        }
      }
      return -1;
    }
    for (; row >= 0; row = next[row] - 1) {
      if (hashes[row] == hash && sameKey(row, probeKeys, p)) {
        return row;
      }
    }
    return -1;
  }

  private boolean sameKey(int row, ColumnVector[] probeKeys, int p) {
    for (int c = 0; c < keys.length; c++) {
      if (!JoinKeys.equal(cols[keys[c]], row, probeKeys[c], p, keyKinds[c])) {
        return false;
      }
    }
    return true;
  }

  /** Bytes held (for memory accounting): the copied vectors and the table. */
  public long bytes() {
    long b = 4L * heads.length + 8L * rows;
    for (int c = 0; c < cols.length; c++) {
      b += rows * (long) switch (types.get(c).kind()) {
        case CHAR, VARCHAR -> 24; // the reference (the bytes stay where the build side's batches hold them)
        case DECIMAL -> 48;
        case TIMESTAMP -> 12;
        default -> 9;
      };
    }
    return b;
  }

  /**
   * A runtime filter on key {@code c} (its position among the keys): what a probe's key must be to
   * match; null where the key is neither an integer (long-backed) nor a string one.
   */
  public KeyFilter keyFilter(int c) {
    if (keyKinds[c] == TypeKind.CHAR || keyKinds[c] == TypeKind.VARCHAR) {
      return KeyFilter.ofStrings((org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector) cols[keys[c]], rows);
    }
    if (!keyKinds[c].isLongBacked()) {
      return null;
    }
    return KeyFilter.of((LongColumnVector) cols[keys[c]], rows, keys.length == 1 && unique);
  }

  /** Rows whose key is not NULL (what a probe can match). */
  public int chained() {
    return chained;
  }

  @Override public String toString() {
    return "JoinTable[" + rows + " rows, " + (unique ? "unique" : "duplicate") + " keys]";
  }
}
