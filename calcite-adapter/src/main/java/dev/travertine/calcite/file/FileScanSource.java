package dev.travertine.calcite.file;

import dev.travertine.calcite.runtime.VectorizedRuntime;
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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;

/**
 * Files as a vectorized fragment's scan: {@code max_threads} workers on the engine's scan pool take
 * read tasks — a Parquet row group, or a whole ORC or text file — read the projected columns into
 * vectors, run the fragment's per-worker stage (filter, expressions, partial aggregation) on each
 * batch where it was decoded, and hand the results on. COUNT(*) of Parquet and ORC files comes
 * from their footers (statistics), with nothing decoded.
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
    return new Parallel(tasks, stages, limit, Math.max(1, Math.min(threads, tasks.size())));
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

  private static final Object END = new Object();

  /** The workers and the queue of their results. */
  private final class Parallel implements BatchIterator {
    private final List<Task> tasks;
    private final BatchStage.Factory stages;
    private final long limit;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final BlockingQueue<Object> out;
    private final List<Future<?>> workers = new ArrayList<>();
    private final TypeKind[] kinds;
    private int ended;
    private final int n;
    private long emitted;

    Parallel(List<Task> tasks, BatchStage.Factory stages, long limit, int n) {
      this.tasks = tasks;
      this.stages = stages;
      this.limit = limit;
      this.n = n;
      this.out = new ArrayBlockingQueue<>(4 * n);
      kinds = new TypeKind[projection.length];
      for (int i = 0; i < projection.length; i++) {
        kinds[i] = table.schema().column(projection[i]).type().kind();
      }
      for (int i = 0; i < n; i++) {
        workers.add(pool.submit(this::work));
      }
    }

    private void work() {
      try {
        BatchStage stage = stages == null ? null : stages.create();
        ParquetFileBatches open = null;
        FileInfo openFile = null;
        try {
          int k;
          while (!stop.get() && (k = next.getAndIncrement()) < tasks.size()) {
            Task t = tasks.get(k);
            if (t.group() >= 0) {
              if (openFile != t.file()) {
                if (open != null) {
                  open.close();
                }
                open = table.openParquet(t.file());
                openFile = t.file();
              }
              if (projection.length == 0) {
                long left = open.rows(t.group());
                while (left > 0 && !stop.get()) {
                  VectorizedRowBatch b = new VectorizedRowBatch(0);
                  b.size = (int) Math.min(left, 1024);
                  left -= b.size;
                  emit(b, stage);
                }
              } else {
                open.read(t.group(), projection, b -> emit(b, stage));
              }
            } else {
              try (FileTable.FileBatches f = table.openFile(t.file(), projection)) {
                VectorizedRowBatch b;
                while (!stop.get() && (b = f.next()) != null) {
                  emit(b, stage);
                }
              }
            }
          }
        } finally {
          if (open != null) {
            open.close();
          }
        }
      } catch (Throwable e) {
        stop.set(true);
        put(e);
      } finally {
        put(END);
      }
    }

    private void emit(VectorizedRowBatch b, BatchStage stage) {
      if (b.size == 0 || stop.get()) {
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
      Batch sb = new Batch(cols, Batch.identity(b.size), b.size);
      Batch r = stage == null ? sb : stage.apply(sb);
      if (r != null && r.size() > 0) {
        put(r);
      }
    }

    private void put(Object o) {
      try {
        while (!out.offer(o, 50, TimeUnit.MILLISECONDS)) {
          if (stop.get() && o != END && !(o instanceof Throwable)) {
            return;
          }
          if (closed) {
            return;
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    private volatile boolean closed;

    @Override public Batch next() throws IOException {
      if (limit >= 0 && emitted >= limit) {
        return null;
      }
      while (ended < n) {
        Object o;
        try {
          o = out.take();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("Interrupted while reading " + table.describe(), e);
        }
        if (o == END) {
          ended++;
          continue;
        }
        if (o instanceof Throwable t) {
          stop.set(true);
          if (t instanceof IOException io) {
            throw io;
          }
          if (t instanceof RuntimeException re) {
            throw re;
          }
          if (t instanceof Error err) {
            throw err;
          }
          throw new IOException(t);
        }
        Batch b = (Batch) o;
        int size = b.size();
        if (limit >= 0 && emitted + size > limit) {
          size = (int) (limit - emitted);
        }
        emitted += size;
        return size == b.size() ? b : new Batch(b.cols(), b.sel(), size);
      }
      return null;
    }

    @Override public void close() {
      stop.set(true);
      closed = true;
      out.clear();
      for (Future<?> f : workers) {
        try {
          f.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
          f.cancel(true);
        }
        out.clear();
      }
    }
  }
}
