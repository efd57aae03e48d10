package dev.travertine.mergetree.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.io.FileInfo;
import dev.travertine.io.local.LocalFileIO;
import dev.travertine.mergetree.mutation.MutationCommand;
import dev.travertine.mergetree.mutation.MutationRecord;
import dev.travertine.mergetree.part.PartInfo;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MetadataLog} against a model that applies the same entries in memory: what a reopened
 * log replays, checkpoints, and what it does with missing, damaged and leftover files.
 */
class MetadataLogTest {
  @TempDir Path dir;

  /** The state entries describe, applied the way the log's documentation says. */
  private static final class Model {
    final Map<String, PartInfo> active = new LinkedHashMap<>();
    final Map<String, MutationRecord> mutations = new LinkedHashMap<>();
    long lastSeq;
    long walUpTo;
    long nextBlock = 1;

    void apply(LogEntry e) {
      if (e.truncate()) {
        active.clear();
      }
      e.remove().forEach(active::remove);
      e.add().forEach(p -> active.put(p.name(), p));
      e.mutations().forEach(m -> mutations.put(m.id(), m));
      lastSeq = e.seq();
      walUpTo = Math.max(walUpTo, e.walFlushedUpTo());
      nextBlock = Math.max(nextBlock, e.nextBlock());
    }

    List<MutationRecord> sortedMutations() {
      List<MutationRecord> ms = new ArrayList<>(mutations.values());
      ms.sort(Comparator.comparingLong(MutationRecord::block));
      return ms;
    }

    void assertReplays(MetadataLog.State s, String when) {
      assertEquals(active, s.active(), when + ": active parts");
      assertEquals(lastSeq, s.lastSeq(), when + ": last sequence number");
      assertEquals(walUpTo, s.walFlushedUpTo(), when + ": WAL position flushed");
      assertEquals(nextBlock, s.nextBlock(), when + ": next block");
      assertEquals(sortedMutations(), s.mutations(), when + ": mutations");
    }
  }

  private static PartInfo part(Random rnd, long block) {
    Map<String, List<String>> stats = new LinkedHashMap<>();
    stats.put("k", Arrays.asList(String.valueOf(rnd.nextInt(100)), String.valueOf(100 + rnd.nextInt(100)), "0"));
    stats.put("s", Arrays.asList(null, null, String.valueOf(rnd.nextInt(5)))); // unknown min/max survive as null
    return new PartInfo(PartInfo.partName("all", block, block, 0, 0), "all", block, block, 0, 0,
        1 + rnd.nextInt(100_000), 100 + rnd.nextInt(1 << 20), String.format("%08x", rnd.nextInt()),
        rnd.nextLong() & Long.MAX_VALUE, 1 + rnd.nextInt(50), stats, null, "struct<k:bigint,s:string>", 2);
  }

  /**
   * A random next entry for the model's state: new parts, removals of active ones, now and then
   * a truncate, a new or killed mutation, and WAL/block positions that sometimes go backwards (the
   * log keeps the largest).
   */
  private static LogEntry nextEntry(Random rnd, Model m) {
    long seq = m.lastSeq + 1;
    long block = m.nextBlock;
    List<PartInfo> add = new ArrayList<>();
    for (int i = rnd.nextInt(4); i > 0; i--) {
      add.add(part(rnd, block++));
    }
    List<String> remove = new ArrayList<>();
    for (String name : m.active.keySet()) {
      if (rnd.nextInt(4) == 0) {
        remove.add(name);
      }
    }
    if (rnd.nextInt(10) == 0) {
      remove.add("all_999999_999999_0"); // removing a part that is not active is harmless
    }
    List<MutationRecord> mutations = new ArrayList<>();
    if (rnd.nextInt(6) == 0) {
      long b = block++;
      MutationCommand cmd = rnd.nextBoolean() ? MutationCommand.delete("k = " + b)
          : MutationCommand.update(Map.of("s", "'x'"), rnd.nextBoolean() ? null : "k > 3");
      mutations.add(new MutationRecord(MutationRecord.idFor(b), b, rnd.nextInt(1000), cmd, false));
    } else if (!m.mutations.isEmpty() && rnd.nextInt(6) == 0) {
      List<MutationRecord> existing = new ArrayList<>(m.mutations.values());
      mutations.add(existing.get(rnd.nextInt(existing.size())).asKilled());
    }
    boolean truncate = rnd.nextInt(25) == 0;
    long wal = rnd.nextInt(5) == 0 ? rnd.nextInt((int) m.walUpTo + 1) : m.walUpTo + rnd.nextInt(10);
    long next = rnd.nextInt(5) == 0 ? rnd.nextInt((int) block + 1) : block;
    return new LogEntry(seq, seq * 1000, truncate ? "truncate" : "insert", add, remove, wal, next, truncate, false,
        mutations);
  }

