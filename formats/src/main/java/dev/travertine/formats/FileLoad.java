package dev.travertine.formats;

import dev.travertine.formats.parquet.ParquetFileBatches;
import dev.travertine.io.FileIO;
import dev.travertine.io.local.LocalFileIO;
import dev.travertine.mergetree.Inserter;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.block.OrcBatches;
import dev.travertine.mergetree.part.OrcSupport;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.OrcTypes;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.mergetree.settings.Settings;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Vectors;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;

/**
 * Loads Parquet and ORC files into a table as one insert, all or nothing, like {@link BulkLoad}
 * does for text. The files' footers are read first (on the calling thread): every file's columns
 * are matched to the table's by name (case-insensitive; file columns the table lacks are not
 * read, table columns the file lacks take their defaults) and each pair gets a
 * {@link ColumnConverter}, so a type that cannot be loaded fails before any data is read. Then
 * {@code threads} workers take the files' row groups (Parquet) or stripes (ORC) one at a time,
 * read them column at a time into vectors, convert them into the rows of their own block, and
 * write a part whenever the block is full. One commit at the end.
 */
public final class FileLoad {
  private FileLoad() {}

  /** The binary formats. */
  public enum Kind { PARQUET, ORC }

  /** One file: a name for messages, and where it lies. */
  public record Input(String name, FileIO io, String path, long length) {
    /** A local file. */
    public static Input local(Path p) throws IOException {
      Path abs = p.toAbsolutePath();
      Path dir = abs.getParent();
      return new Input(p.toString(), new LocalFileIO(dir, false), abs.getFileName().toString(), Files.size(abs));
    }
  }

  /** A file opened for reading its splits on one thread. */
  private interface Reading extends Closeable {
    TableSchema schema();

    int splits();

    long splitBytes(int split);

    void read(int split, int[] columns, ParquetFileBatches.BatchSink out) throws IOException;
  }

  private static Reading open(Kind kind, Input in) throws IOException {
    return kind == Kind.PARQUET ? parquet(in) : orc(in);
  }

  private static Reading parquet(Input in) throws IOException {
    ParquetFileBatches f = ParquetFileBatches.open(in.io().newInputFile(in.path(), in.length()), in.name());
    return new Reading() {
      @Override public TableSchema schema() {
        return f.schema();
      }

      @Override public int splits() {
        return f.rowGroups();
      }

      @Override public long splitBytes(int split) {
        return f.bytes(split);
      }

      @Override public void read(int split, int[] columns, ParquetFileBatches.BatchSink out) throws IOException {
        f.read(split, columns, out);
      }

      @Override public void close() throws IOException {
        f.close();
      }
    };
  }

