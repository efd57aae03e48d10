package dev.travertine.formats;

import dev.travertine.mergetree.Inserter;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.mergetree.settings.Settings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.GZIPInputStream;

/**
 * Loads delimited text into a table as one insert: all rows become visible in one commit, or
 * none (a bad row, a failure or a cancellation discards every part written so far).
 *
 * <p>The calling thread reads each source and cuts it into chunks of whole records
 * ({@link RecordChunks}); {@code threads} workers each parse chunks straight into column vectors
 * of their own block ({@link TextParser}) and, when it holds {@code blockRows} rows, sort it and
 * write it as a part themselves — so parsing, sorting and part writing overlap across workers.
 * A load smaller than the table's direct-part threshold goes to the insert buffer, as a small
 * INSERT does.
 */
public final class BulkLoad {
  private BulkLoad() {}

  /** One input: a name for messages, its size in bytes (for progress; -1 unknown), how to open it. */
  public record Source(String name, long size, Opener opener) {
    /** Opens the raw bytes (compressed as they are stored). */
    public interface Opener {
      InputStream open() throws IOException;
    }

    /** A local file; {@code .gz} and {@code .zst} files are decompressed. */
    public static Source file(Path p) throws IOException {
      return new Source(p.toString(), Files.size(p), () -> Files.newInputStream(p));
    }

    /** A stream that can be read once. */
    public static Source stream(String name, long size, InputStream in) {
      AtomicInteger opened = new AtomicInteger();
      return new Source(name, size, () -> {
        if (opened.getAndIncrement() > 0) {
          throw new IOException(name + " can be read only once");
        }
        return in;
      });
    }
  }

  /** Listens to progress: rows parsed and source bytes read so far (called from the reading thread). */
  public interface Progress {
    void update(long rows, long bytesRead);
  }

  /**
   * How to load.
   *
   * @param threads parser/writer threads
   * @param maxErrors bad rows skipped before the load fails (0: the first bad row fails it)
   * @param blockRows rows per part written (ClickHouse's max_insert_block_size); fewer when a worker's block
   *     would take more than its share (half the heap over the threads)
   * @param chunkBytes bytes of records a worker takes at a time
   * @param format the text format (null for {@link FileLoad}'s binary formats)
   * @param checkpoint run once per chunk; throws to stop the load (cancellation, limits)
   */
  public record Options(TextFormat format, int threads, long maxErrors, int blockRows, int chunkBytes,
      Runnable checkpoint, Progress progress) {
    public Options {
      threads = Math.max(1, threads);
      blockRows = Math.max(Block.CHUNK, blockRows);
      chunkBytes = Math.max(1 << 12, chunkBytes);
      checkpoint = checkpoint == null ? () -> { } : checkpoint;
      progress = progress == null ? (r, b) -> { } : progress;
    }

    public static Options defaults(TextFormat format) {
      return new Options(format, Runtime.getRuntime().availableProcessors(), 0, 1 << 20, 8 << 20, null, null);
    }

    public Options withThreads(int t) {
      return new Options(format, t, maxErrors, blockRows, chunkBytes, checkpoint, progress);
    }

    public Options withMaxErrors(long n) {
      return new Options(format, threads, n, blockRows, chunkBytes, checkpoint, progress);
    }

    public Options withBlockRows(int n) {
      return new Options(format, threads, maxErrors, n, chunkBytes, checkpoint, progress);
    }

    public Options withChunkBytes(int n) {
      return new Options(format, threads, maxErrors, blockRows, n, checkpoint, progress);
    }

    public Options withCheckpoint(Runnable r) {
      return new Options(format, threads, maxErrors, blockRows, chunkBytes, r, progress);
    }

    public Options withProgress(Progress p) {
      return new Options(format, threads, maxErrors, blockRows, chunkBytes, checkpoint, p);
    }
  }

  /** A bad row: where and why. */
  public record BadRow(int sourceIndex, String source, long line, String message) {
    @Override public String toString() {
      return source + ":" + line + ": " + message;
    }
  }

  /**
   * What a load did.
   *
   * @param badRows rows skipped (at most {@code maxErrors}); {@code samples} the first of them
   * @param parts part files written; {@code partBytes} their bytes
   */
  public record Result(long rows, long badRows, List<BadRow> samples, int parts, long partBytes, long bytesRead) {}

