package dev.travertine.mergetree;

import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.mutation.CompiledMutation;
import dev.travertine.mergetree.mutation.MutationCompiler;
import dev.travertine.mergetree.mutation.MutationEntry;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.schema.TableDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An immutable view of a table for one query: its active parts (referenced, so merges can't
 * delete them), the rows in its insert buffer, and the mutations its parts still need. When the
 * table had no pending mutation, {@code mutations} is null and reads do no mutation lookup at all.
 * Close it when the query ends.
 */
public final class TableSnapshot implements AutoCloseable {
  private final TableDefinition definition;
  private final List<PartRef> parts;
  private final List<Block> buffered;
  private final List<MutationEntry> mutations;
  private final MutationCompiler compiler;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final java.util.Map<PartRef, List<CompiledMutation>> pending = new java.util.concurrent.ConcurrentHashMap<>();

  TableSnapshot(TableDefinition definition, List<PartRef> parts, List<Block> buffered,
      List<MutationEntry> mutations, MutationCompiler compiler) {
    this.definition = definition;
    this.parts = parts;
    this.buffered = buffered;
    this.mutations = mutations;
    this.compiler = compiler;
    parts.forEach(PartRef::retain);
  }

  /**
   * A snapshot of the given parts alone, with no insert buffer and no pending mutation: what a
   * replica reads for another node's query, which fixed the parts (closing it releases them).
   */
  public static TableSnapshot ofParts(TableDefinition definition, List<PartRef> parts) {
    return new TableSnapshot(definition, List.copyOf(parts), List.of(), null, null);
  }

  /**
   * The same view, with references of its own: for a reader that closes its snapshot when done
   * (a scan) while the owner keeps using this one.
   */
  public TableSnapshot retainCopy() {
    return new TableSnapshot(definition, parts, buffered, mutations, compiler);
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

  /**
   * The sketch of column {@code c}'s distinct non-NULL values in the parts (the union of theirs,
   * {@link dev.travertine.mergetree.part.ColumnSketches}), or null when a part with rows has none for
   * it: written before parts had sketches, or before the column was added or retyped. The insert
   * buffer is not in it. Values changed by pending mutations are not either. Without {@code
   * readFooters}, also null when a part's footer has not been read yet (the sketches are in it:
   * a planner on remote storage asks without, so planning makes no request per part).
   */
  public dev.travertine.vector.HyperLogLog distinct(int c, boolean readFooters) {
    dev.travertine.vector.HyperLogLog out = new dev.travertine.vector.HyperLogLog();
    for (PartRef p : parts) {
      if (p.info().rows() == 0) {
        continue;
      }
      if (!readFooters && !p.footerRead()) {
        return null;
      }
      dev.travertine.mergetree.part.ColumnMapping m = p.mapping(definition.schema());
      dev.travertine.vector.HyperLogLog h = m.sameType(c) ? p.distinct(m.fileColumn(c)) : null;
      if (h == null) {
        return null;
      }
      out.merge(h);
    }
    return out;
  }

  /** Whether any part may need a mutation applied on read (false: no lookup needed anywhere). */
  public boolean mayHavePendingMutations() {
    return mutations != null;
  }

  /**
   * The mutations a part still needs, in block order: those not killed with a block number above
   * its data version. The insert buffer never needs any (a mutation flushes it first).
   */
  public List<CompiledMutation> pendingFor(PartRef part) {
    if (mutations == null) {
      return List.of();
    }
    // Index analysis, the scanner and each part source ask: looked up once per part.
    return pending.computeIfAbsent(part, this::lookUp);
  }

  private List<CompiledMutation> lookUp(PartRef part) {
    long version = part.info().version();
    List<CompiledMutation> out = null;
    for (MutationEntry m : mutations) {
      if (m.appliesTo(version)) {
        if (out == null) {
          out = new ArrayList<>();
        }
        out.add(m.compiled(compiler, definition.schema()));
      }
    }
    return out == null ? List.of() : out;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      parts.forEach(PartRef::release);
    }
  }
}
