package dev.travertine.exec.op;

import dev.travertine.exec.join.BuildMatches;
import dev.travertine.exec.join.HashJoinProbe;
import dev.travertine.exec.join.HashPartitions;
import dev.travertine.exec.join.JoinTable;
import dev.travertine.vector.Batch;
import dev.travertine.vector.BatchIterator;
import dev.travertine.vector.DataType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A hash join whose build side did not fit in {@code max_bytes_in_join} (a grace hash join): the
 * build side's rows go to {@link #PARTITIONS} spill files by the hash of their keys, then the probe
 * side's rows the same way, and each partition is joined on its own, its build side in memory one
 * at a time ({@link HashJoinProbe}, FULL's unmatched rows per partition). Matching keys hash
 * alike, so a probe row meets all its matches in its partition. A partition is not split again:
 * one that is still too large is charged to the query's memory as any build side is.
 */
final class GraceJoin implements AutoCloseable {
  static final int BITS = 6;
  static final int PARTITIONS = 1 << BITS;

  private final Step.HashJoin join;
  private final List<DataType> buildTypes;
  private final SpillStore.SpillFile[] build = new SpillStore.SpillFile[PARTITIONS];
  private final SpillStore.SpillFile[] probe = new SpillStore.SpillFile[PARTITIONS];
  private final HashPartitions buildParts;
  private int[] part = new int[0];

  GraceJoin(Step.HashJoin join, List<DataType> buildTypes, SpillStore store, List<DataType> probeTypes)
      throws IOException {
    this.join = join;
    this.buildTypes = buildTypes;
    this.buildParts = new HashPartitions(buildTypes, join.buildKeys(), BITS);
    try {
      for (int p = 0; p < PARTITIONS; p++) {
        build[p] = store.create(buildTypes);
        probe[p] = store.create(probeTypes);
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Adds a batch of the build side. */
  void addBuild(Batch b) throws IOException {
    append(b, buildParts, build);
  }

  private void append(Batch b, HashPartitions parts, SpillStore.SpillFile[] files) throws IOException {
    int n = b.size();
    if (n == 0) {
      return;
    }
    if (part.length < n) {
      part = new int[n];
    }
    parts.partitions(b, part);
    int[] sel = b.sel();
    int[] rows = new int[n];
    for (int p = 0; p < PARTITIONS; p++) {
      int m = 0;
      for (int k = 0; k < n; k++) {
        if (part[k] == p) {
          rows[m++] = sel[k];
        }
      }
      if (m > 0) {
        files[p].append(b.cols(), rows, m);
      }
    }
  }

  /** Bytes spilled so far. */
  long bytes() {
    long b = 0;
    for (int p = 0; p < PARTITIONS; p++) {
      b += (build[p] == null ? 0 : build[p].bytes()) + (probe[p] == null ? 0 : probe[p].bytes());
    }
    return b;
  }

  /**
   * The join's output: first the whole probe side ({@code in}, whose fields are {@code probeTypes})
   * is partitioned to disk, then the partitions are joined one after the other.
   */
  BatchIterator join(BatchIterator in, List<DataType> probeTypes, MemoryTracker memory, int batchSize,
      Runnable cancelCheck) {
    HashPartitions probeParts = new HashPartitions(probeTypes, join.probeKeys(), BITS);
    MemoryTracker.Account acct = memory.account();
    return new BatchIterator() {
      private boolean partitioned;
      private int p = -1;
      private BatchIterator probing;
      private HashJoinProbe prober;
      private BuildMatches matches;
      private Iterator<Batch> tail;
      private boolean inClosed;

      @Override public Batch next() throws IOException {
        if (!partitioned) {
          Batch b;
          while ((b = in.next()) != null) {
            cancelCheck.run();
            append(b, probeParts, probe);
          }
          inClosed = true;
          in.close();
          partitioned = true;
        }
        while (true) {
          cancelCheck.run();
          if (probing != null) {
            Batch b;
            while ((b = probing.next()) != null) {
              Batch out = prober.apply(b);
              if (out.size() > 0) {
                return out;
              }
              cancelCheck.run();
            }
            probing.close();
            probing = null;
            if (matches != null) {
              tail = matches.unmatched(probeTypes, batchSize).iterator();
            }
          }
          if (tail != null && tail.hasNext()) {
            return tail.next();
          }
          tail = null;
          if (p >= 0) { // the partition is done: its files go
            build[p].close();
            probe[p].close();
          }
          if (++p == PARTITIONS) {
            acct.resize(0);
            return null;
          }
          List<Batch> rows = new ArrayList<>();
          try (BatchIterator r = build[p].read()) {
            Batch b;
            while ((b = r.next()) != null) {
              rows.add(b);
            }
          }
          JoinTable table = JoinTable.build(buildTypes, join.buildKeys(), rows);
          matches = join.kind().emitsBuildRows() ? new BuildMatches(table) : null; // FULL: the others do not spill
          acct.resize(table.bytes() + (matches == null ? 0 : matches.bytes()));
          prober = new HashJoinProbe(join.kind(), table, probeTypes, join.probeKeys(), join.residual(), matches);
          probing = probe[p].read();
        }
      }

      @Override public void close() throws IOException {
        try {
          if (probing != null) {
            probing.close();
          }
          if (!inClosed) {
            inClosed = true;
            in.close();
          }
        } finally {
          acct.resize(0);
          GraceJoin.this.close();
        }
      }
    };
  }

  /** Deletes every file left. */
  @Override public void close() throws IOException {
    IOException first = null;
    for (SpillStore.SpillFile[] files : List.of(build, probe)) {
      for (SpillStore.SpillFile f : files) {
        if (f != null) {
          try {
            f.close();
          } catch (IOException e) {
            if (first == null) {
              first = e;
            }
          }
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
