package dev.travertine.mergetree.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The insert buffer's write-ahead log on local disk: segment files {@code wal-<firstSeq>.log} of
 * records {@code [int length][long seq][int crc32][payload]}. A record is durable when
 * {@link #append} returns (with fsync on). A torn record at the end of a segment (a crash while
 * writing, so its INSERT never returned) ends the replay of that segment.
 * See docs/design/storage-format.md.
 */
public final class WriteAheadLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WriteAheadLog.class);
  private static final int HEADER = 16;

  private final Path dir;
  private final boolean fsync;
  private FileChannel current;
  private long currentFirstSeq = -1;

  public WriteAheadLog(Path dir, boolean fsync) throws IOException {
    this.dir = dir;
    this.fsync = fsync;
    Files.createDirectories(dir);
  }

  /** Appends one record; the sequence numbers must increase. */
  public synchronized void append(long seq, byte[] payload) throws IOException {
    if (current == null) {
      Path p = segment(seq);
      FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      try {
        // A segment of this name exists when a crash tore its first record (that INSERT never
        // returned, and the next one takes its sequence number): records written after the torn
        // bytes would never be replayed, so the segment is cut back to its intact records first.
        long intact = ch.size() == 0 ? 0 : read(p, Long.MAX_VALUE, (q, b) -> { });
        if (intact < ch.size()) {
          LOG.warn("WAL segment {}: cutting {} bytes of a torn record before appending", p, ch.size() - intact);
          ch.truncate(intact);
          ch.force(true);
        }
        ch.position(intact);
      } catch (IOException | RuntimeException e) {
        ch.close();
        throw e;
      }
      currentFirstSeq = seq;
      current = ch;
    }
    CRC32 crc = new CRC32();
    crc.update(payload);
    ByteBuffer buf = ByteBuffer.allocate(HEADER + payload.length);
    buf.putInt(payload.length).putLong(seq).putInt((int) crc.getValue()).put(payload).flip();
    while (buf.hasRemaining()) {
      current.write(buf);
    }
    if (fsync) {
      current.force(false);
    }
  }

  /** Starts a new segment at the next append; older segments can then be deleted by sequence. */
  public synchronized void rotate() throws IOException {
    if (current != null) {
      current.close();
      current = null;
    }
  }

  /** Deletes closed segments holding only records with seq <= {@code upTo}. */
  public synchronized void deleteUpTo(long upTo) throws IOException {
    List<long[]> segs = segments();
    for (int i = 0; i < segs.size(); i++) {
      long first = segs.get(i)[0];
      long nextFirst = i + 1 < segs.size() ? segs.get(i + 1)[0] : Long.MAX_VALUE;
      boolean isCurrent = current != null && first == currentFirstSeq;
      if (!isCurrent && nextFirst - 1 <= upTo) {
        Files.deleteIfExists(segment(first));
      }
    }
  }

  /** Deletes every segment (after TRUNCATE or DROP). */
  public synchronized void clear() throws IOException {
    rotate();
    for (long[] s : segments()) {
      Files.deleteIfExists(segment(s[0]));
    }
  }

  /** Calls {@code consumer(seq, payload)} for every intact record with seq > {@code after}, in order. */
  public synchronized long replay(long after, BiConsumer<Long, byte[]> consumer) throws IOException {
    long[] last = {after};
    for (long[] s : segments()) {
      read(segment(s[0]), after, (seq, payload) -> {
        consumer.accept(seq, payload);
        last[0] = Math.max(last[0], seq);
      });
    }
    return last[0];
  }

  /**
   * Calls {@code consumer} for the segment's intact records with seq > {@code after}, in order;
   * returns the length of its intact prefix (where a torn or damaged record begins, or its size).
   */
  private static long read(Path p, long after, BiConsumer<Long, byte[]> consumer) throws IOException {
    byte[] data = Files.readAllBytes(p);
    ByteBuffer buf = ByteBuffer.wrap(data);
    while (buf.remaining() >= HEADER) {
      int start = buf.position();
      int len = buf.getInt();
      long seq = buf.getLong();
      int crc = buf.getInt();
      if (len < 0 || len > buf.remaining()) {
        LOG.warn("WAL segment {} ends with a torn record at offset {}; ignoring it", p, start);
        return start;
      }
      byte[] payload = new byte[len];
      buf.get(payload);
      CRC32 c = new CRC32();
      c.update(payload);
      if ((int) c.getValue() != crc) {
        LOG.warn("WAL segment {} has a record with a bad checksum at seq {}; stopping there", p, seq);
        return start;
      }
      if (seq > after) {
        consumer.accept(seq, payload);
      }
    }
    return buf.position();
  }

  private List<long[]> segments() throws IOException {
    List<long[]> out = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "wal-*.log")) {
      for (Path p : ds) {
        String n = p.getFileName().toString();
        out.add(new long[] {Long.parseLong(n.substring(4, n.length() - 4))});
      }
    }
    out.sort((a, b) -> Long.compare(a[0], b[0]));
    return out;
  }

  private Path segment(long firstSeq) {
    return dir.resolve(String.format("wal-%020d.log", firstSeq));
  }

  @Override
  public synchronized void close() throws IOException {
    rotate();
  }
}
