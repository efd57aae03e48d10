package dev.travertine.mergetree.part;

import dev.travertine.io.FileIO;
import java.io.IOException;
import java.time.Clock;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Files of parts that left a table's active set and that no snapshot of this process holds. They
 * stay on storage for {@code old_parts_lifetime} (ClickHouse's setting of that name): another node
 * that attached the table read-only may be reading them for a query that took its snapshot before
 * the merge. {@link #removeExpired()} deletes those older than that; a lifetime of 0 deletes at
 * once. Files still here when the table next opens are deleted then (nothing references them).
 */
public final class OldParts {
  private static final Logger LOG = LoggerFactory.getLogger(OldParts.class);

  /** For a table attached read-only: its writer owns the files, this node never deletes one. */
  public static final OldParts NEVER_DELETE = new OldParts(null, null, () -> Long.MAX_VALUE);

  private record Retired(String path, String name, long at) {}

  private final FileIO io;
  private final Clock clock;
  private final LongSupplier lifetimeMillis;
  private final ConcurrentLinkedQueue<Retired> retired = new ConcurrentLinkedQueue<>();

  public OldParts(FileIO io, Clock clock, LongSupplier lifetimeMillis) {
    this.io = io;
    this.clock = clock;
    this.lifetimeMillis = lifetimeMillis;
  }

  /** The part's file is no longer used here: deleted now or when its lifetime is over. */
  void retire(String path, String name) {
    if (io == null) {
      return;
    }
    if (lifetimeMillis.getAsLong() <= 0) {
      delete(path, name);
    } else {
      retired.add(new Retired(path, name, clock.millis()));
    }
  }

  /** Deletes the files retired at least the lifetime ago; returns how many. */
  public int removeExpired() {
    if (io == null || retired.isEmpty()) {
      return 0;
    }
    long now = clock.millis();
    long lifetime = lifetimeMillis.getAsLong();
    int n = 0;
    for (Iterator<Retired> it = retired.iterator(); it.hasNext(); ) {
      Retired r = it.next();
      if (now - r.at() >= lifetime) {
        it.remove();
        delete(r.path(), r.name());
        n++;
      }
    }
    return n;
  }

  /** Files retired and not yet deleted. */
  public int waiting() {
    return retired.size();
  }

  private void delete(String path, String name) {
    try {
      io.delete(path);
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot delete replaced part {}: {}", name, e.toString());
    }
  }
}