  private static Reading orc(Input in) throws IOException {
    Reader r;
    try {
      r = OrcSupport.openReader(OrcSupport.fileSystem(in.io()), in.path(), in.length());
    } catch (org.apache.orc.FileFormatException | RuntimeException e) {
      throw new IllegalArgumentException("Cannot read " + in.name() + " as ORC: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new IOException("Cannot read " + in.name() + " as ORC: " + e.getMessage(), e);
    }
    TypeDescription t = r.getSchema();
    if (t.getCategory() != TypeDescription.Category.STRUCT || t.getChildren().isEmpty()) {
      r.close();
      throw new IllegalArgumentException("Cannot read " + in.name() + ": its ORC schema is not a struct of columns");
    }
    List<Column> cols = new ArrayList<>();
    for (int i = 0; i < t.getChildren().size(); i++) {
      TypeDescription c = t.getChildren().get(i);
      DataType dt;
      try {
        dt = OrcTypes.fromOrc(c);
      } catch (IllegalArgumentException e) {
        r.close();
        throw new IllegalArgumentException("Cannot read " + in.name() + ": column " + t.getFieldNames().get(i)
            + ": " + e.getMessage(), e);
      }
      cols.add(new Column(t.getFieldNames().get(i), dt, true));
    }
    TableSchema schema = new TableSchema(cols);
    List<StripeInformation> stripes = r.getStripes();
    return new Reading() {
      @Override public TableSchema schema() {
        return schema;
      }

      @Override public int splits() {
        return stripes.size();
      }

      @Override public long splitBytes(int split) {
        return stripes.get(split).getLength();
      }

      @Override public void read(int split, int[] columns, ParquetFileBatches.BatchSink out) throws IOException {
        boolean[] include = new boolean[t.getMaximumId() + 1];
        include[0] = true;
        for (int c : columns) {
          TypeDescription child = t.getChildren().get(c);
          for (int id = child.getId(); id <= child.getMaximumId(); id++) {
            include[id] = true;
          }
        }
        StripeInformation s = stripes.get(split);
        try (RecordReader rows = r.rows(r.options().range(s.getOffset(), s.getLength()).include(include))) {
          VectorizedRowBatch full = t.createRowBatch(Block.CHUNK);
          VectorizedRowBatch view = new VectorizedRowBatch(columns.length);
          while (next(rows, full, split)) {
            for (int i = 0; i < columns.length; i++) {
              view.cols[i] = full.cols[columns[i]];
            }
            view.size = full.size;
            out.accept(view);
          }
        }
      }

      private boolean next(RecordReader rows, VectorizedRowBatch batch, int split) throws IOException {
        try {
          return rows.nextBatch(batch) && batch.size > 0;
        } catch (IOException | RuntimeException e) {
          throw new IOException("Cannot read stripe " + split + " of " + in.name() + ": " + e.getMessage(), e);
        }
      }

      @Override public void close() throws IOException {
        r.close();
      }
    };
  }

  /**
   * What a file's columns become: the file columns read, the table column each goes to with its
   * converter, and the table columns the file lacks with the converter that writes their default.
   */
  private record Plan(int[] fileColumns, int[] tableColumnOf, ColumnConverter[] converters, int[] missing,
      ColumnConverter[] missingDefaults) {}

  private static Plan plan(TableSchema table, TableSchema file, String name, Object[] defaults, boolean copyStrings,
      boolean nullAsDefault) {
    List<Integer> read = new ArrayList<>();
    List<Integer> into = new ArrayList<>();
    List<ColumnConverter> conv = new ArrayList<>();
    boolean[] seen = new boolean[table.size()];
    for (int f = 0; f < file.size(); f++) {
      String n = file.column(f).name();
      int c = table.indexOf(n);
      if (c < 0) {
        for (int k = 0; k < table.size(); k++) {
          if (table.column(k).name().equalsIgnoreCase(n)) {
            c = k;
            break;
          }
        }
      }
      if (c < 0) {
        continue;
      }
      if (seen[c]) {
        throw new IllegalArgumentException(name + ": two columns of the file match column " + table.column(c).name());
      }
      seen[c] = true;
      Column tc = table.column(c);
      read.add(f);
      into.add(c);
      try {
        conv.add(new ColumnConverter(tc.name(), file.column(f).type(), tc.type(), tc.nullable(), nullAsDefault,
            copyStrings, defaults == null ? null : defaults[c]));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
      }
    }
    if (read.isEmpty()) {
      throw new IllegalArgumentException(name + ": none of the file's columns " + file.columns().stream()
          .map(Column::name).toList() + " is a column of the table");
    }
    List<Integer> missing = new ArrayList<>();
    List<ColumnConverter> missingDefaults = new ArrayList<>();
    for (int c = 0; c < seen.length; c++) {
      if (!seen[c]) {
        Column col = table.column(c);
        missing.add(c);
        missingDefaults.add(new ColumnConverter(col.name(), col.type(), col.type(), col.nullable(), true, false,
            defaults == null ? null : defaults[c]));
      }
    }
    return new Plan(read.stream().mapToInt(Integer::intValue).toArray(),
        into.stream().mapToInt(Integer::intValue).toArray(), conv.toArray(new ColumnConverter[0]),
        missing.stream().mapToInt(Integer::intValue).toArray(), missingDefaults.toArray(new ColumnConverter[0]));
  }

  private record Task(int file, int split) {}

  /** Values that do not fit, skipped with their rows up to {@code max} (input_format_allow_errors_num). */
  private static final class Skips {
    final long max;
    final AtomicLong count = new AtomicLong();
    final java.util.concurrent.ConcurrentLinkedQueue<BulkLoad.BadRow> samples =
        new java.util.concurrent.ConcurrentLinkedQueue<>();

    Skips(long max) {
      this.max = Math.max(0, max);
    }

    /** Counts a bad row; false when it is one too many (the load fails). */
    boolean skip(BulkLoad.BadRow row) {
      long n = count.incrementAndGet();
      if (n <= BulkLoad.SAMPLES) {
        samples.add(row);
      }
      return n <= max;
    }

    List<BulkLoad.BadRow> sorted() {
      List<BulkLoad.BadRow> out = new ArrayList<>(samples);
      out.sort(java.util.Comparator.comparingInt(BulkLoad.BadRow::sourceIndex).thenComparing(BulkLoad.BadRow::source)
          .thenComparingLong(BulkLoad.BadRow::line));
      return out;
    }
  }

  /**
   * Loads {@code inputs} (all of one {@code kind}) into {@code table}.
   *
   * @param defaults per column, the storage value that a NULL of a NOT NULL column, or a column the
   *     file lacks, takes (null entries: NULL when nullable, else the type's zero)
   * @param nullAsDefault whether a NULL in a NOT NULL column takes the default (else the load fails)
   * @param o threads, rows per part, checkpoint and progress ({@code o.format()} is not used)
   */
  public static BulkLoad.Result load(MergeTreeTable table, List<Input> inputs, Kind kind, Object[] defaults,
      boolean nullAsDefault, BulkLoad.Options o) throws IOException {
    TableSchema schema = table.definition().schema();
    long minDirect = table.definition().tableSettings().getLong(Settings.MIN_ROWS_FOR_DIRECT_PART);
    List<Plan> plans = new ArrayList<>();
    List<Task> tasks = new ArrayList<>();
    long totalBytes = 0;
    for (int i = 0; i < inputs.size(); i++) {
      try (Reading r = open(kind, inputs.get(i))) {
        plans.add(plan(schema, r.schema(), inputs.get(i).name(), defaults, kind == Kind.ORC, nullAsDefault));
        for (int s = 0; s < r.splits(); s++) {
          tasks.add(new Task(i, s));
          totalBytes += r.splitBytes(s);
        }
      }
    }
    AtomicInteger next = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicLong rows = new AtomicLong();
    AtomicLong bytes = new AtomicLong();
    Skips skips = new Skips(o.maxErrors());
    int threads = Math.max(1, Math.min(o.threads(), tasks.size()));
    ExecutorService workers = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "travertine-load");
      t.setDaemon(true);
      return t;
    });
    try (Inserter ins = table.newInserter(o.blockRows())) {
      List<Future<Block>> futures = new ArrayList<>();
      long blockBytes = Math.max(16L << 20, Runtime.getRuntime().maxMemory() / 2 / threads);
      for (int w = 0; w < threads; w++) {
        futures.add(workers.submit(() -> {
          try {
            return work(kind, inputs, plans, tasks, next, schema, ins, o, blockBytes, minDirect, failure, rows, bytes,
                skips);
          } catch (Throwable t) {
            failure.compareAndSet(null, t);
            throw t;
          }
        }));
      }
      List<Block> leftovers = new ArrayList<>();
      long lastRows = -1;
      for (Future<Block> f : futures) {
        while (true) {
          try {
            Block b = f.get(200, java.util.concurrent.TimeUnit.MILLISECONDS);
            if (b != null && b.rows() > 0) {
              leftovers.add(b);
            }
            break;
          } catch (java.util.concurrent.TimeoutException e) {
            if (rows.get() != lastRows) {
              lastRows = rows.get();
              o.progress().update(lastRows, Math.min(totalBytes, bytes.get()));
            }
          } catch (ExecutionException e) {
            failure.compareAndSet(null, e.getCause());
            break;
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure.compareAndSet(null, e);
            break;
          }
        }
      }
      Throwable t = failure.get();
      if (t != null) {
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
      BulkLoad.writeLeftovers(ins, leftovers, minDirect);
      int parts = ins.writtenParts();
      long partBytes = ins.writtenBytes();
      o.checkpoint().run();
      long committed = ins.commit();
      o.progress().update(committed, totalBytes);
      return new BulkLoad.Result(committed, skips.count.get(), skips.sorted(), parts, partBytes, totalBytes);
    } finally {
      workers.shutdownNow();
    }
  }

  private static Block work(Kind kind, List<Input> inputs, List<Plan> plans, List<Task> tasks, AtomicInteger next,
      TableSchema schema, Inserter ins, BulkLoad.Options o, long blockBytes, long minDirect,
      AtomicReference<Throwable> failure,
      AtomicLong rows, AtomicLong bytes, Skips skips) throws IOException {
    Rows out = new Rows(schema, o.blockRows(), blockBytes, ins, skips);
    Reading open = null;
    int openFile = -1;
    try {
      int k;
      while ((k = next.getAndIncrement()) < tasks.size() && failure.get() == null) {
        Task task = tasks.get(k);
        if (task.file() != openFile) {
          if (open != null) {
            open.close();
          }
          open = open(kind, inputs.get(task.file()));
          openFile = task.file();
        }
        Plan plan = plans.get(task.file());
        Input in = inputs.get(task.file());
        long[] splitRow = {0};
        open.read(task.split(), plan.fileColumns(), batch -> {
          o.checkpoint().run();
          if (failure.get() != null) {
            throw new IOException("the load failed elsewhere");
          }
          int kept = out.append(batch, plan, task.file(), in.name(), kind, task.split(), splitRow[0]);
          splitRow[0] += batch.size;
          rows.addAndGet(kept);
        });
        bytes.addAndGet(open.splitBytes(task.split()));
      }
      if (failure.get() != null) {
        return null;
      }
      Block rest = out.finish();
      if (rest.rows() >= minDirect) {
        ins.writeBlock(rest);
        return null;
      }
      return rest;
    } finally {
      if (open != null) {
        open.close();
      }
    }
  }

  /** One worker's block in the table's schema, filled by converting the files' batches. */
  private static final class Rows {
    private final TableSchema schema;
    private final int blockRows;
    private final long blockBytes;
    private final Inserter ins;
    private final Skips skips;
    private Block block;
    private VectorizedRowBatch batch;

    Rows(TableSchema schema, int blockRows, long blockBytes, Inserter ins, Skips skips) {
      this.schema = schema;
      this.blockRows = blockRows;
      this.blockBytes = blockBytes;
      this.ins = ins;
      this.skips = skips;
      block = new Block(schema);
      batch = OrcBatches.newBatch(schema.orcSchema(), Block.CHUNK);
    }

    /** Converts a file's batch into the block; returns the rows kept (a row with a bad value is skipped or fails the load). */
    int append(VectorizedRowBatch src, Plan plan, int file, String name, Kind kind, int split, long firstRow)
        throws IOException {
      // Repeating columns are expanded over the whole batch first: a stretch (or a row retried
      // alone) expands only up to its end, and a later stretch would read entries never set.
      for (int i = 0; i < plan.fileColumns().length; i++) {
        if (src.cols[i].isRepeating) {
          src.cols[i].flatten(false, null, src.size);
        }
      }
      int done = 0;
      int kept = 0;
      while (done < src.size) {
        int n = Math.min(src.size - done, Block.CHUNK - batch.size);
        int at = batch.size;
        int added;
        try {
          convert(src, plan, done, at, n);
          added = n;
        } catch (ColumnConverter.BadValue first) {
          // Row by row through this stretch: the rows that convert stay, the others are skipped.
          added = 0;
          for (int r = 0; r < n; r++) {
            try {
              convert(src, plan, done + r, at + added, 1);
              added++;
            } catch (ColumnConverter.BadValue e) {
              String where = name + ": " + (kind == Kind.PARQUET ? "row group " : "stripe ") + split + ", row "
                  + (firstRow + e.row + 1);
              if (!skips.skip(new BulkLoad.BadRow(file, name, firstRow + e.row + 1, e.getMessage()))) {
                throw new BulkLoad.BadInputException(where + ": " + e.getMessage() + (skips.max == 0 ? ""
                    : " (more than " + skips.max + " bad rows, input_format_allow_errors_num = " + skips.max + ")")
                    + "; nothing was loaded", skips.sorted());
              }
            }
          }
        }
        for (int m = 0; m < plan.missing().length; m++) {
          ColumnConverter d = plan.missingDefaults()[m];
          var v = batch.cols[plan.missing()[m]];
          for (int j = 0; j < added; j++) {
            d.setDefault(v, at + j);
          }
        }
        batch.size += added;
        kept += added;
        done += n;
        if (batch.size == Block.CHUNK) {
          flushBatch();
          if (block.rows() >= blockRows || block.estimatedBytes() >= blockBytes) {
            Block full = block;
            block = new Block(schema);
            ins.writeBlock(full);
          }
        }
      }
      return kept;
    }

    private void convert(VectorizedRowBatch src, Plan plan, int from, int at, int n) throws ColumnConverter.BadValue {
      for (int i = 0; i < plan.fileColumns().length; i++) {
        plan.converters()[i].convert(src.cols[i], from, batch.cols[plan.tableColumnOf()[i]], at, n);
      }
    }

    void flushBatch() {
      if (batch.size > 0) {
        long est = 0;
        for (int c = 0; c < schema.size(); c++) {
          est += Vectors.bytes(batch.cols[c], schema.column(c).type().kind(), batch.size) + batch.size;
        }
        block.addChunk(batch, est);
        batch = OrcBatches.newBatch(schema.orcSchema(), Block.CHUNK);
      }
    }

    Block finish() {
      flushBatch();
      Block b = block;
      block = new Block(schema);
      return b;
    }
  }
}
