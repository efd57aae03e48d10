package dev.travertine.io.hadoop;

import dev.travertine.io.FileIO;
import dev.travertine.io.FileInfo;
import dev.travertine.io.OutputFile;
import dev.travertine.io.RandomAccessInput;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import dev.travertine.io.read.RangeCoalescer;
import dev.travertine.io.read.SegmentCache;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * A Hadoop {@link FileSystem} view of a {@link FileIO}, so that libraries that speak Hadoop
 * (Apache ORC) read and write through our storage layer. Paths are {@code travertine:///rel/path}
 * or plain {@code /rel/path}; both map to the relative object path {@code rel/path}.
 *
 * <p>New files appear atomically when their stream closes ({@link OutputFile}); rename and append
 * are not supported, which is what object stores offer.
 */
public final class FileIOFileSystem extends FileSystem {
  public static final String SCHEME = "travertine";

  private final FileIO io;
  private Path workingDir = new Path("/");

  public FileIOFileSystem(FileIO io, Configuration conf) {
    this.readOptions = io.remote() ? ReadOptions.REMOTE : ReadOptions.LOCAL;
    this.io = io;
    try {
      initialize(URI.create(SCHEME + ":///"), conf);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    setConf(conf);
  }

  public FileIO fileIO() {
    return io;
  }

  /** The Hadoop path of a relative object path. */
  public static Path toPath(String relative) {
    return new Path(SCHEME + ":///" + relative);
  }

  static String relative(Path path) {
    String p = path.toUri().getPath();
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    return p;
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public URI getUri() {
    return URI.create(SCHEME + ":///");
  }

  /**
   * How vectored reads (ORC reads a stripe's streams with one call) are turned into requests:
   * ranges closer than {@code maxGap} share a request, no request exceeds {@code maxFetch}, and
   * the requests go out concurrently.
   */
  public record ReadOptions(long maxGap, int maxFetch, int maxRequest, boolean cache) {
    /** Object stores and HDFS: a round trip costs more than reading a megabyte more (Trino's defaults). */
    public static final ReadOptions REMOTE = new ReadOptions(1 << 20, 8 << 20, 8 << 20, false);
    /** Local disk: merge only small holes. */
    public static final ReadOptions LOCAL = new ReadOptions(8 << 10, 8 << 20, 8 << 20, false);

    public ReadOptions(long maxGap, int maxFetch) {
      this(maxGap, maxFetch, maxFetch, false);
    }
  }

  private volatile ReadOptions readOptions;
  private static final ThreadLocal<ReadOptions> QUERY_OPTIONS = new ThreadLocal<>();

  /** An action that may fail with an IOException. */
  public interface IoCallable<T> {
    T call() throws IOException;
  }

  /**
   * Runs {@code action} with a query's read options: streams opened by this thread during it
   * (ORC opens them while creating readers) coalesce with these instead of the file system's.
   */
  public static <T> T withReadOptions(ReadOptions options, IoCallable<T> action) throws IOException {
    ReadOptions old = QUERY_OPTIONS.get();
    QUERY_OPTIONS.set(options);
    try {
      return action.call();
    } finally {
      if (old == null) {
        QUERY_OPTIONS.remove();
      } else {
        QUERY_OPTIONS.set(old);
      }
    }
  }
  private final java.util.Map<String, Long> lengths = new java.util.concurrent.ConcurrentHashMap<>();

  public ReadOptions readOptions() {
    return readOptions;
  }

  public void setReadOptions(ReadOptions o) {
    this.readOptions = o;
  }

  /** Remembers an object's length (from part metadata), so opening it needs no metadata request. */
  public void knownLength(String relative, long length) {
    if (lengths.size() > 100_000) {
      lengths.clear();
    }
    lengths.put(relative, length);
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    String rel = relative(f);
    RandomAccessInput in;
    try {
      Long len = lengths.get(rel);
      in = (len == null ? io.newInputFile(rel) : io.newInputFile(rel, len)).open();
    } catch (java.nio.file.NoSuchFileException e) {
      throw new FileNotFoundException(rel);
    }
    ReadOptions q = QUERY_OPTIONS.get();
    return new FSDataInputStream(new PositionalInputStream(in, q != null && io.remote() ? q : readOptions,
        io.location() + "/" + rel));
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    String rel = relative(f);
    if (!overwrite && io.exists(rel)) {
      throw new org.apache.hadoop.fs.FileAlreadyExistsException(rel);
    }
    OutputFile.AbortableOutputStream out = io.newOutputFile(rel).create();
    return new FSDataOutputStream(out, statistics);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
    throw new UnsupportedOperationException("Cannot append: objects are immutable (" + f + ")");
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    throw new UnsupportedOperationException("Cannot rename: not an object-store operation (" + src + ")");
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    String rel = relative(f);
    if (io.delete(rel)) {
      return true;
    }
    if (recursive) {
      io.deletePrefix(rel);
      return true;
    }
    return false;
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    String rel = relative(f);
    List<FileStatus> out = new ArrayList<>();
    Set<String> dirs = new HashSet<>();
    for (FileInfo fi : io.list(rel)) {
      String rest = fi.path().substring(rel.length() + 1);
      int slash = rest.indexOf('/');
      if (slash >= 0) {
        String dir = rest.substring(0, slash);
        if (dirs.add(dir)) {
          out.add(new FileStatus(0, true, 1, 0, 0, toPath(rel + "/" + dir)));
        }
      } else {
        out.add(status(fi));
      }
    }
    return out.toArray(new FileStatus[0]);
  }

  private static FileStatus status(FileInfo fi) {
    return new FileStatus(fi.length(), false, 1, 64L << 20, fi.modificationTimeMillis(), toPath(fi.path()));
  }

  @Override
  public void setWorkingDirectory(Path newDir) {
    workingDir = newDir;
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDir;
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) {
    return true; // Object stores have no directories; writers create parents as needed.
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    String rel = relative(f);
    if (io.exists(rel)) {
      return new FileStatus(io.newInputFile(rel).length(), false, 1, 64L << 20, 0, toPath(rel));
    }
    if (!io.list(rel).isEmpty()) {
      return new FileStatus(0, true, 1, 0, 0, toPath(rel));
    }
    throw new FileNotFoundException(rel);
  }

  /** Hadoop's seekable stream over a {@link RandomAccessInput}. */
  static final class PositionalInputStream extends FSInputStream {
    private final RandomAccessInput in;
    private final long length;
    private long pos;
    private final byte[] one = new byte[1];

    private final ReadOptions options;
    private final String object;

    PositionalInputStream(RandomAccessInput in, ReadOptions options, String object) throws IOException {
      this.in = in;
      this.length = in.length();
      this.options = options;
      this.object = object;
    }

    /**
     * With the segment cache: every range is served from aligned 1 MiB segments; cached ones cost
     * nothing, missing ones are fetched as contiguous runs (capped, concurrent) and kept.
     */
    private void readVectoredCached(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate) {
      SegmentCache cache = SegmentCache.shared();
      int seg = SegmentCache.SEGMENT;
      java.util.TreeMap<Long, CompletableFuture<byte[]>> segments = new java.util.TreeMap<>();
      for (FileRange r : ranges) {
        if (r.getLength() == 0) {
          continue;
        }
        for (long s = r.getOffset() / seg; s <= (r.getOffset() + r.getLength() - 1) / seg; s++) {
          segments.putIfAbsent(s, null);
        }
      }
      List<Long> missing = new ArrayList<>();
      for (Long s : segments.keySet()) {
        byte[] b = cache.get(new SegmentCache.Key(object, s));
        if (b != null) {
          segments.put(s, CompletableFuture.completedFuture(b));
        } else {
          missing.add(s);
        }
      }
      int perFetch = Math.max(1, Math.min(options.maxFetch(), options.maxRequest()) / seg);
      for (int i = 0; i < missing.size(); ) {
        int j = i + 1;
        while (j < missing.size() && missing.get(j) == missing.get(j - 1) + 1 && j - i < perFetch) {
          j++;
        }
        long start = missing.get(i) * seg;
        long end = Math.min(length, (missing.get(j - 1) + 1) * seg);
        CompletableFuture<byte[]> fetch = in.readAsync(start, (int) (end - start));
        for (int k = i; k < j; k++) {
          long s = missing.get(k);
          segments.put(s, fetch.thenApply(bytes -> {
            int from = (int) (s * seg - start);
            byte[] part = java.util.Arrays.copyOfRange(bytes, from, (int) Math.min(bytes.length, from + (long) seg));
            cache.put(new SegmentCache.Key(object, s), part);
            return part;
          }));
        }
        i = j;
      }
      for (FileRange r : ranges) {
        List<Long> starts = new ArrayList<>();
        List<CompletableFuture<byte[]>> chunks = new ArrayList<>();
        if (r.getLength() > 0) {
          for (long s = r.getOffset() / seg; s <= (r.getOffset() + r.getLength() - 1) / seg; s++) {
            starts.add(s * seg);
            chunks.add(segments.get(s));
          }
        }
        deliver(r, starts, chunks, allocate);
      }
    }

    /**
     * Completes a range's buffer from the chunks (fetched requests or cached segments, each with
     * its start offset) that cover it, once they have all arrived.
     */
    private static void deliver(FileRange r, List<Long> starts, List<CompletableFuture<byte[]>> chunks,
        IntFunction<ByteBuffer> allocate) {
      long off = r.getOffset();
      int len = r.getLength();
      r.setData(CompletableFuture.allOf(chunks.toArray(CompletableFuture[]::new)).thenApply(v -> {
        ByteBuffer out = allocate.apply(len);
        int base = out.position();
        for (int i = 0; i < chunks.size(); i++) {
          byte[] bytes = chunks.get(i).join();
          long start = starts.get(i);
          long from = Math.max(start, off);
          long to = Math.min(start + bytes.length, off + len);
          out.position(base + (int) (from - off));
          out.put(bytes, (int) (from - start), (int) (to - from));
        }
        out.position(base);
        out.limit(base + len);
        return out;
      }));
    }

    /**
     * ORC's read of a stripe's streams: coalesced into capped requests that run concurrently;
     * each range's buffer completes when the requests covering it have.
     */
    @Override
    public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate) throws IOException {
      for (FileRange r : ranges) {
        if (r.getOffset() < 0 || r.getOffset() + r.getLength() > length) {
          throw new java.io.EOFException("Vectored read past end: " + r.getOffset() + " + " + r.getLength()
              + " > " + length);
        }
      }
      if (options.cache()) {
        readVectoredCached(ranges, allocate);
        return;
      }
      List<RangeCoalescer.Range> rs = new ArrayList<>(ranges.size());
      for (FileRange r : ranges) {
        rs.add(new RangeCoalescer.Range(r.getOffset(), r.getLength()));
      }
      List<RangeCoalescer.Fetch> fetches = RangeCoalescer.coalesce(rs, options.maxGap(), options.maxFetch(),
          options.maxRequest());
      List<CompletableFuture<byte[]>> data = new ArrayList<>(fetches.size());
      for (RangeCoalescer.Fetch f : fetches) {
        data.add(in.readAsync(f.offset(), f.length()));
      }
      for (int k = 0; k < ranges.size(); k++) {
        List<Long> starts = new ArrayList<>();
        List<CompletableFuture<byte[]>> chunks = new ArrayList<>();
        for (int i = 0; i < fetches.size(); i++) {
          if (fetches.get(i).overlaps(rs.get(k))) {
            starts.add(fetches.get(i).offset());
            chunks.add(data.get(i));
          }
        }
        deliver(ranges.get(k), starts, chunks, allocate);
      }
    }

    @Override
    public void seek(long p) throws IOException {
      if (p < 0 || p > length) {
        throw new java.io.EOFException("Cannot seek to " + p + " (length " + length + ")");
      }
      pos = p;
    }

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int read() throws IOException {
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = read(pos, b, off, len);
      if (n > 0) {
        pos += n;
      }
      return n;
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int len) throws IOException {
      if (position >= length) {
        return len == 0 ? 0 : -1;
      }
      int n = (int) Math.min(len, length - position);
      readFully(position, buffer, offset, n);
      return n;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int len) throws IOException {
      if (options.cache() && len > 0) {
        FileRange r = FileRange.createFileRange(position, len);
        readVectoredCached(List.of(r), ByteBuffer::allocate);
        try {
          r.getData().join().get(buffer, offset, len);
        } catch (java.util.concurrent.CompletionException e) {
          throw e.getCause() instanceof java.io.UncheckedIOException u ? u.getCause()
              : new IOException(e.getCause());
        }
        return;
      }
      in.readFully(position, buffer, offset, len);
    }

    @Override
    public int available() {
      return (int) Math.min(Integer.MAX_VALUE, length - pos);
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
