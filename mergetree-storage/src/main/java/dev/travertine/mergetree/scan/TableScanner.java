package dev.travertine.mergetree.scan;

import dev.travertine.exec.driver.Driver;
import dev.travertine.mergetree.EngineContext;
import dev.travertine.mergetree.EngineEvents;
import dev.travertine.mergetree.TableSnapshot;
import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.block.IntSort;
import dev.travertine.mergetree.block.OrcBatches;
import dev.travertine.mergetree.mutation.CompiledMutation;
import dev.travertine.mergetree.mutation.Mutations;
import dev.travertine.mergetree.part.PartWriter;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.Batch;
import dev.travertine.vector.BatchIterator;
import dev.travertine.vector.BatchStage;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.RowFilter;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;

/**
 * Executes a scan over a snapshot: reads the planned parts' ORC files (only the requested
 * columns, skipping granules through a SearchArgument), applies the part's pending mutations (if
 * the snapshot has any), filters each batch into a selection vector, and hands out {@link
 * Batch}es. Unordered scans run tasks (part stripes and the insert buffer) on up to {@code
 * maxThreads} threads, prefetching the next tasks of remote parts within a {@link
 * PrefetchWindow}; ordered scans merge the sorted parts on the sort key. Not thread-safe for the
 * consumer; close it when done.
 */
public final class TableScanner implements BatchIterator {
  final TableSnapshot snapshot;
  final ScanRequest request;
  final EngineContext ctx;
  private final ScanPlan plan;
  /** The request's filter without its pruning-only parts ({@link Predicate#forRows}): what rows are tested with. */
  private final Predicate rowFilter;
  final TableSchema schema;
  final boolean[] include;
  final SearchArgument sarg;
  final String[] columnNames;
  final org.apache.orc.TypeDescription orcSchema;
  final AtomicLong rowsRead = new AtomicLong();
  final AtomicLong bytesRead = new AtomicLong();
  private final int[] readColumns;
  private final TypeKind[] kinds;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final BatchIterator producer;
  private long emitted;

  public static TableScanner open(TableSnapshot snapshot, ScanRequest request, EngineContext ctx) {
    return new TableScanner(snapshot, request, ctx);
  }

  private TableScanner(TableSnapshot snapshot, ScanRequest request, EngineContext ctx) {
    this.snapshot = snapshot;
    this.request = request;
    this.ctx = ctx;
    this.schema = snapshot.definition().schema();
    Predicate filter = request.filter();
    this.rowFilter = Predicate.forRows(filter);
    this.plan = ScanPlan.plan(snapshot, filter, request.usePruning());
    this.window = new PrefetchWindow(prefetchLimit(), Math.max(1, request.maxThreads()),
        request.read().maxRequestBytes());
    this.budget = new PrefetchBudget(request.read().prefetchMaxBytes());
    BitSet cols = new BitSet();
    for (int c : request.columns()) {
      cols.set(c);
    }
    if (filter != null) {
      filter.collectColumns(cols);
    }
    if (request.ordered()) {
      for (int k : snapshot.definition().sortKeyIndexes()) {
        cols.set(k);
      }
    }
    if (snapshot.mayHavePendingMutations()) {
      for (ScanPlan.PartTask t : plan.tasks()) {
        for (CompiledMutation m : snapshot.pendingFor(t.part())) {
          cols.or(m.columns());
        }
      }
    }
    this.include = new boolean[schema.size() + 1];
    include[0] = true;
    cols.stream().forEach(c -> include[c + 1] = true);
    this.readColumns = cols.stream().toArray();
    this.kinds = new TypeKind[schema.size()];
    for (int c = 0; c < kinds.length; c++) {
      kinds[c] = schema.column(c).type().kind();
    }
    this.orcSchema = schema.orcSchema();
    this.columnNames = schema.columns().stream().map(c -> c.storage()).toArray(String[]::new);
    this.sarg = filter != null && request.usePruning() ? SargBuilder.build(filter, schema) : null;
    ctx.events().add(EngineEvents.SELECTED_PARTS, plan.selectedParts());
    ctx.events().add(EngineEvents.SELECTED_MARKS, plan.selectedGranules());
    BatchIterator p = request.ordered() ? new OrderedProducer() : unordered();
    this.producer = request.stages() == null || p instanceof Driver ? p : new StagedProducer(p);
  }