  private static String entryPath(long seq) {
    return String.format("log/%020d.json", seq);
  }

  private static String checkpointPath(long seq) {
    return String.format("log/%020d.checkpoint.json", seq);
  }

  private List<String> logFiles(LocalFileIO io) throws IOException {
    return io.list("log").stream().map(FileInfo::path).toList();
  }

  /** Entries appended by one instance are replayed, in order, by a new instance on the same storage. */
  @Test
  void appendedEntriesReplayAfterReopening() throws Exception {
    Random rnd = new Random(21);
    Model model = new Model();
    LocalFileIO io = new LocalFileIO(dir, false);
    new Model().assertReplays(new MetadataLog(io, "t").replay(), "empty log");
    MetadataLog log = new MetadataLog(io, "t");
    for (int i = 0; i < 50; i++) {
      LogEntry e = nextEntry(rnd, model);
      log.append(e);
      model.apply(e);
      if (i % 7 == 0) {
        model.assertReplays(new MetadataLog(new LocalFileIO(dir, false), "t").replay(), "after entry " + e.seq());
      }
    }
    assertTrue(model.active.size() > 3, "the random history keeps some parts: " + model.active.keySet());
    model.assertReplays(new MetadataLog(new LocalFileIO(dir, false), "t").replay(), "at the end");
    List<String> expectedFiles = new ArrayList<>();
    for (long s = 1; s <= 50; s++) {
      expectedFiles.add(entryPath(s));
    }
    assertEquals(expectedFiles, logFiles(io), "one object per entry");
  }

  /**
   * Writing a checkpoint whenever {@link MetadataLog#checkpointDue} says so (as the table does)
   * leaves only the newest checkpoint and the entries after it, and the replay is unchanged; the
   * checkpoint's mutation list replaces the replayed one (finished mutations may be dropped there).
   */
  @Test
  void checkpointsReplaceTheEntriesTheyCover() throws Exception {
    Random rnd = new Random(22);
    Model model = new Model();
    LocalFileIO io = new LocalFileIO(dir, false);
    MetadataLog log = new MetadataLog(io, "t");
    int checkpoints = 0;
    for (int i = 0; i < 3 * MetadataLog.CHECKPOINT_EVERY + 10; i++) {
      LogEntry e = nextEntry(rnd, model);
      log.append(e);
      model.apply(e);
      if (MetadataLog.checkpointDue(e.seq())) {
        checkpoints++;
        // Keep the mutations that are not killed, as a table keeps unfinished ones.
        model.mutations.values().removeIf(MutationRecord::killed);
        log.checkpoint(e.seq(), new ArrayList<>(model.active.values()), model.walUpTo, model.nextBlock, 0,
            new ArrayList<>(model.mutations.values()));
        List<String> expected = new ArrayList<>();
        expected.add(checkpointPath(e.seq()));
        assertEquals(expected, logFiles(io), "right after the checkpoint at " + e.seq());
      }
      if (i % 13 == 0 || MetadataLog.checkpointDue(e.seq())) {
        model.assertReplays(new MetadataLog(new LocalFileIO(dir, false), "t").replay(), "after entry " + e.seq());
      }
    }
    assertEquals(3, checkpoints, "a checkpoint every " + MetadataLog.CHECKPOINT_EVERY + " entries");
    List<String> expected = new ArrayList<>();
    expected.add(checkpointPath(3L * MetadataLog.CHECKPOINT_EVERY));
    for (long s = 3L * MetadataLog.CHECKPOINT_EVERY + 1; s <= model.lastSeq; s++) {
      expected.add(entryPath(s));
    }
    assertEquals(expected, logFiles(io));
    model.assertReplays(new MetadataLog(new LocalFileIO(dir, false), "t").replay(), "at the end");
  }

