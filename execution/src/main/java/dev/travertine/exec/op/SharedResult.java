package dev.travertine.exec.op;

import dev.travertine.vector.Batch;
import dev.travertine.vector.BatchIterator;
import dev.travertine.vector.BatchStage;
import dev.travertine.vector.DataType;
import dev.travertine.vector.RowFilter;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The result of a subplan that a query uses more than once (a view or common table expression
 * read twice, as TPC-H Q15's revenue per supplier: joined with the suppliers and, through its
 * maximum, with itself), as the scan of the fragments that read it. The first {@link #open} runs
 * the subplan to its end and keeps its batches, charged to the query's memory; every open then
 * hands them, in the same order, through the opener's stages on the opener's thread. Each use
 * reads exactly what the others read, and the subplan's scans run once.
 *
 * <p>Its batches are its fields themselves (a fragment over it maps its fields one to one). It
 * reads no table, so it has no statistics and ignores PREWHERE and runtime filters' narrowing:
 * the opener's stages still apply both to every row.
 */
public final class SharedResult implements ScanSource {
  /** Runs the subplan; its output is read to the end once and closed. */
  public interface Producer {
    BatchIterator run() throws IOException;
  }

  private final Producer producer;
  private final List<DataType> types;
  private final MemoryTracker.Account account;
  private List<Batch> batches;
  private long rows;

  /**
   * @param types the subplan's output field types (for the bytes it holds)
   * @param memory the query's tracker: the kept batches are charged to it until {@link #release}
   */
  public SharedResult(Producer producer, List<DataType> types, MemoryTracker memory) {
    this.producer = Objects.requireNonNull(producer, "producer");
    this.types = List.copyOf(types);
    this.account = memory.account();
  }

  /** Runs the subplan if no open has yet; a failure reaches every opener that tries again. */
  private synchronized List<Batch> batches() throws IOException {
    if (batches == null) {
      List<Batch> kept = new ArrayList<>();
      long held = 0;
      long n = 0;
      try (BatchIterator it = producer.run()) {
        Batch b;
        while ((b = it.next()) != null) {
          kept.add(b);
          n += b.size();
          for (int c = 0; c < b.cols().length; c++) {
            held += Vectors.bytes(b.cols()[c], types.get(c).kind(), b.size());
          }
          account.resize(held);
        }
      } catch (IOException | RuntimeException | Error e) {
        account.release();
        throw e;
      }
      batches = kept;
      rows = n;
    }
    return batches;
  }

  /** Rows of the result (0 before the first open). */
  public synchronized long rows() {
    return rows;
  }

  /** Lets the kept batches go and gives their bytes back (the query is over). */
  public synchronized void release() {
    batches = List.of();
    account.release();
  }

  /** {@code limit}: the opener may stop after that many rows pass its stage (-1 = all). */
  @Override public BatchIterator open(BatchStage.Factory stages, long limit, RowFilter prewhere) throws IOException {
    List<Batch> all = batches();
    BatchStage stage = stages == null ? null : stages.create();
    return new BatchIterator() {
      private int next;
      private long handed;

      @Override public Batch next() {
        while (next < all.size() && (limit < 0 || handed < limit)) {
          Batch in = all.get(next++);
          Batch out = stage == null ? in : stage.apply(in);
          if (out != null && out.size() > 0) {
            handed += out.size();
            return out;
          }
        }
        return null;
      }

      @Override public void close() {}
    };
  }

  @Override public Statistics statistics() {
    return null;
  }
}