  /** Applies the request's stage on the consumer's thread (one stream: sequential or ordered). */
  private final class StagedProducer implements BatchIterator {
    private final BatchIterator in;
    private final BatchStage stage = request.stages().create();
    private final boolean consumes = stage.consumesBatches();

    StagedProducer(BatchIterator in) {
      this.in = in;
    }

    @Override
    public Batch next() throws IOException {
      Batch b;
      while ((b = in.next()) != null) {
        Batch out = b.size() == 0 ? null : stage.apply(b);
        if (out != null && out.size() > 0) {
          return out;
        }
        if ((consumes || b.size() == 0) && in instanceof SequentialProducer s) {
          s.recycle(); // nothing of the batch is kept or handed on: its vectors take the next batch
        }
      }
      return null;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  public ScanPlan plan() {
    return plan;
  }

  /** Rows read from storage and buffer so far (before filtering). */
  public long rowsRead() {
    return rowsRead.get();
  }

  /**
   * Bytes read so far: the uncompressed size of the values of the columns read (ClickHouse's
   * read_bytes; fixed widths by type, strings by length), for max_bytes_to_read and the query log.
   */
  public long bytesRead() {
    return bytesRead.get();
  }

  /** Counts {@code n} rows read into {@code cols} (positions 0..n-1) and their bytes. */
  void countRead(ColumnVector[] cols, int n) {
    rowsRead.addAndGet(n);
    bytesRead.addAndGet(bytesOf(cols, n));
  }

  /** The bytes of the columns read at positions 0..n-1 of {@code cols}. */
  long bytesOf(ColumnVector[] cols, int n) {
    long bytes = 0;
    for (int c : readColumns) {
      if (cols[c] != null) {
        bytes += Vectors.bytes(cols[c], kinds[c], n);
      }
    }
    return bytes;
  }

  /** The next batch, or null at the end. */
  public Batch next() throws IOException {
    long limit = request.limit();
    if (limit >= 0 && emitted >= limit) {
      return null;
    }
    while (true) {
      Batch b = producer.next();
      if (b == null) {
        return null;
      }
      if (b.size() == 0) {
        continue;
      }
      int size = b.size();
      if (limit >= 0 && emitted + size > limit) {
        size = (int) (limit - emitted);
      }
      emitted += size;
      return size == b.size() ? b : new Batch(b.cols(), b.sel(), size);
    }
  }

  @Override
  public void close() throws IOException {
    if (closed.compareAndSet(false, true)) {
      try {
        producer.close();
      } finally {
        ctx.events().add(EngineEvents.SELECTED_ROWS, rowsRead.get());
        snapshot.close();
      }
    }
  }

  // ---------------------------------------------------------------- sources

  /** A task of a plan: a part, or one stripe of it (-1: the whole part). */
  private record StripeTask(ScanPlan.PartTask task, int stripe) {
    String key() {
      return key(task.part().name(), stripe);
    }

    static String key(String part, int stripe) {
      return stripe < 0 ? part : part + "/" + stripe;
    }
  }

  private static List<StripeTask> stripeTasks(ScanPlan plan, boolean splitStripes) {
    List<StripeTask> out = new ArrayList<>();
    for (ScanPlan.PartTask t : plan.tasks()) {
      int gps = PartWriter.granulesPerStripe(t.part().info().granules() == 0 ? 1
          : t.part().index().granularity());
      int granules = t.part().info().granules();
      int stripes = (granules + gps - 1) / gps;
      if (!splitStripes || stripes <= 1) {
        out.add(new StripeTask(t, -1));
      } else {
        for (int s = 0; s < stripes; s++) {
          boolean any = t.granules() == null;
          for (int g = s * gps; !any && g < Math.min(granules, (s + 1) * gps); g++) {
            any = t.granules()[g];
          }
          if (any) {
            out.add(new StripeTask(t, s));
          }
        }
      }
    }
    return out;
  }

  /**
   * The keys of the tasks an unordered scan of {@code snapshot}'s parts with this filter reads
   * (its insert buffer aside), in plan order: what a {@link TaskFeed} hands out. Every node that
   * plans the same parts with the same filter gets the same keys. A key names a part, or a stripe
   * of it ({@code part/stripe}).
   */
  public static List<String> taskKeys(TableSnapshot snapshot, Predicate filter, boolean usePruning) {
    ScanPlan plan = ScanPlan.plan(snapshot, filter, usePruning);
    return stripeTasks(plan, true).stream().map(StripeTask::key).toList();
  }

  private List<TaskSource> allSources(boolean splitStripes) {
    List<TaskSource> out = new ArrayList<>();
    for (StripeTask t : stripeTasks(plan, splitStripes)) {
      out.add(new PartSource(this, t.task(), t.stripe()));
    }
    out.addAll(bufferSources());
    return out;
  }

  private List<TaskSource> bufferSources() {
    return snapshot.buffered().isEmpty() ? List.of() : List.of(new BufferSource(snapshot.buffered()));
  }

  /**
   * A batch with vectors only for the columns read (the rest are null, which ORC's reader skips;
   * a placeholder vector would be grown to the batch size on every batch), no larger than the
   * part: a part of a few rows does not allocate vectors of a whole batch.
   */
  VectorizedRowBatch newReadBatch(long partRows) {
    var children = orcSchema.getChildren();
    int size = (int) Math.max(1, Math.min(request.batchSize(), partRows));
    VectorizedRowBatch b = new VectorizedRowBatch(children.size(), size);
    for (int c = 0; c < children.size(); c++) {
      b.cols[c] = !include[c + 1] ? null : org.apache.orc.impl.TypeUtils.createColumn(children.get(c),
          ScanBatches.DECIMAL_FORM, size);
    }
    return b;
  }

  private int[] identitySel(int n) {
    int[] sel = new int[n];
    for (int i = 0; i < n; i++) {
      sel[i] = i;
    }
    return sel;
  }

  /** The request's filter without its pruning-only parts, or null. */
  Predicate rowFilter() {
    return rowFilter;
  }

  private Batch filtered(ColumnVector[] cols, int n) {
    return filtered(cols, n, List.of());
  }

  /** Applies a part's pending mutations (if any), then the scan's filter. */
  Batch filtered(ColumnVector[] cols, int n, List<CompiledMutation> mutations) {
    return filtered(cols, n, mutations, null);
  }

  /**
   * As above, the selection written into {@code sel} (at least {@code n} long; null: a new one)
   * unless every row is kept, which takes the shared identity selection and allocates nothing.
   */
  Batch filtered(ColumnVector[] cols, int n, List<CompiledMutation> mutations, int[] sel) {
    if (mutations.isEmpty() && rowFilter == null) {
      return new Batch(cols, Batch.identity(n), n);
    }
    if (sel == null) {
      sel = new int[n];
    }
    if (mutations.isEmpty()) {
      return new Batch(cols, sel, rowFilter.filterAll(cols, n, sel));
    }
    int m = Mutations.selectAll(mutations, cols, n, sel);
    if (rowFilter != null) {
      m = rowFilter.filter(cols, sel, m);
    }
    return new Batch(cols, sel, m);
  }

  /**
   * The request's PREWHERE combined with the scan's pushed filter, which runs first (PREWHERE's
   * expression must not see rows the pushed filter excludes); null without a PREWHERE.
   */
  RowFilter prewhere() {
    RowFilter p = request.prewhere();
    Predicate pushed = rowFilter;
    if (p == null || pushed == null) {
      return p;
    }
    BitSet cols = new BitSet();
    pushed.collectColumns(cols);
    for (int c : p.columns()) {
      cols.set(c);
    }
    int[] columns = cols.stream().toArray();
    return new RowFilter() {
      @Override public int[] columns() {
        return columns;
      }

      @Override public Instance create() {
        Instance inner = p.create();
        return (vectors, sel, n) -> inner.filter(vectors, sel, pushed.filter(vectors, sel, n));
      }
    };
  }

  final PrefetchWindow window;
  /** What this scan's prefetches may hold. */
  final PrefetchBudget budget;

  /** Reads the insert buffer's blocks chunk by chunk (they are immutable). */
  private final class BufferSource implements TaskSource {
    private final List<VectorizedRowBatch> chunks = new ArrayList<>();
    private int i;

    BufferSource(List<Block> blocks) {
      blocks.forEach(b -> chunks.addAll(b.chunks()));
    }

    @Override
    public Batch next() {
      while (i < chunks.size()) {
        VectorizedRowBatch c = chunks.get(i++);
        if (c.size > 0) {
          countRead(c.cols, c.size);
          return filtered(c.cols, c.size);
        }
      }
      return null;
    }

    @Override
    public void close() {}
  }

  /**
   * The most tasks a scan keeps prefetched ahead of those it reads; 0 when it does not prefetch
   * (prefetching is off, or no part it reads is remote).
   */
  private int prefetchLimit() {
    ReadSettings r = request.read();
    if (!r.prefetch() || plan.tasks().stream().noneMatch(t -> t.part().remote())) {
      return 0;
    }
    return r.prefetchAhead() == 0 ? Integer.MAX_VALUE : r.prefetchAhead();
  }

  // ---------------------------------------------------------------- unordered

  private BatchIterator unordered() {
    int threads = Math.max(1, request.maxThreads());
    if (request.tasks() != null) {
      java.util.Map<String, TaskSource> fed = new java.util.LinkedHashMap<>();
      for (StripeTask t : stripeTasks(plan, true)) {
        fed.put(t.key(), new PartSource(this, t.task(), t.stripe()));
      }
      return parallel(new TaskQueue(bufferSources(), window, request.tasks(), fed), threads);
    }
    // One task per stripe also for a single thread when prefetching, so there is a next task to fetch.
    List<TaskSource> sources = allSources(threads > 1 || request.read().prefetch());
    if (threads == 1 || sources.size() <= 1) {
      return new SequentialProducer(sources);
    }
    return parallel(new TaskQueue(sources, window, null, java.util.Map.of()), Math.min(threads, sources.size()));
  }

  /** The tasks on {@code threads} workers of the scan pool, each running the request's stage on its batches. */
  private BatchIterator parallel(TaskQueue tasks, int threads) {
    Driver d = Driver.start(ctx.scanPool(), threads, tasks, request.stages(), -1, "table " + snapshot.definition().name());
    tasks.driver = d;
    return d;
  }

  private final class SequentialProducer implements BatchIterator {
    private final List<TaskSource> sources;
    private int i;
    /** Sources before this one (and after {@code i}) are being read ahead. */
    private int prefetched = 1;
    /** The bytes of sources {@code i + 1 .. prefetched - 1}. */
    private long bytesAhead;

    SequentialProducer(List<TaskSource> sources) {
      this.sources = sources;
    }

    @Override
    public Batch next() throws IOException {
      while (i < sources.size()) {
        // The next tasks are fetched while this one is decoded, as far as the budget allows.
        prefetched = Math.max(prefetched, i + 1);
        while (prefetched < sources.size() && window.wantsMore(prefetched - i - 1, bytesAhead)
            && sources.get(prefetched).prefetch()) {
          bytesAhead += sources.get(prefetched).readBytes();
          prefetched++;
        }
        Batch b = sources.get(i).next();
        if (b != null) {
          return b;
        }
        sources.get(i).close(); // release its buffers before the next prefetch
        i++;
        if (i < prefetched) {
          bytesAhead -= sources.get(i).readBytes(); // now being read, no longer ahead
        }
      }
      return null;
    }

    /** The batch just handed out is free: its source decodes the next into the same vectors. */
    void recycle() {
      if (i < sources.size()) {
        sources.get(i).recycle();
      }
    }

    @Override
    public void close() throws IOException {
      closeAll(sources);
    }
  }

  // ---------------------------------------------------------------- ordered

  /** Merges per-part sorted streams on the sort key (ClickHouse's read-in-order). */
  private final class OrderedProducer implements BatchIterator {
    private final int[] key = snapshot.definition().sortKeyIndexes();
    private final TypeKind[] kinds = new TypeKind[key.length];
    private final List<TaskSource> sources = new ArrayList<>();
    private final PriorityQueue<Cursor> heap;
    private boolean started;

    private final class Cursor {
      final TaskSource source;
      final int order;
      Batch batch;
      int k;

      Cursor(TaskSource source, int order) {
        this.source = source;
        this.order = order;
      }

      boolean advance() throws IOException {
        k++;
        while (batch == null || k >= batch.size()) {
          batch = source.next();
          k = 0;
          if (batch == null) {
            return false;
          }
        }
        return true;
      }

      int row() {
        return batch.sel()[k];
      }
    }

    OrderedProducer() {
      for (int i = 0; i < key.length; i++) {
        kinds[i] = schema.column(key[i]).type().kind();
      }
      heap = new PriorityQueue<>((a, b) -> {
        for (int i = 0; i < key.length; i++) {
          int c = Vectors.compare(a.batch.cols()[key[i]], a.row(), b.batch.cols()[key[i]], b.row(), kinds[i]);
          if (c != 0) {
            return c;
          }
        }
        return Integer.compare(a.order, b.order);
      });
      for (ScanPlan.PartTask t : plan.tasks()) {
        sources.add(new PartSource(TableScanner.this, t, -1));
      }
      sources.forEach(TaskSource::prefetch); // every part is read at once by the merge
      if (!snapshot.buffered().isEmpty()) {
        sources.add(sortedBuffer());
      }
    }

    private TaskSource sortedBuffer() {
      Block rows = new Block(schema);
      for (Block b : snapshot.buffered()) {
        for (VectorizedRowBatch c : b.chunks()) {
          countRead(c.cols, c.size);
          Batch f = filtered(c.cols, c.size);
          for (int i = 0; i < f.size(); i++) {
            rows.appendFrom(c.cols, f.sel()[i]);
          }
        }
      }
      int[] order = identitySel(rows.rows());
      IntSort.sort(order, (a, b) -> {
        for (int i = 0; i < key.length; i++) {
          int c = Vectors.compare(rows.vector(a, key[i]), Block.pos(a), rows.vector(b, key[i]), Block.pos(b),
              kinds[i]);
          if (c != 0) {
            return c;
          }
        }
        return Integer.compare(a, b);
      });
      Block sorted = new Block(schema);
      for (int r : order) {
        sorted.appendFrom(rows.chunks().get(r >>> Block.CHUNK_SHIFT).cols, Block.pos(r));
      }
      return new TaskSource() {
        int i;

        @Override
        public Batch next() {
          if (i >= sorted.chunks().size()) {
            return null;
          }
          VectorizedRowBatch c = sorted.chunks().get(i++);
          return new Batch(c.cols, identitySel(c.size), c.size);
        }

        @Override
        public void close() {}
      };
    }

    @Override
    public Batch next() throws IOException {
      if (!started) {
        started = true;
        for (int i = 0; i < sources.size(); i++) {
          Cursor c = new Cursor(sources.get(i), i);
          c.k = -1;
          if (c.advance()) {
            heap.add(c);
          }
        }
      }
      if (heap.isEmpty()) {
        return null;
      }
      int size = request.batchSize();
      VectorizedRowBatch out = OrcBatches.newBatch(schema.orcSchema(), size, ScanBatches.DECIMAL_FORM);
      int n = 0;
      while (n < size && !heap.isEmpty()) {
        Cursor c = heap.poll();
        int r = c.row();
        for (int col = 0; col < schema.size(); col++) {
          if (include[col + 1]) {
            Vectors.copy(c.batch.cols()[col], r, out.cols[col], n, schema.column(col).type().kind());
          }
        }
        n++;
        if (c.advance()) {
          heap.add(c);
        }
      }
      return new Batch(out.cols, identitySel(n), n);
    }

    @Override
    public void close() throws IOException {
      closeAll(sources);
    }
  }

  /** Closes every source, so each gives its prefetch budget back, and throws the first failure. */
  static void closeAll(List<TaskSource> sources) throws IOException {
    IOException first = null;
    for (TaskSource s : sources) {
      try {
        s.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