  /**
   * A crash inside {@link MetadataLog#checkpoint} after the checkpoint was written but before the
   * entries it covers (and an older checkpoint) were deleted changes nothing: the newest checkpoint
   * wins and covered entries are skipped.
   */
  @Test
  void interruptedCheckpointCleanupReplaysTheSame() throws Exception {
    Random rnd = new Random(23);
    Model model = new Model();
    LocalFileIO io = new LocalFileIO(dir, false);
    MetadataLog log = new MetadataLog(io, "t");
    Map<String, byte[]> saved = new LinkedHashMap<>();
    int every = MetadataLog.CHECKPOINT_EVERY;
    for (int i = 0; i < 2 * every + 5; i++) {
      LogEntry e = nextEntry(rnd, model);
      log.append(e);
      model.apply(e);
      if (MetadataLog.checkpointDue(e.seq())) {
        for (FileInfo f : io.list("log")) {
          saved.put(f.path(), io.readAll(f.path()));
        }
        log.checkpoint(e.seq(), new ArrayList<>(model.active.values()), model.walUpTo, model.nextBlock, 0,
            new ArrayList<>(model.mutations.values()));
      }
    }
    for (Map.Entry<String, byte[]> f : saved.entrySet()) { // put back what the checkpoints deleted
      io.writeAtomic(f.getKey(), f.getValue());
    }
    assertTrue(io.exists(checkpointPath(every)) && io.exists(checkpointPath(2L * every)) && io.exists(entryPath(1)));
    model.assertReplays(new MetadataLog(io, "t").replay(), "with stale files");
  }

  /** Appending an entry whose sequence number exists (a concurrent writer won) fails and keeps the first. */
  @Test
  void secondWriterOfAnEntryIsRefused() throws Exception {
    Random rnd = new Random(24);
    Model model = new Model();
    LocalFileIO io = new LocalFileIO(dir, false);
    MetadataLog log = new MetadataLog(io, "table t");
    LogEntry first = nextEntry(rnd, model);
    log.append(first);
    LogEntry rival = new LogEntry(1, 5, "insert", List.of(part(rnd, 77)), List.of(), 3, 78, false, false, List.of());
    IOException e = assertThrows(IOException.class, () -> new MetadataLog(io, "table t").append(rival));
    assertTrue(e.getMessage().contains("entry 1 of table t already exists"), e.getMessage());
    model.apply(first);
    model.assertReplays(log.replay(), "after the refused append");
  }

  /** A gap in the sequence (an entry deleted) is an error naming the missing entry, not a silent skip. */
  @Test
  void missingEntryIsAnError() throws Exception {
    Random rnd = new Random(25);
    Model model = new Model();
    LocalFileIO io = new LocalFileIO(dir, false);
    MetadataLog log = new MetadataLog(io, "table t");
    for (int i = 0; i < 6; i++) {
      LogEntry e = nextEntry(rnd, model);
      log.append(e);
      model.apply(e);
    }
    assertTrue(io.delete(entryPath(3)));
    IOException e = assertThrows(IOException.class, () -> new MetadataLog(io, "table t").replay());
    assertTrue(e.getMessage().contains("table t") && e.getMessage().contains("missing entry 3"), e.getMessage());
  }

