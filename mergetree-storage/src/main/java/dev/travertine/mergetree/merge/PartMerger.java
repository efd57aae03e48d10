package dev.travertine.mergetree.merge;

import dev.travertine.mergetree.mutation.CompiledMutation;
import dev.travertine.mergetree.mutation.Mutations;
import dev.travertine.mergetree.part.PartReader;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.part.PartWriter;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Function;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;

/**
 * Merges sorted parts into one sorted stream: a k-way merge on the sort key, ties broken by
 * block order so rows keep their insertion order (a stable merge). Without a sort key the parts
 * are concatenated in block order. Pending mutations are applied per source while reading.
 */
public final class PartMerger {
  private PartMerger() {}

  /** Reads one source part batch by batch; {@code pos} is the current row (after its mutations). */
  private static final class Cursor implements AutoCloseable {
    final int order;
    final PartReader rows;
    final VectorizedRowBatch batch;
    final List<CompiledMutation> mutations;
    final int[] sel = new int[1024];
    int n;
    int k;
    int pos;

    Cursor(int order, PartRef part, TableDefinition def, List<CompiledMutation> mutations) throws IOException {
      this.order = order;
      this.rows = PartReader.open(part, def.schema(), null, null, null, 0, -1);
      this.batch = def.schema().orcSchema().createRowBatch(org.apache.orc.TypeDescription.RowBatchVersion.USE_DECIMAL64, 1024);
      this.mutations = mutations;
    }

    /** Reads batches until one has a row left after the part's pending mutations. */
    private boolean load() throws IOException {
      while (rows.next(batch)) {
        n = Mutations.selectAll(mutations, batch.cols, batch.size, sel);
        if (n > 0) {
          k = 0;
          pos = sel[0];
          return true;
        }
      }
      return false;
    }

    boolean advance() throws IOException {
      if (++k < n) {
        pos = sel[k];
        return true;
      }
      return load();
    }

    boolean start() throws IOException {
      return load();
    }

    @Override
    public void close() throws IOException {
      rows.close();
    }
  }

  /**
   * Writes the merge of {@code sources} to {@code out}, applying to each source the mutations
   * {@code pending} gives for it (rows from different blocks may need different mutations).
   */
  public static void merge(TableDefinition def, List<PartRef> sources,
      Function<PartRef, List<CompiledMutation>> pending, PartWriter out) throws IOException {
    List<PartRef> ordered = new ArrayList<>(sources);
    ordered.sort(Comparator.comparingLong(p -> p.info().minBlock()));
    int[] key = def.sortKeyIndexes();
    TypeKind[] kinds = new TypeKind[key.length];
    for (int i = 0; i < key.length; i++) {
      kinds[i] = def.schema().column(key[i]).type().kind();
    }
    List<Cursor> cursors = new ArrayList<>();
    try {
      for (int i = 0; i < ordered.size(); i++) {
        cursors.add(new Cursor(i, ordered.get(i), def, pending.apply(ordered.get(i))));
      }
      if (key.length == 0) {
        for (Cursor c : cursors) {
          if (c.start()) {
            do {
              out.append(c.batch.cols, c.pos);
            } while (c.advance());
          }
        }
        return;
      }
      PriorityQueue<Cursor> heap = new PriorityQueue<>((a, b) -> {
        for (int i = 0; i < key.length; i++) {
          int c = Vectors.compare(a.batch.cols[key[i]], a.pos, b.batch.cols[key[i]], b.pos, kinds[i]);
          if (c != 0) {
            return c;
          }
        }
        return Integer.compare(a.order, b.order);
      });
      for (Cursor c : cursors) {
        if (c.start()) {
          heap.add(c);
        }
      }
      while (!heap.isEmpty()) {
        Cursor c = heap.poll();
        out.append(c.batch.cols, c.pos);
        if (c.advance()) {
          heap.add(c);
        }
      }
    } finally {
      for (Cursor c : cursors) {
        c.close();
      }
    }
  }
}
