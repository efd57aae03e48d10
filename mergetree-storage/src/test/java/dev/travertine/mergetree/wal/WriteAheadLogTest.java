package dev.travertine.mergetree.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WriteAheadLog} against a list of the records appended: replay after reopening, torn and
 * damaged records, deletion of flushed segments.
 */
class WriteAheadLogTest {
  /** Bytes of a record's header: {@code [int length][long seq][int crc32]}. */
  private static final int HEADER = 16;

  @TempDir Path dir;

  private record Rec(long seq, byte[] payload) {}

  private static byte[] payload(Random rnd) {
    byte[] p = new byte[rnd.nextInt(8) == 0 ? 0 : rnd.nextInt(3000)];
    rnd.nextBytes(p);
    return p;
  }

  /** Appends records {@code from..to} (inclusive), rotating to a new segment at random. */
  private static List<Rec> appendAll(WriteAheadLog wal, Random rnd, long from, long to, List<Long> segmentStarts)
      throws IOException {
    List<Rec> out = new ArrayList<>();
    boolean fresh = true;
    for (long seq = from; seq <= to; seq++) {
      if (fresh && segmentStarts != null) {
        segmentStarts.add(seq);
      }
      Rec r = new Rec(seq, payload(rnd));
      wal.append(r.seq, r.payload);
      out.add(r);
      fresh = rnd.nextInt(6) == 0;
      if (fresh) {
        wal.rotate();
      }
    }
    return out;
  }

  private static List<Rec> replay(Path dir, long after) throws IOException {
    List<Rec> out = new ArrayList<>();
    try (WriteAheadLog wal = new WriteAheadLog(dir, false)) {
      long last = wal.replay(after, (seq, p) -> out.add(new Rec(seq, p)));
      long expectedLast = out.isEmpty() ? after : out.get(out.size() - 1).seq;
      assertEquals(expectedLast, last, "replay returns the last sequence number replayed, or `after`");
    }
    return out;
  }