  /**
   * Entries are written whole (create-if-absent of a complete object), so a cut entry means damage,
   * not an interrupted commit: an entry truncated by a few bytes, last or in the middle, or
   * overwritten with garbage, fails the replay with an error naming it rather than being skipped.
   */
  @Test
  void truncatedOrGarbledEntryIsAnErrorNamingIt() throws Exception {
    Random rnd = new Random(26);
    for (int round = 0; round < 6; round++) {
      Path root = dir.resolve("r" + round);
      LocalFileIO io = new LocalFileIO(root, false);
      MetadataLog log = new MetadataLog(io, "table t");
      Model model = new Model();
      for (int i = 0; i < 5; i++) {
        LogEntry e = nextEntry(rnd, model);
        log.append(e);
        model.apply(e);
      }
      long victim = round < 3 ? 5 : 2;
      Path file = io.resolve(entryPath(victim));
      if (round % 3 == 2) {
        byte[] junk = new byte[(int) Files.size(file)];
        rnd.nextBytes(junk);
        Files.write(file, junk);
      } else {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
          f.setLength(f.length() - 1 - rnd.nextInt(round % 3 == 0 ? 3 : (int) f.length() - 1));
        }
      }
      IOException e = assertThrows(IOException.class, () -> new MetadataLog(io, "table t").replay(), "round " + round);
      assertTrue(e.getMessage().contains("corrupt metadata log entry " + entryPath(victim)), e.getMessage());
    }
  }

  /**
   * Garbage appended after a complete entry: the replay either refuses the entry with an error
   * naming it or replays exactly the entries written; it never yields another state.
   */
  @Test
  void garbageAfterAnEntryNeverChangesTheState() throws Exception {
    Random rnd = new Random(27);
    Model model = new Model();
    LocalFileIO io = new LocalFileIO(dir, false);
    MetadataLog log = new MetadataLog(io, "table t");
    for (int i = 0; i < 5; i++) {
      LogEntry e = nextEntry(rnd, model);
      log.append(e);
      model.apply(e);
    }
    Files.write(io.resolve(entryPath(5)), "{\"seq\":9,\"add\":[], \"truncate\":true}"
        .getBytes(java.nio.charset.StandardCharsets.UTF_8), java.nio.file.StandardOpenOption.APPEND);
    MetadataLog.State s;
    try {
      s = new MetadataLog(io, "table t").replay();
    } catch (IOException e) {
      assertTrue(e.getMessage().contains("corrupt metadata log entry " + entryPath(5)), e.getMessage());
      return;
    }
    model.assertReplays(s, "with garbage after entry 5");
  }

  /**
   * What an interrupted append leaves (a hidden temporary object, never linked into place) is not
   * an entry: the replay ignores it and the same sequence number can still be committed.
   */
  @Test
  void leftoverTemporaryObjectIsIgnored() throws Exception {
    Random rnd = new Random(28);
    Model model = new Model();
    LocalFileIO io = new LocalFileIO(dir, false);
    MetadataLog log = new MetadataLog(io, "t");
    for (int i = 0; i < 3; i++) {
      LogEntry e = nextEntry(rnd, model);
      log.append(e);
      model.apply(e);
    }
    LogEntry next = nextEntry(rnd, model);
    byte[] json = MetadataLog.JSON.writeValueAsBytes(next);
    Files.write(io.resolve("log").resolve(".tmp-" + String.format("%020d.json", next.seq()) + "-x"),
        Arrays.copyOf(json, json.length / 2));
    model.assertReplays(new MetadataLog(io, "t").replay(), "with a temporary object");
    log.append(next);
    model.apply(next);
    model.assertReplays(new MetadataLog(io, "t").replay(), "after committing the entry");
  }
}
