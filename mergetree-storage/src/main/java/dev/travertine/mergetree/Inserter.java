package dev.travertine.mergetree;

import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.mergetree.settings.Settings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * One INSERT statement. Rows gather into blocks of {@code maxInsertBlockSize}; full blocks are
 * written as parts in the background while the next one fills. {@link #commit()} makes every row
 * visible at once: a small insert goes to the WAL-backed buffer, a large one commits its parts in
 * a single log entry. Closing without committing discards everything.
 *
 * <p>Bulk loads that build whole blocks on several threads hand them over with
 * {@link #writeBlock(Block)} (thread-safe: the part is sorted and written in the caller's thread);
 * the one commit still makes all of them visible together.
 */
public final class Inserter implements AutoCloseable {
  private final MergeTreeTable table;
  private final long maxBlockRows;
  private Block current;
  private final List<PartRef> written = new ArrayList<>();
  private Future<List<PartRef>> pending;
  private long rows;
  private boolean done;

  Inserter(MergeTreeTable table, long maxBlockRows) {
    this.table = table;
    this.maxBlockRows = Math.max(1, maxBlockRows);
    this.current = new Block(table.definition().schema());
  }

  public TableSchema schema() {
    return current.schema();
  }

  /** Adds one row of storage-representation values. */
  public void add(Object[] row) throws IOException {
    current.appendRow(row);
    rows++;
    if (current.rows() >= maxBlockRows) {
      writeCurrent();
    }
  }

  public synchronized long rows() {
    return rows;
  }

  /**
   * Writes a whole block as parts (split by partition, sorted) in the calling thread, to become
   * visible at {@link #commit()}. Safe to call from several threads at once, but not together
   * with {@link #add(Object[])}.
   */
  public void writeBlock(Block block) throws IOException {
    if (block.rows() == 0) {
      return;
    }
    List<PartRef> parts = table.partWriter.writeParts(List.of(block), 0);
    synchronized (this) {
      if (done) {
        table.partWriter.discard(parts);
        throw new IllegalStateException("Cannot add rows: insert already finished");
      }
      written.addAll(parts);
      rows += block.rows();
    }
  }

  /** Adds all rows of a block (copied) to this insert, like {@link #add(Object[])} row by row. */
  public void addAll(Block block) throws IOException {
    current.appendAll(block);
    synchronized (this) {
      rows += block.rows();
    }
    if (current.rows() >= maxBlockRows) {
      writeCurrent();
    }
  }

  /** Bytes of the part files written so far (uncommitted). */
  public synchronized long writtenBytes() {
    return written.stream().mapToLong(p -> p.info().bytesOnDisk()).sum();
  }

  /** Part files written so far (uncommitted). */
  public synchronized int writtenParts() {
    return written.size();
  }

  private void writeCurrent() throws IOException {
    awaitPending();
    Block b = current;
    current = new Block(b.schema());
    pending = table.context().scanPool().submit(() -> table.partWriter.writeParts(List.of(b), 0));
  }

  private void awaitPending() throws IOException {
    if (pending == null) {
      return;
    }
    try {
      written.addAll(pending.get());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while writing a part", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException io) {
        throw io;
      }
      if (c instanceof RuntimeException re) {
        throw re;
      }
      throw new IOException(c);
    } finally {
      pending = null;
    }
  }

  /** Makes all rows visible; returns the row count. */
  public synchronized long commit() throws IOException {
    if (done) {
      throw new IllegalStateException("Cannot commit: insert already finished");
    }
    long direct = table.definition().tableSettings().getLong(Settings.MIN_ROWS_FOR_DIRECT_PART);
    if (pending == null && written.isEmpty() && current.rows() < direct) {
      if (current.rows() > 0) {
        table.insertBuffered(current);
      }
    } else {
      if (current.rows() > 0) {
        writeCurrent();
      }
      awaitPending();
      table.commit("insert", written, List.of(), false);
      table.scheduleMerges();
    }
    done = true;
    table.context().events().add(EngineEvents.INSERTED_ROWS, rows);
    table.context().events().add(EngineEvents.INSERT_QUERIES, 1);
    return rows;
  }

  @Override
  public synchronized void close() {
    if (!done) {
      done = true;
      try {
        awaitPending();
      } catch (IOException | RuntimeException e) {
        // Discarding anyway.
      }
      table.partWriter.discard(written);
    }
  }
}
