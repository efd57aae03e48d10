package dev.travertine.exec.agg;

import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import it.unimi.dsi.fastutil.longs.LongIterator;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * The states of one aggregate for every group, in flat arrays indexed by group id: counts and
 * sums as {@code long[]}/{@code double[]}, extremes of strings as one byte array per group. Rows
 * arrive as (position, group id) pairs; partial states of workers merge through a group map.
 */
abstract class AggState {
  static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  /** Makes room for group ids below {@code groups}. */
  abstract void grow(int groups);

  /** Adds rows {@code sel[k]} to groups {@code gid[k]}, k < n ({@code arg} is null for COUNT(*)). */
  abstract void add(ColumnVector arg, int[] sel, int[] gid, int n);

  /**
   * Adds rows {@code sel[k]}, k < n, all to group 0 (no GROUP BY); {@code zeros} holds n zeros.
   * States with a faster loop for one group override it.
   */
  void addAll(ColumnVector arg, int[] sel, int n, int[] zeros) {
    add(arg, sel, zeros, n);
  }

  /**
   * Whether {@link #add} and {@link #addAll} also take our narrow integer vectors ({@link
   * dev.travertine.vector.IntegerVector}); others get Hive's form.
   */
  boolean takesNarrow() {
    return false;
  }

  /** Adds {@code other}'s states: its group {@code src[k]} into our group {@code dst[k]}, k < n. */
  abstract void merge(AggState other, int[] src, int[] dst, int n);

  /**
   * Puts group {@code order[k]} at k, for k < n: the states of a table put aside, ordered by hash
   * partition so that merging them reads each partition's groups in one run. The state is only
   * merged from afterwards.
   */
  abstract void reorder(int[] order, int n);

  /**
   * Whether {@link #merge} costs in proportion to the groups merged, not to all of the other's:
   * what merging by hash partition needs.
   */
  boolean mergesSubsetsCheaply() {
    return true;
  }

  /** The results of groups {@code from .. from + count)}. */
  abstract ColumnVector result(int from, int count);

  /**
   * The types of this state's columns in partial form: what a replica sends so that another node
   * can go on aggregating (docs/design/exchange.md, "Partial aggregate states").
   */
  abstract List<DataType> partialTypes();

  /** Groups {@code from .. from + count)} in partial form, into {@code out[at ..]}. */
  abstract void partial(int from, int count, ColumnVector[] out, int at);

  /** Folds rows {@code sel[k]} of partial-form columns {@code in[at ..]} into groups {@code gid[k]}, k < n. */
  abstract void mergePartial(ColumnVector[] in, int at, int[] sel, int[] gid, int n);

  static final DataType COUNT_TYPE = DataType.of(TypeKind.BIGINT);
  /** Partial states that are sets travel as bytes in a VARCHAR column. */
  static final DataType BYTES_TYPE = DataType.varchar(-1);

  static int row(ColumnVector v, int r) {
    return v.isRepeating ? 0 : r;
  }

  /** Bytes held (for memory accounting). */
  abstract long bytes();

  static int cap(int have, int need) {
    int c = Math.max(16, have);
    while (c < need) {
      c *= 2;
    }
    return c;
  }

  /** Groups {@code from .. from + count)} of per-group counts as a result vector. */
  static ColumnVector counts(long[] counts, int from, int count) {
    LongColumnVector v = new LongColumnVector(Math.max(1, count));
    System.arraycopy(counts, from, v.vector, 0, count);
    return v;
  }

  static boolean isNull(ColumnVector v, int r) {
    return !v.noNulls && v.isNull[v.isRepeating ? 0 : r];
  }

  /** The state of an aggregate call over an argument of {@code argType} (null for COUNT(*)). */
  static AggState create(AggCall call, DataType argType) {
    DataType out = call.type();
    return switch (call.function()) {
      case COUNT -> !call.distinct() ? new Count(call.arg() < 0)
          : argType.kind().isLongBacked() ? new LongCountDistinct() : new CountDistinct(argType);
      case SUM, SUM0, AVG -> {
        Sum s = argType.kind().isDoubleBacked() ? new Sum.DoubleSum()
            : argType.kind() == TypeKind.DECIMAL ? new Sum.DecimalSum() : new Sum.LongSum();
        s.out = out;
        s.in = argType;
        s.zeroForEmpty = call.function() == AggCall.AggFunction.SUM0;
        s.average = call.function() == AggCall.AggFunction.AVG;
        yield s;
      }
      case MIN, MAX -> Extreme.create(argType, call.function() == AggCall.AggFunction.MAX);
    };
  }

  /** COUNT(*) or COUNT(x): rows, or rows where x is not NULL. */
  static final class Count extends AggState {
    private final boolean star;
    long[] counts = new long[16];

    Count(boolean star) {
      this.star = star;
    }

    @Override boolean takesNarrow() {
      return true; // reads null flags only
    }

    @Override void grow(int groups) {
      if (groups > counts.length) {
        counts = Arrays.copyOf(counts, cap(counts.length, groups));
      }
    }

    @Override void add(ColumnVector arg, int[] sel, int[] gid, int n) {
      long[] c = counts;
      if (star || arg.noNulls) {
        for (int k = 0; k < n; k++) {
          c[gid[k]]++;
        }
      } else if (arg.isRepeating) {
        if (!arg.isNull[0]) {
          for (int k = 0; k < n; k++) {
            c[gid[k]]++;
          }
        }
      } else {
        boolean[] nulls = arg.isNull;
        for (int k = 0; k < n; k++) {
          if (!nulls[sel[k]]) {
            c[gid[k]]++;
          }
        }
      }
    }

