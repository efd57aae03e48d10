package dev.travertine.mergetree;

import dev.travertine.mergetree.merge.MergeSelector;
import dev.travertine.mergetree.merge.PartMerger;
import dev.travertine.mergetree.mutation.CompiledMutation;
import dev.travertine.mergetree.part.PartInfo;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.settings.Settings;
import dev.travertine.mergetree.settings.TableSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table's merges (ClickHouse's MergeTreeDataMergerMutator, its merging half): chooses parts to
 * merge per partition, runs background merges, OPTIMIZE, and tracks the merges in progress for
 * system.merges. The table's state, locks and commits stay the table's; this class reaches them
 * as a package neighbour, as {@link TableMutations} does.
 */
final class TableMerges {
  private static final Logger LOG = LoggerFactory.getLogger(TableMerges.class);

  private final MergeTreeTable t;
  private final List<MergeTreeTable.RunningMerge> running = new CopyOnWriteArrayList<>();

  TableMerges(MergeTreeTable table) {
    this.t = table;
  }

  /** The merges in progress, for system.merges. */
  List<MergeTreeTable.RunningMerge> running() {
    return List.copyOf(running);
  }

  /** Starts background merges the selector finds worthwhile (no-op when background is off). */
  void schedule() {
    if (!t.ctx.backgroundEnabled() || t.mergesStopped || t.closed || t.readOnly()) {
      return;
    }
    List<PartRef> chosen;
    synchronized (t.lock) {
      chosen = selectLocked();
      if (chosen.isEmpty()) {
        return;
      }
      chosen.forEach(p -> p.setMerging(true));
    }
    try {
      t.ctx.background().execute(() -> {
        try {
          merge(chosen);
        } catch (Exception e) {
          if (!t.closed && !t.backgroundCancelled) {
            LOG.warn("Background merge of {} in table {} failed: {}", names(chosen), t.definition().name(), e.toString());
          } else {
            LOG.debug("Background merge of {} in table {} stopped: {}", names(chosen), t.definition().name(), e.toString());
          }
        } finally {
          chosen.forEach(p -> p.setMerging(false));
        }
        schedule();
        t.scheduleMutations();
      });
    } catch (RejectedExecutionException e) {
      chosen.forEach(p -> p.setMerging(false));
    }
  }

  private List<PartRef> selectLocked() {
    TableSettings ts = t.definition().tableSettings();
    Map<String, List<PartRef>> byPartition = new LinkedHashMap<>();
    for (PartRef p : t.state.parts()) {
      byPartition.computeIfAbsent(p.info().partitionId(), k -> new ArrayList<>()).add(p);
    }
    for (List<PartRef> ps : byPartition.values()) {
      List<MergeSelector.Candidate> cands = ps.stream()
          .map(p -> new MergeSelector.Candidate(p.name(), p.info().bytesOnDisk(), p.info().rows(), p.merging()))
          .toList();
      List<MergeSelector.Candidate> sel = MergeSelector.select(cands,
          (int) ts.getLong(Settings.MAX_PARTS_TO_MERGE_AT_ONCE),
          ts.getLong(Settings.MAX_BYTES_TO_MERGE_AT_MAX_SPACE),
          ts.getLong(Settings.MERGE_SELECTOR_BASE));
      if (!sel.isEmpty()) {
        Set<String> names = new HashSet<>();
        sel.forEach(c -> names.add(c.name()));
        return ps.stream().filter(p -> names.contains(p.name())).toList();
      }
    }
    return List.of();
  }

