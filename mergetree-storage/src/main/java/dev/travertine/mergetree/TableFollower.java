package dev.travertine.mergetree;

import dev.travertine.mergetree.log.MetadataLog;
import dev.travertine.mergetree.part.PartInfo;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.schema.TableDefinition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What keeps a table attached read-only (ATTACH TABLE … FROM) up with the node that writes it:
 * the metadata log it appends to and the definition it publishes (docs/design/storage-format.md).
 * The storage is read outside the table's lock; the newest state read wins.
 */
final class TableFollower {
  private static final Logger LOG = LoggerFactory.getLogger(TableFollower.class);

  private final MergeTreeTable t;
  /** The log as last applied (guarded by the table's lock). */
  private MetadataLog.State logState;
  /** The log moved since the definition was last read (the writer's ALTER appends an entry). */
  private boolean definitionStale;
  /** Refreshes (which install definitions) one at a time: an older definition never replaces a newer one. */
  private final ReentrantLock refreshing = new ReentrantLock();
  /** When a refresh last failed: statements skip refreshing for {@link #BACKOFF_MILLIS} after it. */
  private volatile long failedAt = Long.MIN_VALUE / 2;
  static final long BACKOFF_MILLIS = 10_000;

  TableFollower(MergeTreeTable t, MetadataLog.State opened) {
    this.t = t;
    this.logState = opened;
  }

  /**
   * What a statement does before it is planned: catches up, definition included, unless a
   * refresh failed within the last {@link #BACKOFF_MILLIS} (the statement's own read then says
   * why, and statements that do not read the table are not held up by its storage).
   */
  boolean refresh() {
    long now = t.ctx.clock().millis();
    if (now - failedAt < BACKOFF_MILLIS) {
      return false;
    }
    refreshing.lock();
    try {
      return catchUp(true);
    } catch (RuntimeException e) {
      failedAt = t.ctx.clock().millis();
      throw e;
    } finally {
      refreshing.unlock();
    }
  }

  /**
   * Catches up with the entries the writer has committed since. With {@code withDefinition}, the
   * definition is read again too when the log moved; else a snapshot keeps the definition its
   * statement was planned with (parts are read by column name). Returns whether the definition
   * changed.
   */
  boolean catchUp(boolean withDefinition) {
    MetadataLog.State prev;
    boolean stale;
    synchronized (t.lock) {
      if (t.closed) {
        throw new IllegalStateException("Table " + t.definition().name() + " is closed or dropped");
      }
      prev = logState;
      stale = definitionStale;
    }
    MetadataLog.State s;
    TableDefinition published = null;
    try {
      s = t.log.catchUp(prev);
      if (withDefinition && (s != prev || stale)) {
        published = MergeTreeTable.readPublishedDefinition(t.io);
      }
    } catch (IOException e) {
      throw failed(e);
    } catch (UncheckedIOException e) {
      throw failed(e.getCause());
    }
    synchronized (t.lock) {
      boolean changed = false;
      if (published != null) {
        TableDefinition d = t.definition();
        TableDefinition next = published.withName(d.name());
        if (!next.equals(d)) {
          LOG.info("Table {}: its writer changed the definition", d.name());
          t.setDefinition(next);
          changed = true;
        }
        if (logState == prev) {
          definitionStale = false;
        }
      }
      if (s == prev || s.lastSeq() <= logState.lastSeq()) {
        return changed; // nothing new, or another query caught up further meanwhile
      }
      if (published == null) {
        definitionStale = true;
      }
      Map<String, PartRef> have = new HashMap<>();
      t.state.parts().forEach(p -> have.put(p.name() + "\n" + p.info().path(), p));
      List<PartRef> parts = new ArrayList<>();
      for (PartInfo p : s.active().values()) {
        PartRef kept = have.remove(p.name() + "\n" + p.path());
        parts.add(kept != null ? kept : new PartRef(p, t.io, t.fs, null, t.oldParts));
      }
      parts.sort(MergeTreeTable.PART_ORDER);
      t.state = MergeTreeTable.State.ofLog(parts, s);
      have.values().forEach(PartRef::release);
      logState = s;
      t.logSeq = s.lastSeq();
      t.nextBlock = s.nextBlock();
      return changed;
    }
  }

  private UncheckedIOException failed(IOException e) {
    return new UncheckedIOException("Cannot read the metadata log of table " + t.definition().name()
        + " attached from " + t.io.location() + ": " + e.getMessage(), e);
  }
}