  private static void assertRecords(List<Rec> expected, List<Rec> actual) {
    assertEquals(expected.stream().map(Rec::seq).toList(), actual.stream().map(Rec::seq).toList(), "sequence numbers");
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i).payload, actual.get(i).payload, "payload of seq " + expected.get(i).seq);
    }
  }

  private List<Path> segmentFiles() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().matches("wal-\\d{20}\\.log")).sorted().toList();
    }
  }

  /**
   * Records appended over several segments (and several writer sessions) are replayed by a new
   * instance in order with the bytes written; {@code after} skips those at or below it.
   */
  @Test
  void appendedRecordsAreReplayedAfterReopening() throws Exception {
    Random rnd = new Random(11);
    List<Rec> written = new ArrayList<>();
    try (WriteAheadLog wal = new WriteAheadLog(dir, true)) {
      written.addAll(appendAll(wal, rnd, 1, 60, null));
    }
    try (WriteAheadLog wal = new WriteAheadLog(dir, false)) { // a second session continues the sequence
      written.addAll(appendAll(wal, rnd, 61, 90, null));
    }
    assertTrue(segmentFiles().size() > 2, "the test spans several segments");
    assertRecords(written, replay(dir, 0));
    for (long after : new long[] {1, 37, 60, 89, 90, 500}) {
      assertRecords(written.stream().filter(r -> r.seq > after).toList(), replay(dir, after));
    }
  }

  /**
   * A crash while writing the last record leaves a prefix of it (cut inside its header or its
   * payload): replay drops that record and returns every earlier one, also those of earlier
   * segments.
   */
  @Test
  void tornLastRecordIsDroppedAndEarlierRecordsSurvive() throws Exception {
    Random rnd = new Random(12);
    for (int round = 0; round < 30; round++) {
      Path d = dir.resolve("r" + round);
      List<Rec> written;
      try (WriteAheadLog wal = new WriteAheadLog(d, false)) {
        written = appendAll(wal, rnd, 1, 5 + rnd.nextInt(20), null);
        Rec last = new Rec(written.size() + 1, new byte[1 + rnd.nextInt(500)]);
        rnd.nextBytes(last.payload);
        wal.append(last.seq, last.payload);
        int recordBytes = HEADER + last.payload.length;
        int keep = round % 3 == 0 ? rnd.nextInt(HEADER) : HEADER + rnd.nextInt(last.payload.length);
        Path segment;
        try (Stream<Path> s = Files.list(d)) {
          segment = s.sorted().reduce((a, b) -> b).orElseThrow();
        }
        try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
          f.setLength(f.length() - recordBytes + keep);
        }
      }
      assertRecords(written, replay(d, 0));
    }
  }

  /**
   * A crash that tears the first record of a segment leaves a file of the name the next segment
   * takes (the next INSERT gets the torn record's sequence number): what is appended after
   * recovery is replayed, and so is what comes after it in that segment.
   */
  @Test
  void recordsAppendedAfterATornFirstRecordSurvive() throws Exception {
    Random rnd = new Random(13);
    for (int round = 0; round < 10; round++) {
      Path d = dir.resolve("t" + round);
      List<Rec> written;
      try (WriteAheadLog wal = new WriteAheadLog(d, false)) {
        written = new ArrayList<>(appendAll(wal, rnd, 1, 3 + rnd.nextInt(5), null));
        wal.rotate(); // a flush: the next record starts a segment
        byte[] torn = new byte[1 + rnd.nextInt(300)];
        wal.append(written.size() + 1, torn);
      }
      Path segment;
      try (Stream<Path> s = Files.list(d)) {
        segment = s.sorted().reduce((a, b) -> b).orElseThrow();
      }
      try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
        f.setLength(rnd.nextInt((int) f.length())); // cut inside the header or the payload
      }
      try (WriteAheadLog wal = new WriteAheadLog(d, false)) {
        long last = wal.replay(0, (q, b) -> { });
        assertEquals(written.size(), last, "the torn record is not replayed");
        written.addAll(appendAll(wal, rnd, last + 1, last + 1 + rnd.nextInt(4), null));
      }
      assertRecords(written, replay(d, 0));
    }
  }

  /**
   * Garbage after the last record is ignored: bytes too few for a header, a header promising more
   * bytes than follow, and a zero-filled tail (what a machine crash can leave when the file's
   * length reached the disk before its data).
   */
  @Test
  void garbageAfterTheLastRecordIsIgnored() throws Exception {
    Random rnd = new Random(13);
    List<Rec> written;
    try (WriteAheadLog wal = new WriteAheadLog(dir, false)) {
      written = appendAll(wal, rnd, 1, 20, null);
    }
    Path last = segmentFiles().get(segmentFiles().size() - 1);
    Files.write(last, new byte[] {1, 2, 3, 4, 5}, java.nio.file.StandardOpenOption.APPEND);
    assertRecords(written, replay(dir, 0));
    byte[] header = java.nio.ByteBuffer.allocate(HEADER + 10).putInt(1 << 20).putLong(21).putInt(0).array();
    Files.write(last, header, java.nio.file.StandardOpenOption.APPEND);
    assertRecords(written, replay(dir, 0));
    Path zeros = dir.resolve(String.format("wal-%020d.log", 21));
    Files.write(zeros, new byte[4096]);
    assertRecords(written, replay(dir, 0));
  }

  /**
   * A record whose payload no longer matches its checksum ends the replay of its segment (the
   * records after it in that segment are not trusted); the next segments are still replayed.
   */
  @Test
  void damagedRecordEndsItsSegment() throws Exception {
    Random rnd = new Random(14);
    List<Rec> first;
    List<Rec> second;
    try (WriteAheadLog wal = new WriteAheadLog(dir, false)) {
      first = new ArrayList<>();
      for (long seq = 1; seq <= 10; seq++) {
        Rec r = new Rec(seq, new byte[20 + rnd.nextInt(100)]);
        rnd.nextBytes(r.payload);
        wal.append(r.seq, r.payload);
        first.add(r);
      }
      wal.rotate();
      second = appendAll(wal, rnd, 11, 15, null);
    }
    // Flip one payload byte of record 4 of the first segment.
    long offset = 0;
    for (int i = 0; i < 3; i++) {
      offset += HEADER + first.get(i).payload.length;
    }
    Path segment = segmentFiles().get(0);
    try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
      f.seek(offset + HEADER + 5);
      int b = f.read();
      f.seek(offset + HEADER + 5);
      f.write(b ^ 0x10);
    }
    List<Rec> expected = new ArrayList<>(first.subList(0, 3));
    expected.addAll(second);
    assertRecords(expected, replay(dir, 0));
  }

  /**
   * {@code deleteUpTo(x)} removes exactly the segments whose records are all at or below {@code x},
   * as told by the next segment's first sequence number: every record above {@code x} is still
   * replayed, every other segment is gone. The newest segment (being appended to, or whose end the
   * names do not tell) is kept.
   */
  @Test
  void deleteUpToRemovesOnlyFlushedSegments() throws Exception {
    Random rnd = new Random(15);
    for (int round = 0; round < 20; round++) {
      Path d = dir.resolve("r" + round);
      List<Long> starts = new ArrayList<>();
      long n = 10 + rnd.nextInt(60);
      long upTo = rnd.nextInt((int) n + 2);
      List<Rec> written;
      try (WriteAheadLog wal = new WriteAheadLog(d, false)) {
        written = appendAll(wal, rnd, 1, n, starts);
        wal.deleteUpTo(upTo);
      }
      List<Rec> expected = new ArrayList<>();
      List<Long> kept = new ArrayList<>();
      for (int k = 0; k < starts.size(); k++) {
        long from = starts.get(k);
        long end = k + 1 < starts.size() ? starts.get(k + 1) - 1 : n;
        if (k + 1 == starts.size() || end > upTo) {
          kept.add(from);
          written.stream().filter(r -> r.seq >= from && r.seq <= end).forEach(expected::add);
        }
      }
      assertEquals(kept, segmentStarts(d), "round " + round + ", segments " + starts + ", upTo " + upTo);
      assertRecords(expected, replay(d, 0));
      assertRecords(written.stream().filter(r -> r.seq > upTo).toList(), replay(d, upTo));
    }
  }

  private static List<Long> segmentStarts(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.matches("wal-\\d{20}\\.log")).sorted()
          .map(n -> Long.parseLong(n.substring(4, n.length() - 4))).toList();
    }
  }

  /** {@code clear} removes every segment; replay then yields nothing, and appending starts afresh. */
  @Test
  void clearRemovesEverySegment() throws Exception {
    Random rnd = new Random(16);
    try (WriteAheadLog wal = new WriteAheadLog(dir, false)) {
      appendAll(wal, rnd, 1, 30, null);
      wal.clear();
      assertEquals(List.of(), segmentFiles());
      assertRecords(List.of(), replay(dir, 0));
      List<Rec> after = appendAll(wal, rnd, 31, 40, null);
      assertRecords(after, replay(dir, 0));
    }
  }
}