  /** The load failed on bad input; nothing of it was committed. */
  public static final class BadInputException extends IOException {
    private final transient List<BadRow> badRows;

    BadInputException(String message, List<BadRow> badRows) {
      super(message);
      this.badRows = badRows;
    }

    public List<BadRow> badRows() {
      return badRows;
    }
  }

  /** Bad rows a load reports (the first ones). */
  static final int SAMPLES = 20;

  /** A bad row before its line is known: 0-based within chunk {@code chunk} of source {@code sourceIndex}. */
  private record Pending(int sourceIndex, String source, int chunk, long line, String message) {}

  /** Line breaks per parsed chunk, by (source, chunk): what makes a pending bad row's line absolute. */
  private static final class Lines {
    private final java.util.concurrent.ConcurrentHashMap<Long, Long> byChunk = new java.util.concurrent.ConcurrentHashMap<>();

    void put(int source, int chunk, long lines) {
      byChunk.put(((long) source << 32) | chunk, lines);
    }

    /** The 1-based line, or -1 when a chunk before it was not parsed (the load stopped first). */
    long resolve(Pending p) {
      long line = 1 + p.line();
      for (int k = 0; k < p.chunk(); k++) {
        Long n = byChunk.get(((long) p.sourceIndex() << 32) | k);
        if (n == null) {
          return -1;
        }
        line += n;
      }
      return line;
    }
  }

  /** A chunk of one source for a worker; {@code start} skips the header. */
  private record Work(RecordChunks chunks, RecordChunks.Chunk chunk, int start, TextParser.Mapping mapping) {}

  private static final Work END = new Work(null, null, 0, null);

  /**
   * Loads {@code sources} into {@code table}.
   *
   * @param defaults per column, the storage value that a NULL or empty field of a NOT NULL
   *     column takes (null entries: the type's zero); null for all zeros
   */
  public static Result load(MergeTreeTable table, List<Source> sources, Object[] defaults, Options o)
      throws IOException {
    return load(table, null, sources, defaults, o);
  }

  /**
   * Loads {@code sources} into the named {@code columns} of {@code table}, in that order (the
   * others take their defaults); null columns: all, in the table's order. A header, when the format
   * has one, maps by its own names instead.
   */
  public static Result load(MergeTreeTable table, List<String> columns, List<Source> sources, Object[] defaults,
      Options o) throws IOException {
    Objects.requireNonNull(o.format(), "a text format");
    TableSchema schema = table.definition().schema();
    long minDirect = table.definition().tableSettings().getLong(Settings.MIN_ROWS_FOR_DIRECT_PART);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    ConcurrentLinkedQueue<Pending> samples = new ConcurrentLinkedQueue<>();
    Lines lines = new Lines();
    AtomicLong bad = new AtomicLong();
    AtomicLong parsedRows = new AtomicLong();
    AtomicLong bytesRead = new AtomicLong();
    BlockingQueue<Work> queue = new ArrayBlockingQueue<>(2 * o.threads());
    ExecutorService workers = Executors.newFixedThreadPool(o.threads(), r -> {
      Thread t = new Thread(r, "travertine-load");
      t.setDaemon(true);
      return t;
    });
    try (Inserter ins = table.newInserter(o.blockRows())) {
      List<Future<Block>> futures = new ArrayList<>();
      for (int i = 0; i < o.threads(); i++) {
        futures.add(workers.submit(() -> work(ins, schema, defaults, o, queue, failure, samples, lines, bad,
            parsedRows, minDirect)));
      }
      try {
        read(schema, columns, defaults, sources, o, queue, failure, bytesRead, parsedRows);
      } catch (IOException | RuntimeException | Error e) {
        failure.compareAndSet(null, e);
      } finally {
        for (int i = 0; i < o.threads(); i++) {
          offerEnd(queue, futures, failure);
        }
      }
      List<Block> leftovers = new ArrayList<>();
      for (Future<Block> f : futures) {
        try {
          Block b = f.get();
          if (b != null && b.rows() > 0) {
            leftovers.add(b);
          }
        } catch (ExecutionException e) {
          failure.compareAndSet(null, e.getCause());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          failure.compareAndSet(null, e);
        }
      }
      Throwable t = failure.get();
      if (t != null) {
        throw rethrow(t, sorted(samples, lines));
      }
      writeLeftovers(ins, leftovers, minDirect);
      int parts = ins.writtenParts();
      long partBytes = ins.writtenBytes();
      o.checkpoint().run();
      long rows = ins.commit();
      return new Result(rows, bad.get(), sorted(samples, lines), parts, partBytes, bytesRead.get());
    } finally {
      workers.shutdownNow();
    }
  }

