package dev.travertine.mergetree.log;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.travertine.io.FileIO;
import dev.travertine.io.FileInfo;
import dev.travertine.mergetree.mutation.MutationRecord;
import dev.travertine.mergetree.part.PartInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A table's metadata log: the source of truth for its active parts. Entries are objects
 * {@code log/<seq>.json}, each written once with create-if-absent, so a commit is one atomic
 * object creation even on stores without rename. Every {@link #CHECKPOINT_EVERY} entries a
 * checkpoint {@code log/<seq>.checkpoint.json} records the whole state and older entries are
 * removed. See docs/design/storage-format.md.
 */
public final class MetadataLog {
  static final int CHECKPOINT_EVERY = 64;
  public static final ObjectMapper JSON = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final FileIO io;
  private final String where;

  /** Replayed state. */
  public record State(Map<String, PartInfo> active, long lastSeq, long walFlushedUpTo, long nextBlock,
      List<MutationRecord> mutations) {}

  public MetadataLog(FileIO io, String where) {
    this.io = io;
    this.where = where;
  }

  public State replay() throws IOException {
    return apply(null, io.list("log"));
  }

  /**
   * The state after the entries committed since {@code prev} (the same object when there are
   * none): what a node that only reads the table (its writer is elsewhere) sees next. A
   * checkpoint newer than {@code prev} means a full replay. The writer may checkpoint and remove
   * entries while they are read: then it reads again.
   */
  public State catchUp(State prev) throws IOException {
    State base = prev;
    for (int attempt = 0; ; attempt++) {
      List<FileInfo> files;
      try {
        files = io.list("log");
      } catch (java.io.UncheckedIOException e) {
        // a listing that met a vanishing file
        if (!(e.getCause() instanceof java.nio.file.NoSuchFileException) || attempt >= 4) {
          throw e;
        }
        continue;
      }
      if (files.isEmpty() && prev != null && prev.lastSeq() > 0) {
        throw new java.io.FileNotFoundException(where + " has no metadata log any more"
            + " (dropped by the node that writes it?)");
      }
      try {
        State s = apply(base, files);
        return prev != null && s != prev && s.lastSeq() < prev.lastSeq() ? prev : s;
      } catch (java.io.FileNotFoundException | java.nio.file.NoSuchFileException | MissingEntry e) {
        // Entries removed or half-listed while the writer checkpointed: read again. Anything else
        // (the storage failing) fails now.
        if (attempt >= 4) {
          throw e;
        }
      }
      base = null;
    }
  }

  /** A gap in the entries listed: the log is damaged, or was listed while its writer checkpointed. */
  private static final class MissingEntry extends IOException {
    private static final long serialVersionUID = 1L;

    MissingEntry(String message) {
      super(message);
    }
  }

  private State apply(State prev, List<FileInfo> files) throws IOException {
    long checkpointSeq = -1;
    long newest = -1;
    for (FileInfo f : files) {
      String n = name(f);
      if (n.endsWith(".checkpoint.json")) {
        checkpointSeq = Math.max(checkpointSeq, Long.parseLong(n.substring(0, n.indexOf('.'))));
      }
      if (n.endsWith(".json")) {
        newest = Math.max(newest, Long.parseLong(n.substring(0, n.indexOf('.'))));
      }
    }
    if (prev != null && newest <= prev.lastSeq()) {
      return prev;
    }
    if (prev != null && checkpointSeq > prev.lastSeq()) {
      prev = null;
    }
    Map<String, PartInfo> active = new LinkedHashMap<>();
    Map<String, MutationRecord> mutations = new LinkedHashMap<>();
    long lastSeq = 0;
    long walUpTo = 0;
    long nextBlock = 1;
    if (prev != null) {
      active.putAll(prev.active());
      prev.mutations().forEach(m -> mutations.put(m.id(), m));
      lastSeq = prev.lastSeq();
      walUpTo = prev.walFlushedUpTo();
      nextBlock = prev.nextBlock();
    } else if (checkpointSeq >= 0) {
      LogEntry cp = read(String.format("log/%020d.checkpoint.json", checkpointSeq));
      cp.add().forEach(p -> active.put(p.name(), p));
      cp.mutations().forEach(m -> mutations.put(m.id(), m));
      lastSeq = cp.seq();
      walUpTo = cp.walFlushedUpTo();
      nextBlock = cp.nextBlock();
    }
    for (FileInfo f : files) {
      String n = name(f);
      if (n.endsWith(".checkpoint.json") || !n.endsWith(".json")) {
        continue;
      }
      long seq = Long.parseLong(n.substring(0, n.indexOf('.')));
      if (seq <= lastSeq) {
        continue;
      }
      if (seq != lastSeq + 1) {
        throw new MissingEntry("Cannot open table at " + where + ": metadata log is missing entry " + (lastSeq + 1));
      }
      LogEntry e = read(f.path());
      if (e.truncate()) {
        active.clear();
      }
      e.remove().forEach(active::remove);
      e.add().forEach(p -> active.put(p.name(), p));
      e.mutations().forEach(m -> mutations.put(m.id(), m));
      lastSeq = seq;
      walUpTo = Math.max(walUpTo, e.walFlushedUpTo());
      nextBlock = Math.max(nextBlock, e.nextBlock());
    }
    List<MutationRecord> ms = new ArrayList<>(mutations.values());
    ms.sort(java.util.Comparator.comparingLong(MutationRecord::block));
    return new State(active, lastSeq, walUpTo, nextBlock, ms);
  }

  private static String name(FileInfo f) {
    return f.path().substring(f.path().lastIndexOf('/') + 1);
  }

  private LogEntry read(String path) throws IOException {
    byte[] data = io.readAll(path);
    try {
      return JSON.readValue(data, LogEntry.class);
    } catch (IOException e) {
      throw new IOException("Cannot open table at " + where + ": corrupt metadata log entry " + path
          + ": " + e.getMessage(), e);
    }
  }

  /**
   * Commits an entry. Fails if an entry with that sequence number exists (another writer won);
   * the caller's state is then stale and the commit must not be assumed.
   */
  public void append(LogEntry entry) throws IOException {
    byte[] data = JSON.writeValueAsBytes(entry);
    if (!io.writeIfAbsent(String.format("log/%020d.json", entry.seq()), data)) {
      throw new IOException("Cannot commit: metadata log entry " + entry.seq() + " of " + where
          + " already exists (concurrent writer)");
    }
  }

  /** Whether a checkpoint is due after entry {@code seq}. */
  public static boolean checkpointDue(long seq) {
    return seq % CHECKPOINT_EVERY == 0;
  }

  /** Writes a checkpoint of the state at {@code seq} and removes the entries it covers. */
  public void checkpoint(long seq, List<PartInfo> active, long walUpTo, long nextBlock, long time,
      List<MutationRecord> mutations) throws IOException {
    LogEntry cp = new LogEntry(seq, time, "checkpoint", new ArrayList<>(active), List.of(), walUpTo, nextBlock,
        false, true, mutations);
    io.writeAtomic(String.format("log/%020d.checkpoint.json", seq), JSON.writeValueAsBytes(cp));
    for (FileInfo f : io.list("log")) {
      String n = name(f);
      long s = Long.parseLong(n.substring(0, n.indexOf('.')));
      if (s < seq || (s == seq && !n.endsWith(".checkpoint.json"))) {
        io.delete(f.path());
      }
    }
  }
}
