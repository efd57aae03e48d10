package dev.travertine.mergetree;

import dev.travertine.mergetree.mutation.CompiledMutation;
import dev.travertine.mergetree.mutation.MutationCommand;
import dev.travertine.mergetree.mutation.MutationEntry;
import dev.travertine.mergetree.mutation.MutationRecord;
import dev.travertine.mergetree.mutation.PartRewriter;
import dev.travertine.mergetree.part.PartInfo;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.scan.ScanRequest;
import dev.travertine.mergetree.scan.TableScanner;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.settings.Settings;
import dev.travertine.vector.Batch;
import dev.travertine.vector.Predicate;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table's mutations (ClickHouse's MergeTreeDataMergerMutator, its mutating half): records a
 * mutation in the metadata log, waits for it, kills it, reports it for system.mutations, and runs
 * the background worker that rewrites one part at a time with the mutations it still needs. The
 * table's state, locks and commits stay the table's; this class reaches them as a package
 * neighbour.
 */
final class TableMutations {
  private static final Logger LOG = LoggerFactory.getLogger(TableMutations.class);

  private final MergeTreeTable t;

  TableMutations(MergeTreeTable table) {
    this.t = table;
  }

  /**
   * Records a mutation: compiles (validates) it, flushes the insert buffer so every row inserted
   * before gets an older block, counts the rows it affects, and commits it with a new block
   * number in the metadata log. Reads apply it on the fly from then on; the worker rewrites the
   * parts in the background. With {@code sync}, returns only when every part is rewritten.
   */
  MergeTreeTable.MutationResult mutate(MutationCommand command, boolean sync) throws IOException {
    t.ensureOpen();
    TableDefinition def = t.definition();
    CompiledMutation compiled = t.ctx.mutationCompiler().compile(def.schema(), command);
    checkNotKey(def, compiled);
    long limit = def.tableSettings().getLong(Settings.NUMBER_OF_MUTATIONS_TO_THROW);
    if (limit > 0 && t.state.pendingMutations() >= limit) {
      throw new IllegalStateException("Too many unfinished mutations (" + t.state.pendingMutations() + ") in table "
          + def.name() + ": number_of_mutations_to_throw = " + limit + "; wait for them or KILL MUTATION");
    }
    MutationEntry entry;
    long affected;
    t.flushLock.lock();
    try {
      t.flush();
      affected = countMatching(compiled);
      synchronized (t.lock) {
        t.ensureOpen();
        long block = t.nextBlock++;
        MutationRecord rec = new MutationRecord(MutationRecord.idFor(block), block, t.ctx.clock().millis(),
            command, false);
        entry = new MutationEntry(rec, compiled);
        MergeTreeTable.State s = t.state;
        List<MutationEntry> ms = new ArrayList<>(s.mutations());
        ms.add(entry);
        t.appendLocked("mutation", List.of(), Set.of(), t.walFlushedUpTo, false, List.of(rec), s.withMutations(ms));
      }
    } finally {
      t.flushLock.unlock();
    }
    t.ctx.events().add(EngineEvents.MUTATIONS, 1);
    LOG.debug("Table {}: mutation {} ({}) recorded, {} rows affected", def.name(), entry.record().id(),
        command.text(), affected);
    schedule();
    if (sync) {
      await(entry);
    }
    return new MergeTreeTable.MutationResult(entry.record().id(), entry.block(), affected);
  }

  /** ClickHouse refuses to update key columns: rows would leave their sort order or partition. */
  private static void checkNotKey(TableDefinition def, CompiledMutation m) {
    for (int c : m.updated()) {
      String col = def.schema().column(c).name();
      for (int k : def.sortKeyIndexes()) {
        if (k == c) {
          throw new IllegalArgumentException("Cannot UPDATE key column " + col + " of table " + def.name()
              + ": it is in the ORDER BY/PRIMARY KEY (delete and insert the rows instead)");
        }
      }
      if (def.partitionBy() != null && def.partitionBy().column().equalsIgnoreCase(col)) {
        throw new IllegalArgumentException("Cannot UPDATE column " + col + " of table " + def.name()
            + ": it is in the PARTITION BY expression (delete and insert the rows instead)");
      }
    }
  }

  /** Rows the mutation matches now (after the mutations before it). */
  private long countMatching(CompiledMutation m) throws IOException {
    int[] cols = m.columns().stream().toArray();
    Predicate pruning = m.pruning();
    ScanRequest req = new ScanRequest(cols, pruning, -1, false, Settings.CORES, 1024, pruning != null);
    long n = 0;
    try (TableScanner scanner = TableScanner.open(t.snapshot(), req, t.ctx)) {
      Batch b;
      while ((b = scanner.next()) != null) {
        n += m.match(b.cols(), java.util.Arrays.copyOf(b.sel(), b.size()), b.size()); // (match narrows in place)
      }
    }
    return n;
  }

  /** Waits until a mutation is done (doing the work here when background work is off or stopped). */
  private void await(MutationEntry entry) throws IOException {
    String id = entry.record().id();
    while (true) {
      synchronized (t.lock) {
        MergeTreeTable.State s = t.state;
        MutationEntry now = s.mutations().stream().filter(m -> m.record().id().equals(id)).findFirst()
            .orElse(entry);
        if (now.killed()) {
          throw new IllegalStateException("Mutation " + id + " of table " + t.definition().name() + " was killed");
        }
        if (s.done(now)) {
          return;
        }
        if (entry.failReason() != null) {
          throw new IllegalStateException("Mutation " + id + " of table " + t.definition().name()
              + " failed on part " + entry.failedPart() + ": " + entry.failReason());
        }
        t.ensureOpen();
      }
      if (!t.ctx.backgroundEnabled() || t.mergesStopped) {
        if (!mutateOnePart()) {
          sleepBriefly(); // the parts left are being merged
        }
      } else {
        synchronized (t.lock) {
          try {
            t.lock.wait(50);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for mutation " + id, e);
          }
        }
      }
    }
  }

