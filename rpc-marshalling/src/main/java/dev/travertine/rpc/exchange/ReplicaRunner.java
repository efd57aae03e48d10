package dev.travertine.rpc.exchange;

import dev.travertine.exec.op.Fragment;
import dev.travertine.exec.op.FragmentRunner;
import dev.travertine.exec.op.MemoryTracker;
import dev.travertine.exec.op.ScanSource;
import dev.travertine.exec.op.Step;
import dev.travertine.exec.op.Workers;
import dev.travertine.io.FileIO;
import dev.travertine.io.FileIOs;
import dev.travertine.io.hadoop.FileIOFileSystem;
import dev.travertine.mergetree.EngineContext;
import dev.travertine.mergetree.TableSnapshot;
import dev.travertine.mergetree.part.OrcSupport;
import dev.travertine.mergetree.part.PartInfo;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.scan.TaskFeed;
import dev.travertine.mergetree.settings.SessionSettings;
import dev.travertine.mergetree.settings.Setting;
import dev.travertine.mergetree.settings.Settings;
import dev.travertine.rpc.block.BlockWriter;
import dev.travertine.rpc.block.Codec;
import dev.travertine.vector.Batch;
import dev.travertine.vector.BatchIterator;
import dev.travertine.vector.BatchStage;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Predicate;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a {@link FragmentRequest} on this node: opens the request's parts from the shared storage
 * (keeping them, and so their footers, indexes and cached columns, for later queries), scans the
 * tasks the feed hands out, runs the fragment and sends its output as marshalled blocks. With
 * {@code enable_parallel_blocks_marshalling} the blocks are marshalled in the worker threads
 * (the scan's, or the pool's for a result that is complete in memory); without it, in the thread
 * that runs the request.
 */
public final class ReplicaRunner implements AutoCloseable {
  /** Where marshalled blocks go; may block (flow control). Called from several threads. */
  public interface BlockSink {
    void send(byte[] block) throws IOException;
  }

  /** What a run read. */
  public record Stats(long rows, long bytes) {}

  private static final int MAX_CACHED_PARTS = 100_000;

  private final EngineContext ctx;
  private final Map<String, String> storage;
  private final dev.travertine.mergetree.query.QueryRegistry queries;
  private final Map<String, FileIO> ios = new ConcurrentHashMap<>();
  private final Map<String, PartRef> parts = new ConcurrentHashMap<>();

  /** @param storage the node's storage properties (credentials of S3, HDFS settings) */
  public ReplicaRunner(EngineContext ctx, Map<String, String> storage) {
    this(ctx, storage, null);
  }

  /**
   * @param queries where this node's fragments of other nodes' queries show (system.processes,
   *     system.query_log) and can be killed; null: nowhere
   */
  public ReplicaRunner(EngineContext ctx, Map<String, String> storage,
      dev.travertine.mergetree.query.QueryRegistry queries) {
    this.ctx = ctx;
    this.storage = Map.copyOf(storage);
    this.queries = queries;
  }

  private PartRef part(String location, PartInfo info) {
    String key = location + "\n" + info.name() + "\n" + info.path() + "\n" + info.checksum();
    PartRef p = parts.get(key);
    if (p != null) {
      return p;
    }
    if (parts.size() >= MAX_CACHED_PARTS) {
      parts.clear(); // parts are re-opened from their footers
    }
    FileIO io = ios.computeIfAbsent(location, l -> FileIOs.open(l, storage));
    FileIOFileSystem fs = OrcSupport.fileSystem(io);
    return parts.computeIfAbsent(key, k -> new PartRef(info, io, fs, null));
  }

  /** The session settings of a request: those this node knows of (others are ignored). */
  static SessionSettings settings(Map<String, String> given) {
    Map<String, String> known = new LinkedHashMap<>();
    given.forEach((k, v) -> {
      try {
        Setting s = Settings.require(k, Setting.Scope.SESSION);
        known.put(s.name(), v);
      } catch (IllegalArgumentException e) {
        // A setting of a newer node: not one that shapes this node's work.
      }
    });
    return new SessionSettings(known);
  }

  /**
   * Runs the request to its end (or until {@code cancelCheck} throws), sending the fragment's
   * output to {@code sink}.
   */
  public Stats run(FragmentRequest r, TaskFeed feed, BlockSink sink, Runnable cancelCheck) throws IOException {
    if (queries == null) {
      return runFragment(r, feed, sink, cancelCheck);
    }
    dev.travertine.mergetree.query.QueryContext q = queries.begin(r.user(),
        "parallel replica of query " + r.queryId() + " on table " + r.definition().name());
    Throwable error = null;
    try {
      Stats st = runFragment(r, feed, sink, () -> {
        cancelCheck.run();
        q.checkCancelled();
      });
      q.addReadRows(st.rows());
      return st;
    } catch (IOException | RuntimeException | Error e) {
      error = e;
      throw e;
    } finally {
      queries.finish(q, error);
    }
  }

