package dev.travertine.rpc.exchange;

import dev.travertine.exec.Columns;
import dev.travertine.exec.driver.Driver;
import dev.travertine.exec.driver.Morsel;
import dev.travertine.exec.op.FragmentRunner;
import dev.travertine.exec.op.MemoryTracker;
import dev.travertine.exec.op.ScanSource;
import dev.travertine.exec.op.Workers;
import dev.travertine.mergetree.EngineContext;
import dev.travertine.mergetree.EngineEvents;
import dev.travertine.mergetree.TableSnapshot;
import dev.travertine.mergetree.scan.TableScanner;
import dev.travertine.mergetree.scan.TaskFeed;
import dev.travertine.mergetree.settings.SessionSettings;
import dev.travertine.mergetree.settings.Settings;
import dev.travertine.rpc.block.BlockReader;
import dev.travertine.rpc.block.WireBlock;
import dev.travertine.vector.Batch;
import dev.travertine.vector.BatchIterator;
import dev.travertine.vector.BatchStage;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.RowFilter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The initiator's side of a query with parallel replicas: a {@link ScanSource} whose batches are
 * what the replicas' fragment produces on every node (partial aggregate states, top rows, rows),
 * for the initiator's fragment to finish. It fixes the read tasks from the initiator's snapshot,
 * lets a {@link Coordinator} hand them out, starts one call per replica and runs the fragment
 * itself too, over its snapshot (which alone holds the insert buffer's rows). Received blocks are
 * unmarshalled in the initiator's worker threads ({@code enable_parallel_blocks_marshalling}) or
 * in the connection's thread (0), and each worker runs the initiator's stage on them.
 *
 * <p>A replica that fails before it sent any block gives its tasks back to the others (the
 * initiator reads them if nobody else does); one that fails after, fails the query: its blocks
 * are merged already, and reading its tasks again would count them twice. A fragment that fails
 * on a replica (a limit, bad data) fails the query with the replica's error.
 */
public final class ParallelReplicasSource implements ScanSource {
  private static final Logger LOG = LoggerFactory.getLogger(ParallelReplicasSource.class);
  static final String LOCAL = "initiator";

  private final TableSnapshot snapshot;
  private final FragmentRequest request;
  private final List<ExchangeClient> replicas;
  private final EngineContext ctx;
  private final SessionSettings settings;
  private final Runnable cancelCheck;
  private final long deadlineMillis;
  private final AtomicLong rowsRead = new AtomicLong();
  private final Health health;
  private final MemoryTracker memory;
  private volatile Coordinator coordinator;

  /** Hears how each replica's call ended: null when it finished, else what went wrong. */
  public interface Health {
    void report(String replica, String error);
  }

  /**
   * @param snapshot the initiator's snapshot: its parts are the request's
   * @param request what each replica runs (the replica half of the split fragment)
   * @param deadlineMillis how long replicas' calls may take (0 = no limit)
   */
  public ParallelReplicasSource(TableSnapshot snapshot, FragmentRequest request, List<ExchangeClient> replicas,
      EngineContext ctx, SessionSettings settings, Runnable cancelCheck, long deadlineMillis) {
    this(snapshot, request, replicas, ctx, settings, cancelCheck, deadlineMillis, (r, e) -> {},
        new MemoryTracker(settings.getLong(Settings.MAX_MEMORY_USAGE)));
  }

  /**
   * @param memory the query's budget: the initiator's own share of the replica fragment charges
   *     its states to it, beside the fragment that finishes the query
   */
  public ParallelReplicasSource(TableSnapshot snapshot, FragmentRequest request, List<ExchangeClient> replicas,
      EngineContext ctx, SessionSettings settings, Runnable cancelCheck, long deadlineMillis, Health health,
      MemoryTracker memory) {
    this.health = health;
    this.memory = memory;
    this.snapshot = snapshot;
    this.request = request;
    this.replicas = List.copyOf(replicas);
    this.ctx = ctx;
    this.settings = settings;
    this.cancelCheck = cancelCheck;
    this.deadlineMillis = deadlineMillis;
  }

  @Override public Statistics statistics() {
    return null;
  }

  @Override public Workers workers() {
    return new Workers(ctx.scanPool(), threads());
  }

  private int threads() {
    return (int) settings.getLong(Settings.MAX_THREADS);
  }

  /** Rows the initiator and the replicas that finished read. */
  public long rowsRead() {
    return rowsRead.get();
  }

  /** The coordinator of the last {@link #open} (what each node was handed), or null. */
  public Coordinator coordinator() {
    return coordinator;
  }

  /** Something a receiving worker takes: a block's bytes or its vectors, or a local batch. */
  private record Inbound(Object payload, ExchangeClient.Call call) {}

  private static final Object END = new Object();

  @Override public BatchIterator open(BatchStage.Factory stages, long limit, RowFilter prewhere) throws IOException {
    Predicate filter = request.filter() == null ? null : request.filter().bind(snapshot.definition().schema());
    boolean usePruning = settings.getBool(Settings.USE_PRIMARY_KEY);
    List<String> tasks = TableScanner.taskKeys(snapshot, filter, usePruning);
    List<String> names = new ArrayList<>();
    names.add(LOCAL);
    replicas.forEach(r -> names.add(r.address()));
    Coordinator coord = new Coordinator(tasks, names);
    this.coordinator = coord;
    return new Run(coord, stages, filter, limit);
  }

  private final class Run implements BatchIterator {
    private final Coordinator coord;
    private final boolean parallel = settings.getBool(Settings.ENABLE_PARALLEL_BLOCKS_MARSHALLING);
    private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    /** The receiving workers: each takes what arrives in the inbox and runs the initiator's stage on it. */
    private volatile Driver driver;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicInteger active;
    private final List<ExchangeClient.Call> calls = new ArrayList<>();
    private final List<Future<?>> threads = new ArrayList<>();
    private final Map<String, Boolean> delivered = new ConcurrentHashMap<>();
    /** When each replica was last heard from (nanoTime), and those whose call is over. */
    private final Map<String, Long> lastHeard = new ConcurrentHashMap<>();
    private final Map<String, ExchangeClient.Call> callOf = new ConcurrentHashMap<>();
    private final java.util.Set<String> over = ConcurrentHashMap.newKeySet();
    private final long receiveTimeoutNanos = TimeUnit.SECONDS.toNanos(settings.getLong(Settings.RECEIVE_TIMEOUT));
    private long stallsChecked = System.nanoTime();
    private final int receivers;

    Run(Coordinator coord, BatchStage.Factory stages, Predicate filter, long limit) {
      this.coord = coord;
      this.receivers = Math.max(1, threads());
      this.active = new AtomicInteger(1 + replicas.size());
      this.driver = Driver.start(ctx.scanPool(), receivers, this::received, stages, limit, "parallel replicas",
          () -> {
            try {
              checkStalls();
              cancelCheck.run();
            } catch (RuntimeException e) {
              fail(e); // the replicas' calls are cancelled at once, not when the query closes
              throw e;
            }
          });
      int inflight = 2 * receivers;
      for (ExchangeClient c : replicas) {
        lastHeard.put(c.address(), System.nanoTime());
        ExchangeClient.Call call = c.start(request, deadlineMillis, inflight, listener(c.address()));
        callOf.put(c.address(), call);
        synchronized (calls) {
          calls.add(call);
        }
        if (stop.get()) {
          call.cancel("the query stopped"); // it failed while this call was being started
        }
      }
      threads.add(ctx.scanPool().submit(() -> local(filter)));
    }

    private ExchangeClient.Listener listener(String replica) {
      return new ExchangeClient.Listener() {
        @Override public void onBlock(ExchangeClient.Call call, byte[] block) {
          lastHeard.put(replica, System.nanoTime());
          delivered.put(replica, true);
          ctx.events().add(EngineEvents.EXCHANGE_BLOCKS_RECEIVED, 1);
          ctx.events().add(EngineEvents.EXCHANGE_BYTES_RECEIVED, block.length);
          if (parallel) {
            inbox.add(new Inbound(block, call));
            return;
          }
          try {
            inbox.add(new Inbound(BlockReader.unmarshal(block), call)); // the connection's thread decodes
          } catch (RuntimeException e) {
            fail(new IOException("Replica " + replica + ": " + e.getMessage(), e));
          }
        }

        @Override public List<String> onNeedTasks() {
          lastHeard.put(replica, System.nanoTime());
          List<String> t = coord.next(replica, ReplicaCall.TASKS_PER_REQUEST);
          ctx.events().add(EngineEvents.EXCHANGE_REMOTE_TASKS, t.size());
          return t;
        }

        @Override public void onDone(long rows, long bytes) {
          if (!over.add(replica)) {
            return;
          }
          rowsRead.addAndGet(rows);
          health.report(replica, null);
          coord.finish(replica);
          participantEnded();
        }

        @Override public void onError(Throwable t) {
          if (stop.get()) {
            return;
          }
          if (queryError(t)) {
            // The fragment itself failed there (a limit, bad data): the query's error, not the node's.
            health.report(replica, describe(t));
            over.add(replica);
            fail(new IOException("Replica " + replica + ": " + ((io.grpc.StatusRuntimeException) t).getStatus()
                .getDescription(), t));
            return;
          }
          replicaFailed(replica, describe(t), t);
        }
      };
    }

    /**
     * A replica's call is over without its result: its tasks go back when it sent nothing, else
     * the query fails (its blocks are merged already; reading its tasks again would count them
     * twice).
     */
    private void replicaFailed(String replica, String why, Throwable cause) {
      if (!over.add(replica)) {
        return;
      }
      health.report(replica, why);
      if (delivered.containsKey(replica)) {
        fail(new IOException("Replica " + replica + " failed after sending part of its result: " + why, cause));
        return;
      }
      int back = coord.fail(replica);
      LOG.warn("Replica {} failed before sending anything ({}): its {} read tasks go to the others", replica, why,
          back);
      participantEnded();
    }

    /** Gives up on replicas that sent nothing for receive_timeout (checked every 100 ms at most). */
    private void checkStalls() {
      long now = System.nanoTime();
      if (now - stallsChecked < 100_000_000L) {
        return;
      }
      stallsChecked = now;
      for (Map.Entry<String, Long> e : lastHeard.entrySet()) {
        String replica = e.getKey();
        if (!over.contains(replica) && now - e.getValue() > receiveTimeoutNanos) {
          String why = "sent nothing for " + TimeUnit.NANOSECONDS.toSeconds(receiveTimeoutNanos)
              + " s (receive_timeout)";
          replicaFailed(replica, why, null);
          ExchangeClient.Call call = callOf.get(replica);
          if (call != null) {
            call.cancel(why);
          }
        }
      }
    }

    private void participantEnded() {
      if (active.decrementAndGet() == 0) {
        for (int i = 0; i < receivers; i++) {
          inbox.add(END);
        }
      }
    }

    /** The initiator's own share: the replica fragment over its snapshot, fed by the coordinator. */
    private void local(Predicate filter) {
      TaskFeed feed = () -> {
        while (true) {
          if (stop.get()) {
            return List.of();
          }
          cancelCheck.run();
          List<String> t = coord.next(LOCAL, ReplicaCall.TASKS_PER_REQUEST);
          if (!t.isEmpty()) {
            return t;
          }
          try {
            if (!coord.mayGetMore(LOCAL, 100)) {
              return List.of();
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted", e);
          }
        }
      };
      ScanSource source = new FedScanSource(snapshot, request.projection(), filter, settings, ctx, feed, rowsRead,
          (stages, lim) -> stages);
      try (BatchIterator it = FragmentRunner.run(request.fragment(), source, this::check, memory,
          (int) settings.getLong(Settings.MAX_BLOCK_SIZE))) {
        Batch b;
        while (!stop.get() && (b = it.next()) != null) {
          inbox.add(new Inbound(b, null));
        }
        coord.finish(LOCAL);
        participantEnded();
      } catch (Throwable t) {
        fail(t);
      }
    }

    private void check() {
      if (stop.get()) {
        throw new IllegalStateException("The query stopped");
      }
      cancelCheck.run();
    }

    /** What a receiving worker takes next from the inbox: null once every participant ended, or the query stopped. */
    private Morsel received() throws IOException {
      try {
        for (Driver d = driver; !stop.get() && (d == null || !d.stopped()); d = driver) {
          Object o = inbox.poll(100, TimeUnit.MILLISECONDS);
          if (o == END) {
            return null;
          }
          if (o != null) {
            Inbound in = (Inbound) o;
            return sink -> {
              try {
                sink.push(batch(in));
              } catch (Throwable t) {
                fail(t);
                throw t;
              }
            };
          }
        }
        return null;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("Interrupted", e);
      }
    }

    /** A received block's vectors (decoded here unless the connection's thread did), or a local batch. */
    private Batch batch(Inbound in) throws IOException {
      if (in.payload() instanceof Batch local) {
        return local;
      }
      WireBlock w;
      try {
        w = in.payload() instanceof WireBlock wb ? wb : BlockReader.unmarshal((byte[]) in.payload());
      } catch (RuntimeException e) {
        throw new IOException("Replica " + in.call().address() + ": " + e.getMessage(), e);
      }
      in.call().consumed();
      return new Batch(w.columns(), Columns.identity(w.rows()), w.rows());
    }

    private void fail(Throwable t) {
      if (stop.compareAndSet(false, true)) {
        cancelCalls("the query failed");
        Driver d = driver;
        if (d != null) {
          d.fail(t);
        }
        for (int i = 0; i < receivers; i++) {
          inbox.add(END);
        }
      }
    }

    private void cancelCalls(String why) {
      synchronized (calls) {
        for (ExchangeClient.Call c : calls) {
          c.cancel(why);
        }
      }
    }

    @Override public Batch next() throws IOException {
      checkStalls(); // also while batches keep coming from the others
      return driver.next();
    }

    @Override public void close() throws IOException {
      if (stop.compareAndSet(false, true)) {
        cancelCalls("the query ended");
      }
      for (int i = 0; i < receivers; i++) {
        inbox.add(END);
      }
      try {
        driver.close();
      } finally {
        for (Future<?> f : threads) {
          try {
            f.get(30, TimeUnit.SECONDS);
          } catch (Exception e) {
            // reported through the driver
          }
        }
      }
    }
  }

  /** Whether a replica's call failed because the fragment failed there (not the node or the link). */
  static boolean queryError(Throwable t) {
    return t instanceof io.grpc.StatusRuntimeException s && s.getStatus().getDescription() != null
        && (s.getStatus().getCode() == io.grpc.Status.Code.INTERNAL
            || s.getStatus().getCode() == io.grpc.Status.Code.INVALID_ARGUMENT);
  }

  static String describe(Throwable t) {
    if (t instanceof io.grpc.StatusRuntimeException s) {
      String d = s.getStatus().getDescription();
      return s.getStatus().getCode() + (d == null ? "" : ": " + d);
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
