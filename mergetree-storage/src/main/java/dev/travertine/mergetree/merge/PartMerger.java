package dev.travertine.mergetree.merge;

import dev.travertine.mergetree.block.Vectors;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.part.PartWriter;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TypeKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;

/**
 * Merges sorted parts into one sorted stream: a k-way merge on the sort key, ties broken by
 * block order so rows keep their insertion order (a stable merge). Without a sort key the parts
 * are concatenated in block order.
 */
public final class PartMerger {
  private PartMerger() {}

  private static final class Cursor implements AutoCloseable {
    final int order;
    final Reader reader;
    final RecordReader rows;
    final VectorizedRowBatch batch;
    int pos;

    Cursor(int order, PartRef part, TableDefinition def) throws IOException {
      this.order = order;
      this.reader = part.openReader();
      this.rows = reader.rows(reader.options());
      this.batch = def.schema().orcSchema().createRowBatch(1024);
    }

    boolean advance() throws IOException {
      pos++;
      if (pos < batch.size) {
        return true;
      }
      pos = 0;
      return rows.nextBatch(batch) && batch.size > 0;
    }

    boolean start() throws IOException {
      pos = 0;
      return rows.nextBatch(batch) && batch.size > 0;
    }

    @Override
    public void close() throws IOException {
      rows.close();
      reader.close();
    }
  }

  public static void merge(TableDefinition def, List<PartRef> sources, PartWriter out) throws IOException {
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
        cursors.add(new Cursor(i, ordered.get(i), def));
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
