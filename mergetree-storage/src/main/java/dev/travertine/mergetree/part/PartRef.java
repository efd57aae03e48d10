package dev.travertine.mergetree.part;

import dev.travertine.io.FileIO;
import dev.travertine.io.hadoop.FileIOFileSystem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import dev.travertine.mergetree.schema.OrcTypes;
import dev.travertine.mergetree.schema.TableSchema;
import java.util.List;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;

/**
 * A live part: its metadata, a reference count held by snapshots, and its granule index loaded
 * once on first use (parts are immutable). When the part has left the active set and no snapshot
 * holds it, its file is deleted, unless a re-versioned successor (same file, new name) still
 * uses it: the file has a reference count of its own.
 */
public final class PartRef {
  private final PartInfo info;
  private final FileIO io;
  private final FileIOFileSystem fs;
  private final AtomicInteger refs = new AtomicInteger(1); // the active set's own reference
  private final SharedFile file;
  private final OldParts oldParts;
  private volatile boolean merging;

  /** The file behind one or more part names, and its granule index. */
  private static final class SharedFile {
    private static final java.util.concurrent.atomic.AtomicLong IDS = new java.util.concurrent.atomic.AtomicLong();
    final long id = IDS.incrementAndGet();
    final AtomicInteger users = new AtomicInteger(1);
    volatile GranuleIndex index;
    volatile TypeDescription fileSchema;
    volatile List<StripeInformation> stripes;
    volatile org.apache.orc.impl.OrcTail tail; // parsed once; readers only read it, so they share it
    volatile ColumnMapping mapping;
    volatile long[] columnBytes;
    volatile java.util.Set<String> directStrings;
    /**
     * The footer's sketches as written ({@link ColumnSketches#serialize}: sparse for small parts),
     * an empty array when the file has none (parts written before them); parsed per column when asked.
     */
    volatile byte[] distinct;

    SharedFile(GranuleIndex index) {
      this.index = index;
    }
  }

  /**
   * A part read by whoever does not own its file (a replica, a check of a fresh copy): its file
   * is never deleted through it.
   */
  public PartRef(PartInfo info, FileIO io, FileIOFileSystem fs, GranuleIndex index) {
    this(info, io, fs, index, OldParts.NEVER_DELETE);
  }

  /** A part of the table that owns its file: the file goes to {@code oldParts} when nothing uses it. */
  public PartRef(PartInfo info, FileIO io, FileIOFileSystem fs, GranuleIndex index, OldParts oldParts) {
    this(info, io, fs, new SharedFile(index), java.util.Objects.requireNonNull(oldParts, "oldParts"));
  }

  private PartRef(PartInfo info, FileIO io, FileIOFileSystem fs, SharedFile file, OldParts oldParts) {
    this.info = info;
    this.io = io;
    this.fs = fs;
    this.file = file;
    this.oldParts = oldParts;
  }

  /** The same file under new metadata (re-versioned by a mutation that does not touch it). */
  public PartRef reversioned(PartInfo newInfo) {
    if (!newInfo.path().equals(info.path())) {
      throw new IllegalArgumentException("A re-versioned part keeps its file");
    }
    file.users.incrementAndGet();
    return new PartRef(newInfo, io, fs, file, oldParts);
  }

  /** String columns (file names) this part's file wrote without a dictionary, by its writer's choice. */
  public java.util.Set<String> directStrings() {
    loadFooter();
    return file.directStrings;
  }

  /**
   * The sketch of file column {@code f}'s distinct values ({@link ColumnSketches}), from the footer
   * (read now if it was not yet: a request on remote storage); null for a file written without them.
   */
  public dev.travertine.vector.HyperLogLog distinct(int f) {
    loadFooter();
    byte[] d = file.distinct;
    return d.length == 0 ? null : ColumnSketches.column(d, fileSchema().getChildren().size(), f);
  }

  /** Whether the file's footer has been read already (asking what it holds makes no request). */
  public boolean footerRead() {
    return file.distinct != null;
  }

  public PartInfo info() {
    return info;
  }

  public String name() {
    return info.name();
  }

  /**
   * Names this part's file object in this process: never reused, kept by a re-versioned successor
   * (same file, same rows), new for every part written (insert, merge, mutation). Caches of what
   * the file holds key by it.
   */
  public long fileId() {
    return file.id;
  }

  public boolean merging() {
    return merging;
  }

  public void setMerging(boolean m) {
    merging = m;
  }

  /** Opens the part's ORC file (from the cached tail after the first time: no request until rows are read). */
  public Reader openReader() throws IOException {
    org.apache.orc.impl.OrcTail tail = file.tail;
    if (tail == null) {
      loadFooter();
      tail = file.tail;
    }
    return OrcSupport.openReader(fs, info.path(), info.bytesOnDisk(), tail);
  }

  /** Opens the part's file for positioned reads ({@link OrcStreamReader}). */
  org.apache.hadoop.fs.FSDataInputStream openStream() throws IOException {
    fs.knownLength(info.path(), info.bytesOnDisk());
    return fs.open(FileIOFileSystem.toPath(info.path()));
  }

  /** The granule index, read from the file's footer the first time. */
  public GranuleIndex index() {
    GranuleIndex gi = file.index;
    if (gi == null) {
      loadFooter();
      gi = file.index;
    }
    return gi;
  }