    @Override void addAll(ColumnVector arg, int[] sel, int n, int[] zeros) {
      if (star || arg.noNulls) {
        counts[0] += n;
      } else {
        add(arg, sel, zeros, n);
      }
    }

    @Override void merge(AggState other, int[] src, int[] dst, int n) {
      long[] o = ((Count) other).counts;
      for (int k = 0; k < n; k++) {
        int g = src[k];
        counts[dst[k]] += o[g];
      }
    }

    @Override void reorder(int[] order, int n) {
      counts = Gather.longs(counts, order, n);
    }

    @Override ColumnVector result(int from, int count) {
      return counts(counts, from, count);
    }

    @Override List<DataType> partialTypes() {
      return List.of(COUNT_TYPE);
    }

    @Override void partial(int from, int count, ColumnVector[] out, int at) {
      out[at] = result(from, count);
    }

    @Override void mergePartial(ColumnVector[] in, int at, int[] sel, int[] gid, int n) {
      LongColumnVector v = (LongColumnVector) in[at];
      for (int k = 0; k < n; k++) {
        counts[gid[k]] += v.vector[row(v, sel[k])];
      }
    }

    @Override long bytes() {
      return 8L * counts.length;
    }
  }

  /** COUNT(DISTINCT x) of a long-backed x: a primitive hash set per group. */
  static final class LongCountDistinct extends AggState {
    LongOpenHashSet[] sets = new LongOpenHashSet[16];
    /** Values held in all sets, and sets created: what {@link #bytes} counts, kept as they change. */
    long elements;
    long created;

    @Override void reorder(int[] order, int n) {
      sets = Gather.objects(sets, order, n);
    }

    @Override void grow(int groups) {
      if (groups > sets.length) {
        sets = Arrays.copyOf(sets, cap(sets.length, groups));
      }
    }

    private LongOpenHashSet set(int g) {
      LongOpenHashSet s = sets[g];
      if (s == null) {
        s = sets[g] = new LongOpenHashSet();
        created++;
      }
      return s;
    }

    @Override void add(ColumnVector arg, int[] sel, int[] gid, int n) {
      LongColumnVector a = (LongColumnVector) arg;
      long[] vec = a.vector;
      for (int k = 0; k < n; k++) {
        int r = a.isRepeating ? 0 : sel[k];
        if ((a.noNulls || !a.isNull[r]) && set(gid[k]).add(vec[r])) {
          elements++;
        }
      }
    }

    @Override void addAll(ColumnVector arg, int[] sel, int n, int[] zeros) {
      LongColumnVector a = (LongColumnVector) arg;
      if (!a.noNulls || a.isRepeating) {
        add(arg, sel, zeros, n);
        return;
      }
      LongOpenHashSet s = set(0);
      long[] vec = a.vector;
      int before = s.size();
      for (int k = 0; k < n; k++) {
        s.add(vec[sel[k]]);
      }
      elements += s.size() - before;
    }

    @Override void merge(AggState other, int[] src, int[] dst, int n) {
      LongOpenHashSet[] o = ((LongCountDistinct) other).sets;
      for (int k = 0; k < n; k++) {
        LongOpenHashSet x = o[src[k]];
        if (x == null) {
          continue;
        }
        int t = dst[k];
        LongOpenHashSet into = sets[t];
        if (into == null) {
          sets[t] = x; // other is dropped after the merge: its set is ours now
          elements += x.size();
          created++;
          continue;
        }
        elements -= into.size();
        if (into.size() < x.size()) {
          x.addAll(into);
          sets[t] = x;
        } else {
          into.addAll(x);
        }
        elements += sets[t].size();
      }
    }

    @Override ColumnVector result(int from, int count) {
      LongColumnVector v = new LongColumnVector(Math.max(1, count));
      for (int i = 0; i < count; i++) {
        LongOpenHashSet s = sets[from + i];
        v.vector[i] = s == null ? 0 : s.size();
      }
      return v;
    }

    /** Partial form: each group's set as its values back to back, 8 bytes each (little-endian). */
    @Override List<DataType> partialTypes() {
      return List.of(BYTES_TYPE);
    }

    @Override void partial(int from, int count, ColumnVector[] out, int at) {
      BytesColumnVector v = new BytesColumnVector(Math.max(1, count));
      for (int i = 0; i < count; i++) {
        LongOpenHashSet s = sets[from + i];
        byte[] b = new byte[s == null ? 0 : 8 * s.size()];
        if (s != null) {
          int p = 0;
          for (LongIterator it = s.iterator(); it.hasNext(); p += 8) {
            LONGS.set(b, p, it.nextLong());
          }
        }
        v.setRef(i, b, 0, b.length);
      }
      out[at] = v;
    }

    @Override void mergePartial(ColumnVector[] in, int at, int[] sel, int[] gid, int n) {
      BytesColumnVector v = (BytesColumnVector) in[at];
      for (int k = 0; k < n; k++) {
        int r = row(v, sel[k]);
        if (!v.noNulls && v.isNull[r]) {
          continue;
        }
        byte[] b = v.vector[r];
        int end = v.start[r] + v.length[r];
        if (v.length[r] % 8 != 0) {
          throw new IllegalArgumentException("A COUNT(DISTINCT) partial state of " + v.length[r] + " bytes");
        }
        LongOpenHashSet s = set(gid[k]);
        for (int p = v.start[r]; p < end; p += 8) {
          if (s.add((long) LONGS.get(b, p))) {
            elements++;
          }
        }
      }
    }

    @Override long bytes() {
      return 8L * sets.length + 16L * elements + 64L * created;
    }
  }
}