  private static void sleepBriefly() {
    try {
      Thread.sleep(5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted", e);
    }
  }

  /** KILL MUTATION: it stops applying (to reads and to parts not yet rewritten). False if already done. */
  boolean kill(String id) throws IOException {
    synchronized (t.lock) {
      MergeTreeTable.State s = t.state;
      List<MutationEntry> ms = new ArrayList<>(s.mutations());
      for (int i = 0; i < ms.size(); i++) {
        MutationEntry m = ms.get(i);
        if (m.record().id().equals(id)) {
          if (s.done(m)) {
            return false;
          }
          ms.set(i, m.asKilled());
          t.appendLocked("kill mutation", List.of(), Set.of(), t.walFlushedUpTo, false,
              List.of(m.record().asKilled()), s.withMutations(ms));
          return true;
        }
      }
    }
    throw new IllegalArgumentException("Unknown mutation " + id + " of table " + t.definition().name());
  }

  /** Every mutation kept, for system.mutations. */
  List<MergeTreeTable.MutationStatus> statuses() {
    MergeTreeTable.State s = t.state;
    List<MergeTreeTable.MutationStatus> out = new ArrayList<>();
    for (MutationEntry m : s.mutations()) {
      int todo = 0;
      for (PartRef p : s.parts()) {
        if (m.appliesTo(p.info().version())) {
          todo++;
        }
      }
      out.add(new MergeTreeTable.MutationStatus(m.record(), todo, !m.killed() && s.done(m), m.failedPart(), m.failTime(),
          m.failReason()));
    }
    return out;
  }

  private final java.util.concurrent.atomic.AtomicBoolean worker =
      new java.util.concurrent.atomic.AtomicBoolean();

  /** Starts the background mutation worker if mutations are pending (one per table). */
  void schedule() {
    if (!t.ctx.backgroundEnabled() || t.mergesStopped || t.closed || t.state.pendingMutations() == 0
        || !worker.compareAndSet(false, true)) {
      return;
    }
    try {
      t.ctx.background().execute(() -> {
        try {
          while (!t.closed && !t.mergesStopped && mutateOnePart()) {
            // one part at a time, so merges and reads interleave
          }
        } catch (Exception e) {
          if (!t.closed && !t.backgroundCancelled) {
            LOG.warn("Mutation of table {} failed: {}", t.definition().name(), e.toString());
          }
        } finally {
          worker.set(false);
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      worker.set(false);
    }
  }

  /**
   * Brings one part up to the latest mutation: rewrites it with the pending mutations applied, or,
   * when none of them can match its rows (statistics), only gives it the new data version. Returns
   * false when no part needs (or can take) work now.
   */
  boolean mutateOnePart() throws IOException {
    PartRef target = null;
    List<MutationEntry> todo;
    long latest;
    synchronized (t.lock) {
      MergeTreeTable.State s = t.state;
      if (s.pendingMutations() == 0 || t.closed) {
        return false;
      }
      latest = s.latestLiveMutation();
      for (PartRef p : s.parts()) {
        if (!p.merging() && p.info().version() < latest
            && (target == null || p.info().version() < target.info().version())) {
          target = p;
        }
      }
      if (target == null) {
        return false;
      }
      target.setMerging(true);
      todo = s.pendingFor(target.info(), latest);
    }
    PartRef part = target;
    try {
      rewrite(part, t.compiled(todo), latest);
      todo.forEach(MutationEntry::succeeded);
      return true;
    } catch (java.util.concurrent.CancellationException e) {
      throw e; // the database is closing: not a failure of the mutation, which resumes at the next open
    } catch (IOException | RuntimeException e) {
      todo.forEach(m -> m.failed(part.name(), e.getMessage(), t.ctx.clock().millis()));
      throw e;
    } finally {
      part.setMerging(false);
    }
  }

  private void rewrite(PartRef part, List<CompiledMutation> mutations, long version) throws IOException {
    TableDefinition def = t.definition();
    PartInfo info = part.info();
    if (!PartRewriter.touches(def, part, mutations)) {
      PartRef same = part.reversioned(info.withDataVersion(version));
      try {
        t.commit("mutation", List.of(same), List.of(part), false);
      } catch (IOException | RuntimeException e) {
        same.release();
        throw e;
      }
      t.ctx.events().add(EngineEvents.MUTATION_REVERSIONED_PARTS, 1);
      return;
    }
    String name = PartInfo.partName(info.partitionId(), info.minBlock(), info.maxBlock(), info.level(), version);
    long[] kept = new long[1];
    PartRef written = t.partWriter.writePart(def, name, info.partitionId(), info.minBlock(), info.maxBlock(), info.level(),
        version, info.rows(), part.directStrings(), w -> kept[0] = PartRewriter.rewriteRows(def, part, mutations, w),
        true);
    List<PartRef> add = kept[0] == 0 ? List.of() : List.of(written);
    try {
      t.commit("mutation", add, List.of(part), false);
    } catch (IOException | RuntimeException e) {
      t.partWriter.discard(List.of(written));
      throw e;
    }
    if (kept[0] == 0) {
      t.partWriter.discard(List.of(written)); // every row deleted: the part just goes
    }
    t.ctx.events().add(EngineEvents.MUTATED_PARTS, 1);
    t.ctx.events().add(EngineEvents.MUTATED_ROWS, info.rows());
  }
}
