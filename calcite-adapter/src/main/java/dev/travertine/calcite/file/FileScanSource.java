package dev.travertine.calcite.file;

import dev.travertine.calcite.runtime.VectorizedRuntime;
import dev.travertine.exec.driver.Driver;
import dev.travertine.exec.driver.Morsel;
import dev.travertine.exec.driver.MorselSource;
import dev.travertine.exec.op.ScanSource;
import dev.travertine.formats.FileLoad;
import dev.travertine.formats.parquet.ParquetFileBatches;
import dev.travertine.io.FileInfo;
import dev.travertine.mergetree.settings.SessionSettings;
import dev.travertine.mergetree.settings.Settings;
import dev.travertine.vector.Batch;
import dev.travertine.vector.BatchIterator;
import dev.travertine.vector.BatchStage;
import dev.travertine.vector.RowFilter;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;

/**
 * Files as a vectorized fragment's scan: {@code max_threads} workers on the engine's scan pool take
 * read tasks — a Parquet row group, or a whole ORC or text file — read the projected columns into
 * vectors, run the fragment's per-worker stage (filter, expressions, partial aggregation) on each
 * batch where it was decoded, and hand the results on: the morsels of a {@link Driver}. COUNT(*)
 * of Parquet and ORC files comes from their footers (statistics), with nothing decoded.
 */
public final class FileScanSource implements VectorizedRuntime.CountedSource {
  private final FileTable table;
  private final int[] projection;
  private final int threads;
  private final ExecutorService pool;
  private final AtomicLong rows = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();

  public FileScanSource(FileTable table, int[] projection, SessionSettings settings, ExecutorService pool) {
    this.table = table;
    this.projection = projection;
    this.threads = (int) Math.max(1, settings.getLong(Settings.MAX_THREADS));
    this.pool = pool;
  }

  /** A read task: row group {@code group} of a Parquet file, or a whole file ({@code group} -1). */
  private record Task(FileInfo file, int group) {}

  @Override public BatchIterator open(BatchStage.Factory stages, long limit, RowFilter prewhere) throws IOException {
    List<Task> tasks = new ArrayList<>();
    boolean parquet = !table.format().isText() && table.format().binary() == FileLoad.Kind.PARQUET;
    for (FileInfo f : table.files()) {
      if (parquet) {
        try (ParquetFileBatches p = ParquetFileBatches.open(table.io().newInputFile(f.path(), f.length()), f.path())) {
          for (int g = 0; g < p.rowGroups(); g++) {
            tasks.add(new Task(f, g));
          }
        }
      } else {
        tasks.add(new Task(f, -1));
      }
    }
    TypeKind[] kinds = new TypeKind[projection.length];
    for (int i = 0; i < projection.length; i++) {
      kinds[i] = table.schema().column(projection[i]).type().kind();
    }
    List<Morsel> morsels = new ArrayList<>();
    for (Task t : tasks) {
      morsels.add(morsel(t, kinds));
    }
    return Driver.start(pool, Math.max(1, Math.min(threads, tasks.size())), MorselSource.of(morsels), stages, limit,
        table.describe());
  }

  @Override public Statistics statistics() {
    if (table.format().isText()) {
      return null;
    }
    long n = 0;
    for (FileInfo f : table.files()) {
      try {
        n += table.rowCount(f);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + f.path() + ": " + e.getMessage(), e);
      }
    }
    return new Statistics(n, new boolean[projection.length], new Object[projection.length],
        new Object[projection.length]);
  }

  @Override public long rowsRead() {
    return rows.get();
  }

  @Override public long bytesRead() {
    return bytes.get();
  }

  /** Reads task {@code t}'s batches into {@code sink} (its worker keeps a Parquet file open for its next row group). */
  private Morsel morsel(Task t, TypeKind[] kinds) {
    return sink -> {
      if (t.group() < 0) {
        try (FileTable.FileBatches f = table.openFile(t.file(), projection)) {
          VectorizedRowBatch b;
          while (!sink.stopped() && (b = f.next()) != null) {
            emit(b, kinds, sink);
          }
        }
        return;
      }
      ParquetFileBatches open = sink.keep("parquet", t.file(), () -> table.openParquet(t.file()));
      if (projection.length == 0) {
        long left = open.rows(t.group());
        while (left > 0 && !sink.stopped()) {
          VectorizedRowBatch b = new VectorizedRowBatch(0);
          b.size = (int) Math.min(left, 1024);
          left -= b.size;
          emit(b, kinds, sink);
        }
      } else {
        open.read(t.group(), projection, b -> emit(b, kinds, sink));
      }
    };
  }

  /** Counts a batch read and hands it to the worker's stage. */
  private void emit(VectorizedRowBatch b, TypeKind[] kinds, Morsel.Sink sink) throws IOException {
    if (b.size == 0 || sink.stopped()) {
      return;
    }
    ColumnVector[] cols = new ColumnVector[table.schema().size()];
    long size = 0;
    for (int i = 0; i < projection.length; i++) {
      cols[projection[i]] = b.cols[i];
      size += Vectors.bytes(b.cols[i], kinds[i], b.size);
    }
    rows.addAndGet(b.size);
    bytes.addAndGet(size);
    sink.push(new Batch(cols, Batch.identity(b.size), b.size));
  }
}