  private Stats runFragment(FragmentRequest r, TaskFeed feed, BlockSink sink, Runnable cancelCheck)
      throws IOException {
    SessionSettings s = settings(r.settings());
    List<PartRef> refs = new ArrayList<>();
    for (PartInfo info : r.parts()) {
      refs.add(part(r.location(), info));
    }
    Predicate filter = r.filter() == null ? null : r.filter().bind(r.definition().schema());
    int threads = (int) s.getLong(Settings.MAX_THREADS);
    int batchSize = (int) s.getLong(Settings.MAX_BLOCK_SIZE);
    Codec codec = Codec.parse(s.get(Settings.NETWORK_COMPRESSION_METHOD));
    int level = (int) s.getLong(Settings.NETWORK_ZSTD_COMPRESSION_LEVEL);
    boolean parallel = s.getBool(Settings.ENABLE_PARALLEL_BLOCKS_MARSHALLING);
    Fragment f = r.fragment();
    List<DataType> outTypes = f.outputTypes();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < outTypes.size(); i++) {
      names.add("$" + i);
    }
    boolean perRowOnly = f.steps().stream().allMatch(x -> x instanceof Step.Filter || x instanceof Step.Project);
    // An aggregate's or a sort's result is complete in memory before the first batch: batches stay valid.
    boolean inMemory = f.steps().stream().anyMatch(x -> x instanceof Step.Aggregate
        || x instanceof Step.Sort so && !so.keys().isEmpty());
    AtomicLong sequence = new AtomicLong();
    AtomicLong rowsRead = new AtomicLong();
    try (TableSnapshot snapshot = TableSnapshot.ofParts(r.definition(), refs)) {
      ScanSource source = new FedScanSource(snapshot, r.projection(), filter, s, ctx, feed, rowsRead,
          (stages, limit) -> {
            if (!parallel || !perRowOnly || limit >= 0) {
              return stages;
            }
            // The stages' output is the fragment's: marshalled and sent where it is produced.
            return () -> {
              BatchStage inner = stages.create();
              BlockWriter w = new BlockWriter(codec, level);
              return b -> {
                Batch out = inner.apply(b);
                if (out != null && out.size() > 0) {
                  send(sink, w.marshal(sequence.getAndIncrement(), names, outTypes, out.cols(), out.sel(), out.size()));
                }
                return null;
              };
            };
          });
      MemoryTracker memory = new MemoryTracker(s.getLong(Settings.MAX_MEMORY_USAGE));
      BlockWriter writer = new BlockWriter(codec, level);
      Workers pool = new Workers(ctx.scanPool(), threads);
      try (BatchIterator it = FragmentRunner.run(f, source, cancelCheck, memory, batchSize)) {
        List<Batch> pending = new ArrayList<>();
        Batch b;
        while ((b = it.next()) != null) {
          cancelCheck.run();
          if (!parallel || !inMemory) {
            sink.send(writer.marshal(sequence.getAndIncrement(), names, outTypes, b.cols(), b.sel(), b.size()));
            continue;
          }
          // A result held in memory (an aggregate's, a sort's): marshalled a few batches at a time on the pool.
          pending.add(b);
          if (pending.size() >= 2 * threads) {
            sendAll(pending, pool, sink, codec, level, names, outTypes, sequence, cancelCheck);
          }
        }
        sendAll(pending, pool, sink, codec, level, names, outTypes, sequence, cancelCheck);
      }
    }
    return new Stats(rowsRead.get(), 0);
  }

  private static void sendAll(List<Batch> batches, Workers pool, BlockSink sink, Codec codec, int level,
      List<String> names, List<DataType> types, AtomicLong sequence, Runnable cancelCheck) throws IOException {
    if (batches.isEmpty()) {
      return;
    }
    byte[][] blocks = new byte[batches.size()][];
    long first = sequence.getAndAdd(batches.size());
    pool.run(batches.size(), i -> {
      Batch b = batches.get(i);
      blocks[i] = new BlockWriter(codec, level).marshal(first + i, names, types, b.cols(), b.sel(), b.size());
    }, cancelCheck);
    for (byte[] block : blocks) {
      sink.send(block);
    }
    batches.clear();
  }

  private static void send(BlockSink sink, byte[] block) {
    try {
      sink.send(block);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Override public void close() throws IOException {
    parts.clear();
    for (FileIO io : ios.values()) {
      io.close();
    }
    ios.clear();
  }
}