  /** The file's stripes (read with the footer, once). */
  public List<StripeInformation> stripes() {
    List<StripeInformation> s = file.stripes;
    if (s == null) {
      loadFooter();
      s = file.stripes;
    }
    return s;
  }

  /**
   * The file's logical ORC schema (from the metadata record, or the file's footer for older
   * parts): DECIMAL fields stored as scaled longs carry {@link OrcTypes#SCALED_ATTRIBUTE}.
   */
  public TypeDescription fileSchema() {
    TypeDescription t = file.fileSchema;
    if (t == null) {
      if (info.fileSchema() != null) {
        t = OrcTypes.parseLogical(info.fileSchema(), info.format());
        file.fileSchema = t;
      } else {
        loadFooter();
        t = file.fileSchema;
      }
    }
    return t;
  }

  /** Reads what the footer tells once: granule index, stripes, schema. */
  private void loadFooter() {
    synchronized (file) {
      if (file.index != null && file.stripes != null && file.fileSchema != null && file.tail != null
          && file.columnBytes != null && file.directStrings != null && file.distinct != null) {
        return;
      }
      try (Reader r = OrcSupport.openReader(fs, info.path(), info.bytesOnDisk())) {
        ByteBuffer t = r.getSerializedFileFooter();
        byte[] bytes = new byte[t.remaining()];
        t.duplicate().get(bytes);
        org.apache.orc.impl.OrcTail tail =
            org.apache.orc.impl.ReaderImpl.extractFileTail(ByteBuffer.wrap(bytes), info.bytesOnDisk(), 0);
        file.tail = tail;
        if (file.index == null) {
          ByteBuffer bb = r.getMetadataValue(OrcSupport.GRANULE_INDEX_KEY);
          byte[] data = new byte[bb.remaining()];
          bb.get(data);
          file.index = GranuleIndex.deserialize(data);
        }
        file.stripes = List.copyOf(r.getStripes());
        file.columnBytes = columnBytes(r);
        file.directStrings = r.hasMetadataValue(OrcSupport.DIRECT_STRINGS_KEY)
            ? java.util.Set.of(java.nio.charset.StandardCharsets.UTF_8.decode(
                r.getMetadataValue(OrcSupport.DIRECT_STRINGS_KEY)).toString().split(","))
            : java.util.Set.of();
        byte[] sketches = new byte[0];
        if (r.hasMetadataValue(OrcSupport.DISTINCT_KEY)) {
          ByteBuffer d = r.getMetadataValue(OrcSupport.DISTINCT_KEY);
          sketches = new byte[d.remaining()];
          d.get(sketches);
        }
        file.distinct = sketches;
        if (file.fileSchema == null) {
          file.fileSchema = OrcTypes.logical(r.getSchema());
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read part " + info.name() + ": " + e.getMessage(), e);
      }
    }
  }

  /** Bytes on disk of each top-level column of the file, from the footer's statistics (zeros if it has none). */
  private static long[] columnBytes(Reader r) {
    List<TypeDescription> fields = r.getSchema().getChildren();
    org.apache.orc.ColumnStatistics[] stats = r.getStatistics();
    long[] out = new long[fields.size()];
    for (int f = 0; f < out.length; f++) {
      for (int id = fields.get(f).getId(); id <= fields.get(f).getMaximumId() && id < stats.length; id++) {
        out[f] += stats[id].getBytesOnDisk();
      }
    }
    return out;
  }

  /**
   * The bytes reading the {@code include}d table columns (ORC's convention: column c at c + 1)
   * fetches from the part, or from one stripe when {@code stripe} ≥ 0: the stripe's length times
   * those columns' share of the file's column bytes in the footer; the whole length when the
   * footer records none or has not been read yet (this makes no request).
   */
  public long bytesToRead(TableSchema schema, boolean[] include, int stripe) {
    long length = stripe >= 0 ? stripes().get(stripe).getLength() : info.bytesOnDisk();
    long[] bytes = file.columnBytes;
    if (bytes == null) {
      return length;
    }
    ColumnMapping m = mapping(schema);
    long all = 0;
    long read = 0;
    for (long b : bytes) {
      all += b;
    }
    for (int c = 0; c < schema.size(); c++) {
      if (include[c + 1] && m.fileColumn(c) >= 0 && m.fileColumn(c) < bytes.length) {
        read += bytes[m.fileColumn(c)];
      }
    }
    return all <= 0 ? length : (long) (length * ((double) read / all));
  }

  /** How this part's columns map to {@code schema} (cached for the last schema asked). */
  public ColumnMapping mapping(TableSchema schema) {
    ColumnMapping m = file.mapping;
    if (m == null || m.schema() != schema) {
      m = new ColumnMapping(schema, fileSchema());
      file.mapping = m;
    }
    return m;
  }

  /** Whether the part lives on remote storage (S3, HDFS). */
  public boolean remote() {
    return io.remote();
  }

  /** Takes a reference for a snapshot. */
  public void retain() {
    refs.incrementAndGet();
  }

  /**
   * Drops a reference; the last one of the last name using the file retires the file (deleted
   * now or after {@code old_parts_lifetime}, see {@link OldParts}).
   */
  public void release() {
    if (refs.decrementAndGet() == 0 && file.users.decrementAndGet() == 0) {
      oldParts.retire(info.path(), info.name());
    }
  }

  public int refCount() {
    return refs.get();
  }
}
