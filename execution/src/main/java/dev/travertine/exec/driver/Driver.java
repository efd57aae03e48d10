package dev.travertine.exec.driver;

import dev.travertine.vector.Batch;
import dev.travertine.vector.BatchIterator;
import dev.travertine.vector.BatchStage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one worker loop of the engine: {@code workers} threads of a pool take {@link Morsel}s from
 * a {@link MorselSource} (a table's read tasks, files, blocks from other nodes), run each
 * worker's {@link BatchStage} (filter, expressions, partial aggregation) on every batch where it
 * was decoded, and queue what the stages hand on for one consumer, which reads them as a {@link
 * BatchIterator}.
 *
 * <p>The first failure (a morsel's, a stage's, or one reported through {@link #fail}) stops the
 * workers, drops the batches not yet read and is what the consumer's next call throws. Reaching
 * the limit or closing also stops them; {@link #close} returns once every worker has ended (or,
 * after 30 s, interrupts those still running), then closes the source. Not thread-safe for the
 * consumer.
 */
public final class Driver implements BatchIterator {
  private static final Object END = new Object();
  private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  /** How long {@link #close} waits for its workers, all together, before it interrupts those left. */
  private static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

  private final MorselSource source;
  private final BatchStage.Factory stages;
  private final long limit;
  private final String what;
  private final Runnable idle;
  private final BlockingQueue<Object> out;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final List<Future<?>> running = new ArrayList<>();
  private int ended;
  private long emitted;

  private Driver(MorselSource source, int workers, BatchStage.Factory stages, long limit, String what, Runnable idle) {
    this.source = source;
    this.stages = stages;
    this.limit = limit;
    this.what = what;
    this.idle = idle;
    this.out = new ArrayBlockingQueue<>(4 * workers);
  }

  /**
   * Starts {@code workers} workers on {@code pool}.
   *
   * @param stages each worker's stage (null: batches go to the consumer as read)
   * @param limit the most rows the consumer gets (-1: all); the last batch is cut to it
   * @param what what is read, for messages ("table t", "files of f")
   */
  public static Driver start(ExecutorService pool, int workers, MorselSource source, BatchStage.Factory stages,
      long limit, String what) {
    return start(pool, workers, source, stages, limit, what, null);
  }

  /**
   * As above; while the consumer waits for a batch it runs {@code idle} (null: nothing) every 100
   * ms, and what {@code idle} throws fails the driver (a cancelled query, a peer gone silent).
   */
  public static Driver start(ExecutorService pool, int workers, MorselSource source, BatchStage.Factory stages,
      long limit, String what, Runnable idle) {
    Driver d = new Driver(source, Math.max(1, workers), stages, limit, what, idle);
    for (int i = 0; i < Math.max(1, workers); i++) {
      try {
        d.running.add(pool.submit(d::work));
      } catch (RejectedExecutionException e) {
        if (d.running.isEmpty()) {
          throw e; // a pool shut down: nobody would read the morsels
        }
        break;
      }
    }
    return d;
  }

  /** Whether the workers were told to stop: closed, failed, or the limit reached. */
  public boolean stopped() {
    return stop.get();
  }

  /**
   * Fails the driver from outside its workers (a peer's error): the consumer's next call throws
   * {@code t}, unless it failed or stopped already.
   */
  public void fail(Throwable t) {
    if (stop.compareAndSet(false, true)) {
      out.clear();
      put(t);
    }
  }

  private void work() {
    Worker w = null;
    try {
      w = new Worker(stages == null ? null : stages.create());
      Morsel m;
      while (!stop.get() && (m = source.next()) != null) {
        m.run(w);
      }
    } catch (Throwable t) {
      fail(t);
    } finally {
      try {
        if (w != null) {
          w.closeKept();
        }
      } catch (Throwable t) {
        fail(t);
      }
      put(END);
    }
  }

  /** A worker's sink: its stage, and the resources it keeps between morsels. */
  private final class Worker implements Morsel.Sink {
    private final BatchStage stage;
    private final boolean consumes;
    /** By slot: what it holds, and what it was opened for. */
    private final Map<String, Kept> kept = new HashMap<>();

    Worker(BatchStage stage) {
      this.stage = stage;
      this.consumes = stage != null && stage.consumesBatches();
    }

    @Override public boolean push(Batch batch) {
      if (batch.size() == 0 || stop.get()) {
        return true; // nothing handed on
      }
      Batch r = stage == null ? batch : stage.apply(batch);
      if (r != null && r.size() > 0) {
        put(r);
      }
      return consumes;
    }

    @Override public boolean stopped() {
      return stop.get();
    }

    @Override public <T extends AutoCloseable> T keep(String slot, Object id, Morsel.Opener<T> open) throws Exception {
      Kept old = kept.get(slot);
      if (old != null && old.id() == id) {
        @SuppressWarnings("unchecked")
        T same = (T) old.resource();
        return same;
      }
      if (old != null) {
        kept.remove(slot);
        old.resource().close();
      }
      T r = open.open();
      kept.put(slot, new Kept(id, r));
      return r;
    }

    void closeKept() throws Exception {
      Exception first = null;
      for (Kept k : kept.values()) {
        try {
          k.resource().close();
        } catch (Exception e) {
          if (first == null) {
            first = e;
          }
        }
      }
      kept.clear();
      if (first != null) {
        throw first;
      }
    }
  }

  /** A resource a worker keeps in a slot, and what it was opened for. */
  private record Kept(Object id, AutoCloseable resource) {}

  /** Queues {@code o}; a batch is dropped once the driver stopped, an end or an error waits for room. */
  private void put(Object o) {
    try {
      while (!out.offer(o, 50, TimeUnit.MILLISECONDS)) {
        if (stop.get() && o != END && !(o instanceof Throwable)) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override public Batch next() throws IOException {
    if (limit >= 0 && emitted >= limit) {
      stop.set(true);
      return null;
    }
    while (ended < running.size()) {
      Object o = take();
      if (o == null) {
        continue;
      }
      if (o == END) {
        ended++;
        continue;
      }
      if (o instanceof Throwable t) {
        stop.set(true);
        ended = running.size();
        throw rethrow(t);
      }
      Batch b = (Batch) o;
      int size = b.size();
      if (limit >= 0 && emitted + size >= limit) {
        size = (int) (limit - emitted);
        stop.set(true);
      }
      emitted += size;
      return size == b.size() ? b : new Batch(b.cols(), b.sel(), size);
    }
    return null;
  }

  /** The next thing queued; null after an idle period (when there is an idle task, which ran). */
  private Object take() throws IOException {
    try {
      if (idle == null) {
        return out.take();
      }
      Object o = out.poll(IDLE_NANOS, TimeUnit.NANOSECONDS);
      if (o == null) {
        try {
          idle.run();
        } catch (RuntimeException e) {
          fail(e);
        }
      }
      return o;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop.set(true);
      throw new IOException("Interrupted while reading " + what, e);
    }
  }

  private static IOException rethrow(Throwable t) {
    if (t instanceof IOException io) {
      return io;
    }
    if (t instanceof RuntimeException re) {
      throw re;
    }
    if (t instanceof Error err) {
      throw err;
    }
    return new IOException(t);
  }

  @Override public void close() throws IOException {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    stop.set(true);
    out.clear();
    boolean interrupted = false;
    long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
    for (Future<?> f : running) {
      while (true) { // a worker waiting to queue its end needs room
        try {
          f.get(50, TimeUnit.MILLISECONDS);
          break;
        } catch (TimeoutException e) {
          out.clear();
          if (System.nanoTime() > deadline) {
            f.cancel(true); // stuck in a read that does not return: interrupted, not waited for
            break;
          }
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (Exception e) {
          break; // its failure went through the queue
        }
      }
    }
    out.clear();
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    source.close();
  }
}
