package dev.travertine.mergetree;

import dev.travertine.io.FileIO;
import dev.travertine.io.FileInfo;
import dev.travertine.io.hadoop.FileIOFileSystem;
import dev.travertine.io.local.LocalFileIO;
import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.block.BlockCodec;
import dev.travertine.mergetree.block.IntSort;
import dev.travertine.mergetree.check.DetachedParts;
import dev.travertine.mergetree.check.PartChecker;
import dev.travertine.mergetree.log.LogEntry;
import dev.travertine.mergetree.log.MetadataLog;
import dev.travertine.mergetree.merge.MergeSelector;
import dev.travertine.mergetree.merge.PartMerger;
import dev.travertine.mergetree.mutation.CompiledMutation;
import dev.travertine.mergetree.mutation.MutationCommand;
import dev.travertine.mergetree.mutation.MutationEntry;
import dev.travertine.mergetree.mutation.MutationRecord;
import dev.travertine.mergetree.part.OldParts;
import dev.travertine.mergetree.part.OrcSupport;
import dev.travertine.mergetree.part.PartInfo;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.part.PartWriter;
import dev.travertine.mergetree.part.ValueCodec;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.PartitionExpression;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.mergetree.settings.Settings;
import dev.travertine.mergetree.settings.TableSettings;
import dev.travertine.mergetree.wal.WriteAheadLog;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One MergeTree table: its active parts (from the metadata log), its WAL-backed insert buffer,
 * and the background work that flushes the buffer and merges parts. Readers take a
 * {@link TableSnapshot}; writers commit through {@link #commit}, the only place the active set
 * changes. Thread-safe.
 */
public final class MergeTreeTable implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MergeTreeTable.class);

  /**
   * The immutable state readers see: parts, buffer, and mutations (block order) with the count of
   * pending ones (not killed, needed by some part) — the counter that lets reads skip all lookups.
   */
  record State(List<PartRef> parts, List<Block> buffered, long bufferedRows, long bufferedBytes,
      long oldestBufferedMillis, List<MutationEntry> mutations, int pendingMutations) {

    static State of(List<PartRef> parts, List<Block> buffered, long rows, long bytes, long oldest,
        List<MutationEntry> mutations) {
      long min = minVersion(parts);
      int pending = 0;
      for (MutationEntry m : mutations) {
        if (m.appliesTo(min)) {
          pending++;
        }
      }
      return new State(parts, buffered, rows, bytes, oldest, mutations, pending);
    }

    State withBuffer(List<Block> buf, long rows, long bytes, long oldest) {
      return new State(parts, buf, rows, bytes, oldest, mutations, pendingMutations);
    }

    State withParts(List<PartRef> ps) {
      return of(ps, buffered, bufferedRows, bufferedBytes, oldestBufferedMillis, mutations);
    }

    /** A read-only table's state: the parts and mutations its writer's log holds, no buffer. */
    static State ofLog(List<PartRef> parts, MetadataLog.State log) {
      List<MutationEntry> mutations = new ArrayList<>();
      log.mutations().forEach(m -> mutations.add(new MutationEntry(m, null)));
      return of(List.copyOf(parts), List.of(), 0, 0, 0, List.copyOf(mutations));
    }

    State withMutations(List<MutationEntry> ms) {
      return of(parts, buffered, bufferedRows, bufferedBytes, oldestBufferedMillis, List.copyOf(ms));
    }

    /** The largest block of a mutation that is not killed (0 if none). */
    long latestLiveMutation() {
      for (int i = mutations.size() - 1; i >= 0; i--) {
        if (!mutations.get(i).killed()) {
          return mutations.get(i).block();
        }
      }
      return 0;
    }

    /** Live mutations a part still needs, up to block {@code upTo}, in order. */
    List<MutationEntry> pendingFor(PartInfo p, long upTo) {
      List<MutationEntry> out = new ArrayList<>();
      for (MutationEntry m : mutations) {
        if (m.appliesTo(p.version()) && m.block() <= upTo) {
          out.add(m);
        }
      }
      return out;
    }

    boolean done(MutationEntry m) {
      return m.killed() || m.block() <= minVersion(parts);
    }
  }

  private static long minVersion(List<PartRef> parts) {
    long min = Long.MAX_VALUE;
    for (PartRef p : parts) {
      min = Math.min(min, p.info().version());
    }
    return min;
  }

  /** ClickHouse's switch before PR #60856, for benchmarks: false makes every read look mutations up. */
  private static volatile boolean pendingCounterEnabled = true;

  public static void setPendingMutationCounterEnabled(boolean enabled) {
    pendingCounterEnabled = enabled;
  }

  /** What a mutation statement returns. */
  public record MutationResult(String mutationId, long block, long affectedRows) {}

  /** A mutation as system.mutations shows it. */
  public record MutationStatus(MutationRecord record, int partsToDo, boolean done, String failedPart,
      long failTime, String failReason) {}

  /** A merge in progress, for system.merges. */
  public record RunningMerge(String table, String resultPart, List<String> sourceParts, long startMillis,
      long totalRows) {}

  private final String id;
  private volatile TableDefinition definition;
  final FileIO io;
  final FileIOFileSystem fs;
  final MetadataLog log;
  private final WriteAheadLog wal;
  final EngineContext ctx;
  final Object lock = new Object();
  final ReentrantLock flushLock = new ReentrantLock();
  volatile State state;
  long logSeq;
  long nextBlock;
  private long walSeq;
  long walFlushedUpTo;
  volatile boolean mergesStopped;
  /** Set when the database closes: running merges and mutations give up at their next block. */
  volatile boolean backgroundCancelled;
  volatile boolean closed;
  private final DetachedParts detached;
  private final TableMutations mutator = new TableMutations(this);
  final TableMerges merger = new TableMerges(this);
  final TablePartWriter partWriter = new TablePartWriter(this);
  /** Attached read-only from another node's storage: this node never writes or deletes there. */
  private final boolean readOnly;
  /** For a read-only table: what catches it up with its writer; null otherwise. */
  private TableFollower follower;
  final OldParts oldParts;

  /** Where a table's definition is published in its storage, for nodes that attach it. */
  public static final String DEFINITION_FILE = "table.json";

  private MergeTreeTable(String id, TableDefinition definition, FileIO io, Path walDir, EngineContext ctx,
      boolean fsync, boolean readOnly) throws IOException {
    this.id = id;
    this.definition = definition;
    this.readOnly = readOnly;
    this.oldParts = readOnly ? OldParts.NEVER_DELETE : new OldParts(io, ctx.clock(),
        () -> 1000L * this.definition.tableSettings().getLong(Settings.OLD_PARTS_LIFETIME));
    this.io = io;
    this.fs = OrcSupport.fileSystem(io);
    this.ctx = ctx;
    this.log = new MetadataLog(io, "table " + definition.name());
    this.detached = new DetachedParts(io);
    this.wal = new WriteAheadLog(walDir,
        fsync && definition.tableSettings().getBool(Settings.FSYNC_AFTER_INSERT));
  }

  /**
   * Opens (or creates, when its storage is empty) a table: replays the log, then the WAL. The WAL
   * is forced to disk per {@code fsync_after_insert} only when {@code fsync} (the database's
   * {@code storage.fsync}) is on.
   */
  public static MergeTreeTable open(String id, TableDefinition definition, FileIO io, Path walDir,
      EngineContext ctx, boolean fsync) throws IOException {
    MergeTreeTable t = new MergeTreeTable(id, definition, io, walDir, ctx, fsync, false);
    t.recover();
    return t;
  }

  /**
   * Opens a table that another node writes, read-only (ATTACH TABLE … FROM), with the definition
   * its writer published ({@link #readPublishedDefinition}): its metadata log is re-read for
   * every snapshot, so queries see what the writer has committed; nothing is written or deleted
   * in its storage. {@code walDir} is a local directory that stays empty.
   */
  public static MergeTreeTable openReadOnly(String id, TableDefinition definition, FileIO io, Path walDir,
      EngineContext ctx) throws IOException {
    MergeTreeTable t = new MergeTreeTable(id, definition, io, walDir, ctx, false, true);
    t.recover();
    return t;
  }

  /** Whether the table is attached read-only from another node's storage. */
  public boolean readOnly() {
    return readOnly;
  }

  /** Writes the definition where nodes that attach the table read it (the writer, at open and DDL). */
  public void publishDefinition() throws IOException {
    if (!readOnly) {
      io.writeAtomic(DEFINITION_FILE, MetadataLog.JSON.writeValueAsBytes(definition));
    }
  }

  /** Reads the definition a table's writer published at a storage location. */
  public static TableDefinition readPublishedDefinition(FileIO io) throws IOException {
    if (!io.exists(DEFINITION_FILE)) {
      throw new java.io.FileNotFoundException("No Travertine table at " + io.location() + " (no " + DEFINITION_FILE
          + "; the location is a table's directory: <storage>/tables/<uuid>, see system.tables)");
    }
    try {
      return MetadataLog.JSON.readValue(io.readAll(DEFINITION_FILE), TableDefinition.class);
    } catch (IOException e) {
      throw new IOException("Cannot read the definition of the table at " + io.location() + ": " + e.getMessage(), e);
    }
  }

  /** Deletes files of replaced parts whose {@code old_parts_lifetime} is over (the database's timer). */
  public int removeOldParts() {
    return oldParts.removeExpired();
  }

  /** Files of replaced parts kept for their lifetime. */
  public int oldPartFiles() {
    return oldParts.waiting();
  }

  void ensureWritable() {
    if (readOnly) {
      throw new ReadOnlyTableException("Table " + definition.name() + " is attached read-only from "
          + io.location() + ": change it on the node that writes it");
    }
  }

  private void recover() throws IOException {
    MetadataLog.State s = readOnly ? log.catchUp(null) : log.replay();
    List<PartRef> parts = new ArrayList<>();
    for (PartInfo p : s.active().values()) {
      parts.add(new PartRef(p, io, fs, null, oldParts));
    }
    List<MutationEntry> mutations = new ArrayList<>();
    s.mutations().forEach(m -> mutations.add(new MutationEntry(m, null)));
    parts.sort(PART_ORDER);
    logSeq = s.lastSeq();
    nextBlock = s.nextBlock();
    walFlushedUpTo = s.walFlushedUpTo();
    if (readOnly) {
      follower = new TableFollower(this, s);
      state = State.ofLog(parts, s);
      return;
    }
    // Files that no committed entry references are leftovers of interrupted writes or merges.
    Set<String> live = new HashSet<>();
    parts.forEach(p -> live.add(p.info().path()));
    Map<String, Long> sizes = new HashMap<>();
    for (FileInfo f : io.list("parts")) {
      if (!live.contains(f.path())) {
        LOG.info("Removing unreferenced file {} of table {}", f.path(), definition.name());
        io.delete(f.path());
      } else {
        sizes.put(f.path(), f.length());
      }
    }
    if (io instanceof LocalFileIO local) {
      local.removeTemporaryFiles("parts");
    }
    List<Block> buffered = new ArrayList<>();
    long[] rowsBytes = new long[2];
    walSeq = wal.replay(walFlushedUpTo, (seq, payload) -> {
      Block b = BlockCodec.decode(definition.schema(), payload);
      buffered.add(b);
      rowsBytes[0] += b.rows();
      rowsBytes[1] += b.estimatedBytes();
    });
    walSeq = Math.max(walSeq, walFlushedUpTo);
    if (!buffered.isEmpty()) {
      LOG.info("Table {}: replayed {} rows from the write-ahead log", definition.name(), rowsBytes[0]);
    }
    state = State.of(List.copyOf(parts), List.copyOf(buffered), rowsBytes[0], rowsBytes[1],
        buffered.isEmpty() ? 0 : ctx.clock().millis(), List.copyOf(mutations));
    if (state.pendingMutations() > 0) {
      LOG.info("Table {}: {} unfinished mutations continue", definition.name(), state.pendingMutations());
    }
    // A part whose file is gone or has another size cannot be read: aside with it, the rest stays readable.
    Map<PartRef, String> broken = new LinkedHashMap<>();
    for (PartRef p : parts) {
      Long size = sizes.get(p.info().path());
      if (size == null) {
        broken.put(p, "file " + p.info().path() + " is missing");
      } else if (size != p.info().bytesOnDisk()) {
        broken.put(p, "file " + p.info().path() + " has " + size + " bytes, the part was written with "
            + p.info().bytesOnDisk());
      }
    }
    if (!broken.isEmpty()) {
      moveAside(broken, DetachedParts.BROKEN_ON_START);
    }
  }

  static final Comparator<PartRef> PART_ORDER = Comparator
      .comparing((PartRef p) -> p.info().partitionId())
      .thenComparingLong(p -> p.info().minBlock())
      .thenComparingLong(p -> p.info().maxBlock());

  public String id() {
    return id;
  }

  public TableDefinition definition() {
    return definition;
  }

  /** Replaces the definition (index DDL); schema and keys must not change. */
  public void setDefinition(TableDefinition d) {
    this.definition = d;
  }

  /**
   * ALTER TABLE … ADD/DROP/RENAME/MODIFY COLUMN: a metadata change. Refused while mutations are
   * unfinished (their text names the old columns). The insert buffer is flushed first (its rows
   * have the old schema); parts keep their files and are read through their column mapping.
   * {@code persist} saves the catalog; if it fails, nothing changed.
   */
  public void alterSchema(TableDefinition next, IoAction persist) throws IOException {
    ensureWritable();
    flushLock.lock();
    try {
      int pending = state.pendingMutations();
      if (pending > 0) {
        throw new IllegalStateException("Cannot ALTER columns of table " + definition.name() + " while " + pending
            + " mutations are unfinished: wait for them (SET mutations_sync = 1) or KILL MUTATION");
      }
      flush();
      synchronized (lock) {
        while (!state.buffered().isEmpty()) {
          flush(); // rows buffered meanwhile
        }
        TableDefinition old = definition;
        definition = next;
        try {
          persist.run();
        } catch (IOException | RuntimeException e) {
          definition = old;
          throw e;
        }
        // An entry of its own tells nodes that attached the table to read the definition again;
        // the ALTER has taken effect already (catalog saved), so failing to log it only delays them.
        try {
          appendLocked("alter", List.of(), Set.of(), walFlushedUpTo, false, List.of(), state);
        } catch (IOException | RuntimeException e) {
          LOG.warn("Table {}: the ALTER is done, but nodes that attached the table see it only after the next commit:"
              + " {}", definition.name(), e.toString());
        }
      }
    } finally {
      flushLock.unlock();
    }
  }

  /** An action that may fail with an IOException. */
  public interface IoAction {
    void run() throws IOException;
  }

  public EngineContext context() {
    return ctx;
  }

  /** Where the table's parts and metadata log are (what another node opens to read its parts). */
  public String storageLocation() {
    return io.location();
  }

  /** A consistent view for one query; close it afterwards. */
  public TableSnapshot snapshot() {
    if (follower != null) {
      follower.catchUp(false);
    }
    synchronized (lock) {
      State s = state;
      List<MutationEntry> ms = s.pendingMutations() > 0 || !pendingCounterEnabled ? s.mutations() : null;
      return new TableSnapshot(definition, s.parts(), s.buffered(), ms, ctx.mutationCompiler());
    }
  }

  /**
   * A table attached read-only catches up with its writer, definition included: true when the
   * definition changed (plans made before are stale). What a statement does before it is planned.
   */
  public boolean refreshFromWriter() {
    return follower != null && follower.refresh();
  }

  /** Active parts now (no reference taken; for system tables). */
  public List<PartInfo> activeParts() {
    return state.parts().stream().map(PartRef::info).toList();
  }

  public long bufferedRows() {
    return state.bufferedRows();
  }

  public List<RunningMerge> runningMerges() {
    return merger.running();
  }

  // ---------------------------------------------------------------- inserts

  /** Starts an INSERT: add blocks, then commit once (all rows visible together) or close to abort. */
  public Inserter newInserter(long maxInsertBlockSize) {
    ensureWritable();
    return new Inserter(this, maxInsertBlockSize);
  }

  /** Appends a small insert to the WAL and the buffer; durable and visible when this returns. */
  void insertBuffered(Block block) throws IOException {
    ensureOpen();
    ensureWritable();
    partWriter.checkSchema(block);
    byte[] payload = BlockCodec.encode(block);
    boolean flushNow;
    synchronized (lock) {
      long seq = ++walSeq;
      wal.append(seq, payload);
      State s = state;
      List<Block> buf = new ArrayList<>(s.buffered().size() + 1);
      buf.addAll(s.buffered());
      buf.add(block);
      long rows = s.bufferedRows() + block.rows();
      long bytes = s.bufferedBytes() + block.estimatedBytes();
      state = s.withBuffer(Collections.unmodifiableList(buf), rows, bytes,
          s.buffered().isEmpty() ? ctx.clock().millis() : s.oldestBufferedMillis());
      TableSettings ts = definition.tableSettings();
      flushNow = rows >= ts.getLong(Settings.INSERT_BUFFER_MAX_ROWS)
          || bytes >= ts.getLong(Settings.INSERT_BUFFER_MAX_BYTES);
    }
    ctx.events().add(EngineEvents.WAL_RECORDS, 1);
    if (flushNow) {
      flush();
    }
  }

  /** Whether the buffer is older than its flush interval (checked by the database's timer). */
  public boolean flushDue() {
    State s = state;
    return !s.buffered().isEmpty() && ctx.clock().millis() - s.oldestBufferedMillis()
        >= definition.tableSettings().getLong(Settings.INSERT_BUFFER_FLUSH_MS);
  }

  /** Writes the buffered rows into parts and commits them. */
  public void flush() throws IOException {
    if (readOnly) {
      return; // nothing is ever buffered
    }
    flushLock.lock();
    try {
      List<Block> toFlush;
      long upTo;
      synchronized (lock) {
        toFlush = state.buffered();
        if (toFlush.isEmpty()) {
          return;
        }
        upTo = walSeq;
        wal.rotate();
      }
      List<PartRef> written = partWriter.writeParts(toFlush, 0);
      try {
        synchronized (lock) {
          State s = state;
          List<Block> rest = new ArrayList<>(s.buffered().subList(toFlush.size(), s.buffered().size()));
          long rows = rest.stream().mapToLong(Block::rows).sum();
          long bytes = rest.stream().mapToLong(Block::estimatedBytes).sum();
          commitLocked("flush", written, List.of(), upTo, false,
              s.withBuffer(List.copyOf(rest), rows, bytes, rest.isEmpty() ? 0 : ctx.clock().millis()));
        }
      } catch (IOException | RuntimeException e) {
        partWriter.discard(written);
        throw e;
      }
      ctx.events().add(EngineEvents.BUFFER_FLUSHES, 1);
      wal.deleteUpTo(upTo);
    } finally {
      flushLock.unlock();
    }
    scheduleMerges();
  }

  // ---------------------------------------------------------------- commits

  /** Commits a change of the active set in one log entry; the removed parts must be active. */
  void commit(String op, List<PartRef> add, List<PartRef> remove, boolean truncate) throws IOException {
    synchronized (lock) {
      State s = state;
      commitLocked(op, add, remove, walFlushedUpTo, truncate, s);
    }
  }

  private void commitLocked(String op, List<PartRef> add, List<PartRef> remove, long walUpTo, boolean truncate,
      State base) throws IOException {
    ensureOpen();
    if (op.equals("insert") || op.equals("flush")) {
      add = versionNewParts(add, base);
    }
    Set<String> removeNames = new HashSet<>();
    remove.forEach(p -> removeNames.add(p.name()));
    List<PartRef> removed = new ArrayList<>();
    for (PartRef p : base.parts()) {
      if (truncate || removeNames.contains(p.name())) {
        removed.add(p);
      }
    }
    if (!truncate && removed.size() != removeNames.size()) {
      throw new IllegalStateException("Cannot commit " + op + ": some replaced parts are no longer active");
    }
    List<PartRef> parts = new ArrayList<>(base.parts());
    parts.removeAll(removed);
    for (PartRef p : add) {
      for (PartRef q : parts) {
        if (p.info().overlaps(q.info())) {
          throw new IllegalStateException("Cannot commit " + op + " of table " + definition.name() + ": new part "
              + p.name() + " overlaps active part " + q.name() + " (a merge must take neighbouring parts)");
        }
      }
    }
    parts.addAll(add);
    parts.sort(PART_ORDER);
    appendLocked(op, add, removeNames, walUpTo, truncate, List.of(), base.withParts(List.copyOf(parts)));
    removed.forEach(PartRef::release);
  }

  /** Writes one log entry and, once it is durable, makes {@code next} the state. */
  void appendLocked(String op, List<PartRef> add, Set<String> removeNames, long walUpTo, boolean truncate,
      List<MutationRecord> mutationChanges, State next) throws IOException {
    ensureWritable();
    long seq = logSeq + 1;
    long newWal = Math.max(walFlushedUpTo, walUpTo);
    LogEntry e = new LogEntry(seq, ctx.clock().millis(), op, add.stream().map(PartRef::info).toList(),
        List.copyOf(removeNames), newWal, nextBlock, truncate, false, mutationChanges);
    log.append(e);
    logSeq = seq;
    walFlushedUpTo = newWal;
    state = next;
    lock.notifyAll(); // mutations_sync waiters
    if (MetadataLog.checkpointDue(seq)) {
      State kept = next.withMutations(keptMutations(next));
      state = kept;
      try {
        log.checkpoint(seq, kept.parts().stream().map(PartRef::info).toList(), walFlushedUpTo, nextBlock,
            ctx.clock().millis(), kept.mutations().stream().map(MutationEntry::record).toList());
      } catch (IOException | RuntimeException cpFailed) {
        // The entry is committed: its caller must not undo it. Replay reads the entries instead.
        LOG.warn("Cannot checkpoint the metadata log of table {} at entry {} (the next checkpoint will): {}",
            definition.name(), seq, cpFailed.toString());
      }
    }
  }

  /** Unfinished mutations and the newest finished_mutations_to_keep finished ones. */
  private List<MutationEntry> keptMutations(State s) {
    long keep = definition.tableSettings().getLong(Settings.FINISHED_MUTATIONS_TO_KEEP);
    List<MutationEntry> out = new ArrayList<>();
    long finished = 0;
    for (int i = s.mutations().size() - 1; i >= 0; i--) {
      MutationEntry m = s.mutations().get(i);
      if (!s.done(m) || finished++ < keep) {
        out.add(0, m);
      }
    }
    return out;
  }

  /**
   * Parts of an insert whose block was allocated before a mutation committed come after it:
   * they get that mutation's block as data version (same file), so it does not apply to them.
   */
  private List<PartRef> versionNewParts(List<PartRef> add, State base) {
    long latest = base.latestLiveMutation();
    List<PartRef> out = new ArrayList<>(add.size());
    for (PartRef p : add) {
      if (p.info().version() < latest) {
        PartRef v = p.reversioned(p.info().withDataVersion(latest));
        p.release();
        out.add(v);
      } else {
        out.add(p);
      }
    }
    return out;
  }

  /** TRUNCATE: drops every part and the buffer. */
  public void truncate() throws IOException {
    ensureWritable();
    flushLock.lock();
    try {
      merger.waitForMerges();
      synchronized (lock) {
        State s = state;
        wal.clear();
        commitLocked("truncate", List.of(), List.of(), walSeq, true, s.withBuffer(List.of(), 0, 0, 0));
      }
    } finally {
      flushLock.unlock();
    }
  }

  // ---------------------------------------------------------------- merges

  /** SYSTEM STOP/START MERGES: stops background merges and mutations (as in ClickHouse). */
  public void stopMerges(boolean stop) {
    mergesStopped = stop;
    if (!stop) {
      scheduleMerges();
      scheduleMutations();
    }
  }

  public boolean mergesStopped() {
    return mergesStopped;
  }

  /**
   * For closing: stops merges and mutations and makes the running ones give up at their next
   * block (their unfinished parts are never published). Their sources stay active, so the next
   * open of the table schedules the same work again.
   */
  public void cancelBackgroundWork() {
    mergesStopped = true;
    backgroundCancelled = true;
  }

  /** Starts background merges the selector finds worthwhile (no-op when background is off). */
  public void scheduleMerges() {
    merger.schedule();
  }

  /**
   * OPTIMIZE TABLE: flushes the buffer, then merges now. With {@code fin}, each partition ends
   * as one part; without, merges run until the selector finds nothing more.
   */
  public void optimize(boolean fin) throws IOException {
    merger.optimize(fin);
  }

  List<CompiledMutation> compiled(List<MutationEntry> entries) {
    List<CompiledMutation> out = new ArrayList<>(entries.size());
    for (MutationEntry m : entries) {
      out.add(m.compiled(ctx.mutationCompiler(), definition.schema()));
    }
    return out;
  }

  // ---------------------------------------------------------------- checks

  /** One row of CHECK TABLE: a part and what its check found (null message: passed). */
  public record PartCheck(String partPath, boolean passed, String message) {}

  /**
   * CHECK TABLE: verifies every active part from storage ({@link PartChecker}) and that no two
   * cover a common block. A broken part is moved aside to {@code detached/}, so the table stays
   * readable without it; overlapping parts are reported and kept (each holds rows the other lacks).
   *
   * @param cancelled polled while reading (it may throw the query's own error instead)
   * @param moveAside false reports broken parts only (a readonly session)
   */
  public List<PartCheck> check(BooleanSupplier cancelled, boolean moveAside) throws IOException {
    ensureOpen();
    List<PartCheck> out = new ArrayList<>();
    Map<PartRef, String> broken = new LinkedHashMap<>();
    try (TableSnapshot snap = snapshot()) {
      List<PartRef> parts = snap.parts();
      for (PartRef p : parts) {
        String message = PartChecker.check(p.info(), definition, io, fs, cancelled).message();
        if (message != null) {
          broken.put(p, message);
          continue;
        }
        for (PartRef q : parts) {
          if (q != p && q.info().overlaps(p.info())) {
            message = "block range " + p.info().minBlock() + "-" + p.info().maxBlock() + " overlaps part " + q.name();
            break;
          }
        }
        out.add(new PartCheck(p.info().path(), message == null, message));
      }
      Set<PartRef> moved = moveAside && !readOnly ? moveAside(broken, DetachedParts.BROKEN) : Set.of();
      for (Map.Entry<PartRef, String> e : broken.entrySet()) {
        String where = moved.contains(e.getKey()) ? "; moved aside to " + DetachedParts.DIR + "/"
            : readOnly ? "; not moved aside (the table is attached read-only)"
            : !moveAside ? "; not moved aside (readonly)" : "; not moved aside: a merge or mutation is rewriting it";
        out.add(new PartCheck(e.getKey().info().path(), false, e.getValue() + where));
      }
    }
    out.sort(Comparator.comparing(PartCheck::partPath));
    return out;
  }

  /** Parts taken out of the active set as broken (system.detached_parts). */
  public List<DetachedParts.Detached> detachedParts() throws IOException {
    return detached.list();
  }

  /** Copies broken parts to {@code detached/} and removes them from the active set in one commit. */
  private Set<PartRef> moveAside(Map<PartRef, String> broken, String reason) throws IOException {
    List<PartRef> take = new ArrayList<>();
    synchronized (lock) {
      for (PartRef p : broken.keySet()) {
        if (state.parts().contains(p) && !p.merging()) {
          p.setMerging(true); // nothing merges it meanwhile
          take.add(p);
        }
      }
    }
    try {
      for (PartRef p : take) {
        detached.moveAside(p.info(), reason, broken.get(p), ctx.clock().millis());
      }
      if (!take.isEmpty()) {
        commit("detach", List.of(), take, false);
        ctx.events().add(EngineEvents.DETACHED_PARTS, take.size());
      }
    } finally {
      take.forEach(p -> p.setMerging(false));
    }
    return new HashSet<>(take);
  }

  // ---------------------------------------------------------------- mutations (see TableMutations)

  /**
   * Records a mutation (UPDATE/DELETE): reads apply it on the fly from then on and the background
   * worker rewrites the parts; with {@code sync}, returns only when every part is rewritten.
   */
  public MutationResult mutate(MutationCommand command, boolean sync) throws IOException {
    ensureWritable();
    return mutator.mutate(command, sync);
  }

  /** KILL MUTATION: it stops applying (to reads and to parts not yet rewritten). False if already done. */
  public boolean killMutation(String id) throws IOException {
    ensureWritable();
    return mutator.kill(id);
  }

  /** Unfinished mutations (the counter reads check). */
  public int pendingMutations() {
    return state.pendingMutations();
  }

  /** Every mutation kept, for system.mutations. */
  public List<MutationStatus> mutations() {
    return mutator.statuses();
  }

  /** Starts the background mutation worker if mutations are pending (one per table). */
  public void scheduleMutations() {
    if (!readOnly) {
      mutator.schedule();
    }
  }

  /** Brings one part up to the latest mutation (false when no part needs or can take work now). */
  boolean mutateOnePart() throws IOException {
    return mutator.mutateOnePart();
  }

  void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("Cannot write: table " + definition.name() + " is closed or dropped");
    }
  }

  /** Stops background work; buffered rows stay in the WAL for the next open. */
  @Override
  public void close() throws IOException {
    closed = true;
    try {
      wal.close();
    } finally {
      io.close();
    }
  }

  /** Closes and deletes all storage of the table (DROP TABLE); a read-only table is only closed. */
  public void drop() throws IOException {
    if (readOnly) {
      close();
      return;
    }
    mergesStopped = true;
    merger.waitForMerges();
    closed = true;
    try {
      io.delete(DEFINITION_FILE); // first: no node attaches a table being dropped
      wal.close();
      wal.clear();
      io.deletePrefix("parts");
      io.deletePrefix("log");
      io.deletePrefix(DetachedParts.DIR);
    } finally {
      io.close();
    }
  }

  /** Flushes the buffer so it need not be replayed (clean shutdown). */
  public void flushQuietly() {
    try {
      flush();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot flush table {} at shutdown (rows stay in the WAL): {}", definition.name(), e.toString());
    }
  }

}
