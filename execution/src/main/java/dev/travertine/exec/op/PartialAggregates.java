package dev.travertine.exec.op;

import dev.travertine.exec.agg.AggCall;
import dev.travertine.exec.agg.HashAggregator;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.HyperLogLog;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The partial aggregates of one hash aggregation, built by the scan's worker threads, and their
 * final merge.
 *
 * <p>A worker's table stays about the size of the cache: once it holds {@code flushGroups}
 * groups it is put aside whole and the worker starts a new one. Probing a table of millions of
 * groups misses the cache on nearly every row; a table put aside costs one more merge of its
 * groups later, in cache (DuckDB's radix-partitioned aggregation bounds its thread-local tables
 * the same way). Keys that repeat within a table's lifetime are still aggregated where they
 * occur. The table put aside is sorted by hash partition at once, while the cache holds it, and
 * its keys go into a HyperLogLog sketch ({@link HyperLogLog}): while the worker has seen few
 * distinct keys (they repeat, in whatever order), its next table may grow to hold them all, up to
 * {@code maxFlushGroups}, so tens of thousands of random keys cost no merge at all; past that, it
 * keeps to cache-sized tables.
 *
 * <p>At the end, few groups merge the simple way (the largest table absorbs the others). Many
 * groups merge by hash partition, in parallel: every table's groups are split by the high bits of
 * their key's hash ({@link HashAggregator#hash}), and each partition is merged from every table
 * into one table of its own, small enough for the cache, by whichever worker takes it
 * (ClickHouse's two-level aggregation merges its 256 buckets the same way). The result is the
 * partitions one after another: groups come in no particular order.
 */
final class PartialAggregates {
  /**
   * When tables are put aside and when the merge partitions (tests make them small).
   *
   * @param flushGroups groups at which a worker's first table is put aside: about 1 MiB of
   *     table, a core's share of the cache
   * @param maxFlushGroups the largest table a worker grows while its keys keep repeating
   * @param partitionThreshold groups in all from which the merge is partitioned
   */
  record Tuning(int flushGroups, int maxFlushGroups, int partitionThreshold) {
    static final Tuning DEFAULT = new Tuning(1 << 14, 1 << 18, 1 << 16);
  }

  /** Groups a partition's table aims at. */
  static final int PARTITION_GROUPS = 1 << 15;
  /**
   * Tables are ordered by this many high bits of their keys' hashes: any coarser partitioning is
   * then a run of these fine partitions.
   */
  static final int FINE_BITS = 10;

  private final HashAggregator prototype;
  private final int flushGroups;
  private final int maxFlushGroups;
  private final int partitionThreshold;
  private final boolean partitionable;
  private final List<Worker> workers = new ArrayList<>();

  PartialAggregates(List<DataType> inputTypes, int[] keys, List<AggCall> calls, Tuning tuning) {
    this.prototype = new HashAggregator(inputTypes, keys, calls);
    this.partitionable = prototype.partitionable();
    this.flushGroups = partitionable ? tuning.flushGroups() : Integer.MAX_VALUE;
    this.maxFlushGroups = tuning.maxFlushGroups();
    this.partitionThreshold = tuning.partitionThreshold();
  }

  /** A new worker's partial (each worker thread has its own). */
  synchronized Worker worker() {
    Worker w = new Worker();
    workers.add(w);
    return w;
  }

  /**
   * A table ordered by fine partition (its hash slots dropped): the groups of fine partition f
   * are {@code starts[f] .. starts[f + 1])}.
   */
  record Sorted(HashAggregator table, int[] starts) {
    /** Sorts {@code h} in place; its keys' hashes also go into {@code seen} (null: nowhere). */
    static Sorted of(HashAggregator h, HyperLogLog seen) {
      int n = h.groups();
      int parts = 1 << FINE_BITS;
      int shift = 32 - FINE_BITS;
      int[] part = new int[n];
      int[] st = new int[parts + 1];
      for (int g = 0; g < n; g++) {
        int hash = h.hash(g);
        if (seen != null) {
          seen.addValue(hash & 0xffffffffL);
        }
        int p = hash >>> shift;
        part[g] = p;
        st[p + 1]++;
      }
      for (int p = 0; p < parts; p++) {
        st[p + 1] += st[p];
      }
      int[] fill = Arrays.copyOf(st, parts);
      int[] order = new int[n];
      for (int g = 0; g < n; g++) {
        order[fill[part[g]]++] = g;
      }
      h.reorder(order);
      return new Sorted(h, st);
    }
  }

  /** One worker's tables: the one it adds to, and those it put aside (sorted while in cache). */
  final class Worker {
    private HashAggregator current = prototype.emptyCopy();
    private final List<Sorted> full = new ArrayList<>();
    private long fullBytes;
    private final HyperLogLog seen = new HyperLogLog();
    private int cap = flushGroups;

    void add(Batch b) {
      current.add(b);
      added();
    }

    /** Folds a batch of partial states (from another node) in, like {@link #add} does rows. */
    void addPartial(Batch b) {
      current.mergePartial(b);
      added();
    }

    private void added() {
      if (current.groups() >= cap) {
        Sorted t = Sorted.of(current, seen);
        full.add(t);
        fullBytes += t.table().bytes();
        current = prototype.emptyCopy();
        // Keys that keep coming back (tens of thousands of distinct ones, in any order) soon fit
        // in one larger table and stay aggregated where they are; many distinct keys keep to
        // tables the cache holds.
        long distinct = seen.estimate();
        cap = distinct <= maxFlushGroups ? (int) Math.min(Math.max(2 * distinct, flushGroups), maxFlushGroups)
            : flushGroups;
        // the next table will most likely hold as many groups as the worker has seen keys (up to
        // its cap): it is sized for them at once instead of growing (rehashing) its way there
        current.reserve((int) Math.min(cap, Math.max(flushGroups, distinct)));
      }
    }

    /** Bytes of all of this worker's tables. */
    long bytes() {
      return fullBytes + current.bytes();
    }
  }

  /**
   * The merged aggregate: its groups are those of the returned aggregators together (one, or one
   * per partition). Parallel work runs on {@code pool}; new tables are charged to
   * {@code memory}.
   */
  List<HashAggregator> finish(Workers pool, Runnable cancelCheck, MemoryTracker memory) {
    List<Sorted> sorted = new ArrayList<>();
    List<HashAggregator> tables = new ArrayList<>();
    synchronized (this) {
      for (Worker w : workers) {
        sorted.addAll(w.full);
        if (w.current.groups() > 0) { // (no GROUP BY always has its one group)
          tables.add(w.current);
        }
      }
    }
    if (sorted.isEmpty() && tables.size() <= 1) {
      return List.of(tables.isEmpty() ? prototype.emptyCopy() : tables.get(0));
    }
    long total = 0;
    for (HashAggregator t : tables) {
      total += t.groups();
    }
    for (Sorted t : sorted) {
      total += t.table().groups();
    }
    if (sorted.isEmpty() && (!partitionable || total < partitionThreshold)) {
      tables.sort((x, y) -> Integer.compare(y.groups(), x.groups()));
      HashAggregator into = tables.get(0);
      long base = into.bytes(); // its worker's account holds that already
      MemoryTracker.Account acct = memory.account();
      for (int k = 1; k < tables.size(); k++) {
        cancelCheck.run();
        into.merge(tables.get(k));
        acct.resize(Math.max(0, into.bytes() - base));
      }
      return List.of(into);
    }
    int first = sorted.size();
    Sorted[] all = sorted.toArray(new Sorted[first + tables.size()]);
    pool.run(tables.size(), t -> all[first + t] = Sorted.of(tables.get(t), null), cancelCheck);
    int bits = partitionBits(total, pool.threads());
    int fine = 1 << (FINE_BITS - bits);
    HashAggregator[] out = new HashAggregator[1 << bits];
    pool.run(out.length, p -> {
      int lo = p * fine;
      int hi = lo + fine;
      int count = 0;
      int largest = 0;
      for (Sorted t : all) {
        int c = t.starts()[hi] - t.starts()[lo];
        count += c;
        largest = Math.max(largest, c);
      }
      HashAggregator h = prototype.emptyCopy();
      // Tables put aside share keys: their sum overstates the groups, the largest understates them.
      h.reserve((largest + count) / 2);
      MemoryTracker.Account acct = memory.account();
      int[] src = new int[0];
      for (Sorted t : all) {
        int from = t.starts()[lo];
        int n = t.starts()[hi] - from;
        if (n > 0) {
          if (src.length < n) {
            src = new int[n];
          }
          for (int k = 0; k < n; k++) {
            src[k] = from + k;
          }
          h.merge(t.table(), src, n);
          acct.resize(h.bytes());
        }
      }
      out[p] = h;
    }, cancelCheck);
    return Arrays.asList(out);
  }

  /** Partitions for {@code total} groups: about PARTITION_GROUPS each, and a few per thread. */
  static int partitionBits(long total, int threads) {
    int bits = 0;
    while (bits < FINE_BITS && ((total >> bits) > PARTITION_GROUPS || (1 << bits) < 4 * threads)) {
      bits++;
    }
    return bits;
  }
}
