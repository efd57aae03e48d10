package dev.travertine.mergetree.part;

import dev.travertine.io.FileIO;
import dev.travertine.io.hadoop.FileIOFileSystem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.orc.Reader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A live part: its metadata, a reference count held by snapshots, and its granule index loaded
 * once on first use (parts are immutable). When the part has left the active set and no snapshot
 * holds it, its file is deleted.
 */
public final class PartRef {
  private static final Logger LOG = LoggerFactory.getLogger(PartRef.class);

  private final PartInfo info;
  private final FileIO io;
  private final FileIOFileSystem fs;
  private final AtomicInteger refs = new AtomicInteger(1); // the active set's own reference
  private volatile GranuleIndex index;
  private volatile boolean merging;

  public PartRef(PartInfo info, FileIO io, FileIOFileSystem fs, GranuleIndex index) {
    this.info = info;
    this.io = io;
    this.fs = fs;
    this.index = index;
  }

  public PartInfo info() {
    return info;
  }

  public String name() {
    return info.name();
  }

  public boolean merging() {
    return merging;
  }

  public void setMerging(boolean m) {
    merging = m;
  }

  /** Opens the part's ORC file. */
  public Reader openReader() throws IOException {
    return OrcSupport.openReader(fs, info.path(), info.bytesOnDisk());
  }

  /** The granule index, read from the file's footer the first time. */
  public GranuleIndex index() {
    GranuleIndex gi = index;
    if (gi == null) {
      synchronized (this) {
        gi = index;
        if (gi == null) {
          try {
            Reader r = openReader();
            ByteBuffer bb = r.getMetadataValue(OrcSupport.GRANULE_INDEX_KEY);
            byte[] data = new byte[bb.remaining()];
            bb.get(data);
            gi = GranuleIndex.deserialize(data);
            r.close();
          } catch (IOException e) {
            throw new UncheckedIOException("Cannot read part " + info.name() + ": " + e.getMessage(), e);
          }
          index = gi;
        }
      }
    }
    return gi;
  }

  /** Takes a reference for a snapshot. */
  public void retain() {
    refs.incrementAndGet();
  }

  /** Drops a reference; the last one deletes the file. */
  public void release() {
    if (refs.decrementAndGet() == 0) {
      try {
        io.delete(info.path());
      } catch (IOException e) {
        LOG.warn("Cannot delete replaced part {}: {}", info.name(), e.toString());
      }
    }
  }

  public int refCount() {
    return refs.get();
  }
}
