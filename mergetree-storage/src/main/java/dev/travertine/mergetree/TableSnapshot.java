package dev.travertine.mergetree;

import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.schema.TableDefinition;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An immutable view of a table for one query: its active parts (referenced, so merges can't
 * delete them) and the rows in its insert buffer. Close it when the query ends.
 */
public final class TableSnapshot implements AutoCloseable {
  private final TableDefinition definition;
  private final List<PartRef> parts;
  private final List<Block> buffered;
  private final AtomicBoolean closed = new AtomicBoolean();

  TableSnapshot(TableDefinition definition, List<PartRef> parts, List<Block> buffered) {
    this.definition = definition;
    this.parts = parts;
    this.buffered = buffered;
    parts.forEach(PartRef::retain);
  }

  public TableDefinition definition() {
    return definition;
  }

  public List<PartRef> parts() {
    return parts;
  }

  public List<Block> buffered() {
    return buffered;
  }

  public long bufferedRows() {
    return buffered.stream().mapToLong(Block::rows).sum();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      parts.forEach(PartRef::release);
    }
  }
}