  /** Merges parts of one partition into one and commits the swap. */
  void merge(List<PartRef> sources) throws IOException {
    TableDefinition def = t.definition();
    long minBlock = sources.stream().mapToLong(p -> p.info().minBlock()).min().orElseThrow();
    long maxBlock = sources.stream().mapToLong(p -> p.info().maxBlock()).max().orElseThrow();
    int level = sources.stream().mapToInt(p -> p.info().level()).max().orElseThrow() + 1;
    String pid = sources.get(0).info().partitionId();
    // Each source gets the mutations it still needs (up to the latest one now); the result's
    // version then covers them. A mutation committed later still applies to the merged part.
    Map<PartRef, List<CompiledMutation>> pending = new IdentityHashMap<>();
    long dataVersion = sources.stream().mapToLong(p -> p.info().dataVersion()).max().orElseThrow();
    synchronized (t.lock) {
      MergeTreeTable.State s = t.state;
      long latest = s.latestLiveMutation();
      for (PartRef p : sources) {
        pending.put(p, t.compiled(s.pendingFor(p.info(), latest)));
      }
      if (latest > minBlock) {
        dataVersion = Math.max(dataVersion, latest);
      }
    }
    String name = PartInfo.partName(pid, minBlock, maxBlock, level, dataVersion);
    long totalRows = sources.stream().mapToLong(p -> p.info().rows()).sum();
    MergeTreeTable.RunningMerge rm = new MergeTreeTable.RunningMerge(def.name(), name, names(sources), t.ctx.clock().millis(), totalRows);
    running.add(rm);
    try {
      Set<String> direct = new HashSet<>();
      sources.forEach(p -> direct.addAll(p.directStrings()));
      Runnable seam = duringMerge;
      PartRef merged = t.partWriter.writePart(def, name, pid, minBlock, maxBlock, level, dataVersion, totalRows, direct,
          w -> {
            if (seam != null) {
              seam.run();
            }
            PartMerger.merge(def, sources, pending::get, w);
          }, true);
      try {
        t.commit("merge", List.of(merged), sources, false);
      } catch (IOException | RuntimeException e) {
        t.partWriter.discard(List.of(merged));
        throw e;
      }
      t.ctx.events().add(EngineEvents.MERGES, 1);
      t.ctx.events().add(EngineEvents.MERGED_ROWS, totalRows);
      LOG.debug("Merged {} into {} ({} rows)", names(sources), name, totalRows);
    } finally {
      running.remove(rm);
    }
  }

  private static List<String> names(List<PartRef> ps) {
    return ps.stream().map(PartRef::name).toList();
  }

  /** Tests only: runs in each merge after its part file is opened, before it writes rows. */
  volatile Runnable duringMerge;

  /** Tests only: runs in OPTIMIZE between its wait for merges and its choice of parts. */
  volatile Runnable beforeOptimizeChoice;

  /**
   * OPTIMIZE TABLE: flushes the buffer, then merges now. With {@code fin}, each partition ends
   * as one part; without, merges run until the selector finds nothing more.
   */
  void optimize(boolean fin) throws IOException {
    t.ensureWritable();
    t.flush();
    waitForMerges();
    while (true) {
      Runnable seam = beforeOptimizeChoice;
      if (seam != null) {
        seam.run();
      }
      List<PartRef> chosen;
      synchronized (t.lock) {
        if (fin && t.state.parts().stream().anyMatch(PartRef::merging)) {
          // a background merge started after the wait: merging its parts too would write the same
          // part name twice, and the loser's clean-up would delete the winner's file
          chosen = null;
        } else if (fin) {
          Map<String, List<PartRef>> byPartition = new LinkedHashMap<>();
          for (PartRef p : t.state.parts()) {
            byPartition.computeIfAbsent(p.info().partitionId(), k -> new ArrayList<>()).add(p);
          }
          chosen = byPartition.values().stream().filter(l -> l.size() > 1).findFirst().orElse(List.of());
        } else {
          chosen = selectLocked();
        }
        if (chosen != null && chosen.isEmpty()) {
          return;
        }
        if (chosen != null) {
          chosen.forEach(p -> p.setMerging(true));
        }
      }
      if (chosen == null) {
        waitForMerges();
        continue;
      }
      try {
        merge(chosen);
      } finally {
        chosen.forEach(p -> p.setMerging(false));
      }
    }
  }

  void waitForMerges() {
    while (!running.isEmpty() || t.state.parts().stream().anyMatch(PartRef::merging)) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for merges", e);
      }
    }
  }
}
