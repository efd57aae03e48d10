package dev.travertine.exec.op;

import dev.travertine.vector.BatchIterator;
import dev.travertine.vector.DataType;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * Where operators put what does not fit in memory: files of batches, written by one thread and
 * read back in the order written, deleted when closed. The engine knows no format or directory;
 * the caller injects them (the adapter's spills use the exchange's block format under the
 * database's {@code tmp/}).
 */
public interface SpillStore {
  /** A new, empty file for batches of {@code types}. */
  SpillFile create(List<DataType> types) throws IOException;

  /** One spill file. */
  interface SpillFile extends Closeable {
    /** Appends rows {@code sel[0 .. n)} of {@code cols}. */
    void append(ColumnVector[] cols, int[] sel, int n) throws IOException;

    /** Ends the writing; the batches as appended. Closing the file ends the reading too. */
    BatchIterator read() throws IOException;

    /** Bytes written so far. */
    long bytes();

    /** Deletes the file (idempotent). */
    @Override void close() throws IOException;
  }

  /**
   * How joins may spill: a join whose build side holds more than {@code maxBytesInJoin} bytes
   * goes to {@code store} in partitions (0 or a null store: never).
   */
  record JoinSpilling(long maxBytesInJoin, SpillStore store) {
    public static final JoinSpilling NONE = new JoinSpilling(0, null);

    public boolean enabled() {
      return maxBytesInJoin > 0 && store != null;
    }
  }
}
