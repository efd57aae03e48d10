package dev.travertine.exec.agg;

import dev.travertine.exec.Columns;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.DictionaryVector;
import dev.travertine.vector.Vectors;
import dev.travertine.vector.Widener;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * Hash aggregation over column vectors: a {@link GroupTable} gives each selected row its group id,
 * then every aggregate updates its flat state arrays for the whole batch. Each worker thread
 * aggregates its own batches into its own instance (a partial aggregate); {@link #merge} folds
 * the partials together. The output is the key columns, then one column per aggregate.
 */
public final class HashAggregator {
  private final List<DataType> inputTypes;
  private final int[] keys;
  private final List<AggCall> calls;
  private final GroupTable groups;
  private final AggState[] states;
  private int[] gid = new int[0];
  private int[] zeros = new int[0];
  private int[] sel2 = new int[0];
  private int[] gid2 = new int[0];
  /** Hive's form of narrow key and argument columns, at the selected rows (see {@link #add}). */
  private final Widener[] keyWideners;
  private final Widener[] argWideners;

  public HashAggregator(List<DataType> inputTypes, int[] keys, List<AggCall> calls) {
    this.inputTypes = List.copyOf(inputTypes);
    this.keys = keys.clone();
    this.calls = List.copyOf(calls);
    List<DataType> keyTypes = new ArrayList<>();
    for (int k : keys) {
      keyTypes.add(inputTypes.get(k));
    }
    this.groups = GroupTable.create(keyTypes);
    this.states = new AggState[calls.size()];
    this.keyWideners = new Widener[keys.length];
    this.argWideners = new Widener[calls.size()];
    java.util.Arrays.setAll(keyWideners, i -> new Widener());
    java.util.Arrays.setAll(argWideners, i -> new Widener());
    for (int i = 0; i < states.length; i++) {
      AggCall c = calls.get(i);
      states[i] = AggState.create(c, c.arg() < 0 ? null : inputTypes.get(c.arg()));
      states[i].grow(groups.size());
    }
  }

  /** Aggregates the selected rows of a batch. */
  public void add(Batch b) {
    int n = b.size();
    if (n == 0) {
      return;
    }
    if (gid.length < n) {
      gid = new int[Math.max(n, 1024)];
    }
    ColumnVector[] cols = b.cols();
    ColumnVector[] keyCols = new ColumnVector[keys.length];
    for (int i = 0; i < keys.length; i++) {
      ColumnVector k = cols[keys[i]];
      keyCols[i] = k instanceof DictionaryVector && groups.takesDictionaries() ? k : keyWideners[i].wide(k, b.sel(), n);
    }
    int[] sel = b.sel();
    boolean oneGroup = keys.length == 0;
    if (oneGroup) {
      if (zeros.length < n) {
        zeros = new int[gid.length]; // group 0 for every row
      }
    } else {
      groups.groupIds(keyCols, sel, n, gid);
    }
    int size = groups.size();
    for (int i = 0; i < states.length; i++) {
      AggCall c = calls.get(i);
      AggState s = states[i];
      s.grow(size);
      ColumnVector arg = c.arg() < 0 ? null : s.takesNarrow() ? cols[c.arg()] : argWideners[i].wide(cols[c.arg()], sel, n);
      if (c.filter() < 0 && oneGroup) {
        s.addAll(arg, sel, n, zeros);
      } else if (c.filter() < 0) {
        s.add(arg, sel, gid, n);
      } else {
        int m = narrow((LongColumnVector) Vectors.wide(cols[c.filter()]), sel, n, oneGroup ? zeros : gid);
        s.add(arg, sel2, gid2, m);
      }
    }
  }

  /** Rows (and their groups) where the FILTER column is TRUE, into sel2/gid2. */
  private int narrow(LongColumnVector f, int[] sel, int n, int[] gid) {
    if (sel2.length < n) {
      sel2 = new int[Math.max(n, 1024)];
      gid2 = new int[Math.max(n, 1024)];
    }
    int m = 0;
    for (int k = 0; k < n; k++) {
      int r = f.isRepeating ? 0 : sel[k];
      if ((f.noNulls || !f.isNull[r]) && f.vector[r] != 0) {
        sel2[m] = sel[k];
        gid2[m++] = gid[k];
      }
    }
    return m;
  }

  /** A new, empty aggregator of the same keys and calls. */
  public HashAggregator emptyCopy() {
    return new HashAggregator(inputTypes, keys, calls);
  }

  /** Folds another partial aggregate (of the same keys and calls) into this one. */
  public void merge(HashAggregator other) {
    int n = other.groups();
    merge(other, Columns.identity(n), n);
  }

  /** Folds {@code other}'s groups {@code src[k]}, k < n, into this one. */
  public void merge(HashAggregator other, int[] src, int n) {
    int[] dst = groups.mergeFrom(other.groups, src, n);
    for (int i = 0; i < states.length; i++) {
      states[i].grow(groups.size());
      states[i].merge(other.states[i], src, dst, n);
    }
  }

  /**
   * Whether this aggregate's partials may be merged group by group in hash partitions (there are
   * keys, and every state merges a subset of groups in proportion to its size).
   */
  public boolean partitionable() {
    if (keys.length == 0) {
      return false;
    }
    for (AggState s : states) {
      if (!s.mergesSubsetsCheaply()) {
        return false;
      }
    }
    return true;
  }

  /** The hash of group g's key, alike in every aggregator of the same keys ({@link GroupTable#hash}). */
  public int hash(int g) {
    return groups.hash(g);
  }

  /**
   * Puts group {@code order[k]} at k, for every group k (see {@link GroupTable#reorder}): this
   * aggregator is only merged from afterwards.
   */
  public void reorder(int[] order) {
    groups.reorder(order);
    for (AggState s : states) {
      s.reorder(order, order.length);
    }
  }

  /** Makes room for {@code groups} groups while this aggregator is empty (a hint). */
  public void reserve(int groups) {
    this.groups.reserve(groups);
    for (AggState s : states) {
      s.grow(groups);
    }
  }

  public int groups() {
    return groups.size();
  }

  /** Bytes the groups and states hold. */
  public long bytes() {
    long b = groups.bytes();
    for (AggState s : states) {
      b += s.bytes();
    }
    return b;
  }

  /**
   * The types of this aggregate's partial form: the key types, then each aggregate's state
   * columns (docs/design/exchange.md). A replica sends its groups in this form; another
   * aggregator of the same input types, keys and calls folds them in ({@link #mergePartial}).
   */
  public List<DataType> partialTypes() {
    List<DataType> t = new ArrayList<>();
    for (int k : keys) {
      t.add(inputTypes.get(k));
    }
    for (AggState s : states) {
      t.addAll(s.partialTypes());
    }
    return t;
  }

  /** The groups in partial form ({@link #partialTypes}), in batches of at most {@code batchSize} rows. */
  public List<Batch> partialResult(int batchSize) {
    List<Batch> out = new ArrayList<>();
    int width = partialTypes().size();
    int total = groups.size();
    for (int from = 0; from < total; from += batchSize) {
      int count = Math.min(batchSize, total - from);
      ColumnVector[] cols = new ColumnVector[width];
      ColumnVector[] k = groups.keys(from, count);
      System.arraycopy(k, 0, cols, 0, k.length);
      int at = k.length;
      for (AggState s : states) {
        s.partial(from, count, cols, at);
        at += s.partialTypes().size();
      }
      out.add(new Batch(cols, Columns.identity(count), count));
    }
    return out;
  }

  /** Folds the selected rows of a batch in partial form ({@link #partialTypes}) into this aggregator. */
  public void mergePartial(Batch b) {
    int n = b.size();
    if (n == 0) {
      return;
    }
    if (gid.length < n) {
      gid = new int[Math.max(n, 1024)];
    }
    ColumnVector[] cols = b.cols();
    if (keys.length == 0) {
      java.util.Arrays.fill(gid, 0, n, 0);
    } else {
      groups.groupIds(java.util.Arrays.copyOf(cols, keys.length), b.sel(), n, gid);
    }
    int size = groups.size();
    int at = keys.length;
    for (AggState s : states) {
      s.grow(size);
      s.mergePartial(cols, at, b.sel(), gid, n);
      at += s.partialTypes().size();
    }
  }

  /** The result, in batches of at most {@code batchSize} rows. */
  public List<Batch> result(int batchSize) {
    List<Batch> out = new ArrayList<>();
    int total = groups.size();
    for (int from = 0; from < total; from += batchSize) {
      int count = Math.min(batchSize, total - from);
      ColumnVector[] k = groups.keys(from, count);
      ColumnVector[] cols = new ColumnVector[k.length + states.length];
      System.arraycopy(k, 0, cols, 0, k.length);
      for (int i = 0; i < states.length; i++) {
        cols[k.length + i] = states[i].result(from, count);
      }
      out.add(new Batch(cols, Columns.identity(count), count));
    }
    return out;
  }
}