  /**
   * The workers' last, partly filled blocks: written as parts, or, when the whole load is smaller
   * than the table's direct-part threshold, added to the insert buffer like a small INSERT.
   */
  static void writeLeftovers(Inserter ins, List<Block> leftovers, long minDirect) throws IOException {
    long small = leftovers.stream().mapToLong(Block::rows).sum();
    if (ins.writtenParts() == 0 && small < minDirect) {
      for (Block b : leftovers) {
        ins.addAll(b);
      }
    } else {
      for (Block b : leftovers) {
        ins.writeBlock(b);
      }
    }
  }

  private static IOException rethrow(Throwable t, List<BadRow> sorted) {
    if (t instanceof TooManyBadRows) {
      String more = t.getMessage();
      String first = sorted.isEmpty() ? "bad rows" : sorted.get(0).toString();
      return new BadInputException(first + (more.isEmpty() ? "" : "; " + more) + "; nothing was loaded", sorted);
    }
    if (t instanceof IOException io) {
      return io;
    }
    if (t instanceof UncheckedIOException u) {
      return u.getCause();
    }
    if (t instanceof RuntimeException r) {
      throw r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new IOException(t);
  }

  private static List<BadRow> sorted(ConcurrentLinkedQueue<Pending> samples, Lines lines) {
    List<BadRow> l = new ArrayList<>();
    for (Pending p : samples) {
      long line = lines.resolve(p);
      if (line > 0) {
        l.add(new BadRow(p.sourceIndex(), p.source(), line, p.message()));
      }
    }
    l.sort(Comparator.comparingInt(BadRow::sourceIndex).thenComparingLong(BadRow::line));
    return List.copyOf(l.subList(0, Math.min(SAMPLES, l.size())));
  }

  /** Thrown by a worker's sink when bad rows exceed the limit. */
  private static final class TooManyBadRows extends RuntimeException {
    TooManyBadRows(String message) {
      super(message, null, false, false);
    }
  }

  private static void read(TableSchema schema, List<String> columns, Object[] defaults, List<Source> sources,
      Options o,
      BlockingQueue<Work> queue, AtomicReference<Throwable> failure, AtomicLong bytesRead, AtomicLong parsedRows)
      throws IOException {
    long earlier = 0;
    TextParser headerParser = new TextParser(o.format(), schema, defaults, Block.CHUNK);
    for (int si = 0; si < sources.size(); si++) {
      Source src = sources.get(si);
      String name = src.name();
      final int index = si;
      CountingInputStream counting = new CountingInputStream(src.opener().open());
      try (InputStream in = decompress(src.name(), counting)) {
        RecordChunks chunks = new RecordChunks(in, o.format(), o.chunkBytes(), 1 << 30, 2 * o.threads() + 2);
        TextParser.Mapping mapping = null;
        RecordChunks.Chunk c;
        while ((c = next(chunks, name)) != null) {
          if (failure.get() != null) {
            return;
          }
          o.checkpoint().run();
          int start = 0;
          if (mapping == null) {
            if (o.format().header() && o.format().kind() != TextFormat.Kind.JSON_EACH_ROW) {
              List<String> names = new ArrayList<>();
              start = headerParser.header(c, names);
              mapping = TextParser.Mapping.byName(name, schema, names);
            } else if (columns != null) {
              mapping = TextParser.Mapping.byName(name, schema, columns);
            } else {
              mapping = TextParser.Mapping.positional(name, schema);
            }
            mapping = new TextParser.Mapping(name, mapping.fieldToColumn(), mapping.missingColumns(), index);
          }
          if (!offer(queue, new Work(chunks, c, start, mapping), failure)) {
            return;
          }
          bytesRead.set(earlier + counting.count());
          o.progress().update(parsedRows.get(), earlier + counting.count());
        }
      }
      earlier += counting.count();
      bytesRead.set(earlier);
    }
  }

  private static RecordChunks.Chunk next(RecordChunks chunks, String name) throws IOException {
    try {
      return chunks.next();
    } catch (IOException e) {
      throw new IOException(name + ":" + e.getMessage(), e);
    }
  }

  /**
   * Puts one END on the queue for a worker. Once the load failed, the work still queued is dropped
   * (it all comes after any chunk a worker took: no bad row's line needs it); workers that ended
   * with an exception take nothing any more, so it stops waiting when none is left.
   */
  private static void offerEnd(BlockingQueue<Work> queue, List<Future<Block>> workers,
      AtomicReference<Throwable> failure) {
    try {
      while (!queue.offer(END, 100, TimeUnit.MILLISECONDS)) {
        if (failure.get() != null) {
          queue.clear();
        }
        if (workers.stream().allMatch(Future::isDone)) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while loading", e);
    }
  }

  /** Puts work on the queue unless the load failed meanwhile. */
  private static boolean offer(BlockingQueue<Work> queue, Work w, AtomicReference<Throwable> failure) {
    try {
      while (!queue.offer(w, 100, TimeUnit.MILLISECONDS)) {
        if (failure != null && failure.get() != null) {
          return false;
        }
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while loading", e);
    }
  }

  private static Block work(Inserter ins, TableSchema schema, Object[] defaults, Options o, BlockingQueue<Work> queue,
      AtomicReference<Throwable> failure, ConcurrentLinkedQueue<Pending> samples, Lines lines, AtomicLong bad,
      AtomicLong parsedRows, long minDirect) throws Exception {
    // Each worker holds one block (and the part writer's batches): together they take at most
    // about half of the heap, whatever max_threads is.
    long blockBytes = Math.max(16L << 20, Runtime.getRuntime().maxMemory() / 2 / o.threads());
    TextParser parser = new TextParser(o.format(), schema, defaults, o.blockRows(), blockBytes);
    TextParser.Sink sink = new TextParser.Sink() {
      @Override public void full(Block block) throws IOException {
        ins.writeBlock(block); // sorted and written in this thread: the part holds no reference to it
        parser.recycle(block);
      }

      @Override public void bad(TextParser.Mapping m, int chunk, long line, String message) {
        long n = bad.incrementAndGet();
        if (n <= SAMPLES || n > o.maxErrors()) {
          samples.add(new Pending(m.sourceIndex(), m.source(), chunk, line, message));
        }
        if (n > o.maxErrors()) {
          throw new TooManyBadRows(o.maxErrors() == 0 ? ""
              : "more than " + o.maxErrors() + " bad rows (max_errors = " + o.maxErrors() + ")");
        }
      }
    };
    try {
      while (true) {
        Work w = queue.poll(100, TimeUnit.MILLISECONDS);
        if (w == END) {
          break;
        }
        if (w == null) {
          continue;
        }
        if (failure.get() != null) {
          // not parsed, but its line breaks still count: a bad row in a later chunk that another
          // worker failed on first needs them for its line number (every record of a chunk that
          // is not the input's last ends with one)
          RecordChunks.Chunk c = w.chunk();
          lines.put(w.mapping().sourceIndex(), c.seq(), RecordChunks.count(c.buf(), 0, c.end(), (byte) '\n'));
          w.chunks().recycle(c.buf());
          continue;
        }
        o.checkpoint().run();
        long before = parser.rows();
        lines.put(w.mapping().sourceIndex(), w.chunk().seq(), parser.parse(w.chunk(), w.start(), w.mapping(), sink));
        parsedRows.addAndGet(parser.rows() - before);
        w.chunks().recycle(w.chunk().buf());
      }
      if (failure.get() != null) {
        return null;
      }
      Block rest = parser.finish();
      if (rest.rows() >= minDirect) {
        ins.writeBlock(rest);
        return null;
      }
      return rest;
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
      throw t;
    }
  }

  /** The decompressing stream for a name ending in {@code .gz} or {@code .zst}, else the stream itself. */
  public static InputStream decompress(String name, InputStream in) throws IOException {
    String n = name.toLowerCase(java.util.Locale.ROOT);
    if (n.endsWith(".gz") || n.endsWith(".gzip")) {
      return new GZIPInputStream(in, 1 << 16);
    }
    if (n.endsWith(".zst") || n.endsWith(".zstd")) {
      return new com.github.luben.zstd.ZstdInputStream(in);
    }
    return in;
  }
}
