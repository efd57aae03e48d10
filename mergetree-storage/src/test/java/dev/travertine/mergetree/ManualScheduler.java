package dev.travertine.mergetree;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A background scheduler that runs nothing by itself: submitted tasks wait in a queue until the
 * test runs them one by one, so a test decides which merge runs while which other is pending.
 * Delayed and periodic tasks (timed flushes) are dropped.
 */
final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {
  private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
  private boolean shutdown;

  @Override
  public synchronized void execute(Runnable command) {
    queue.add(command);
  }

  synchronized int pending() {
    return queue.size();
  }

  /** Runs the oldest queued task in the caller's thread; false when none is queued. */
  boolean runOne() {
    Runnable r;
    synchronized (this) {
      r = queue.poll();
    }
    if (r == null) {
      return false;
    }
    r.run();
    return true;
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    return new Never<>();
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    return new Never<>();
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
    return new Never<>();
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
    return new Never<>();
  }

  @Override
  public synchronized void shutdown() {
    shutdown = true;
  }

  @Override
  public synchronized List<Runnable> shutdownNow() {
    shutdown = true;
    List<Runnable> left = List.copyOf(queue);
    queue.clear();
    return left;
  }

  @Override
  public synchronized boolean isShutdown() {
    return shutdown;
  }

  @Override
  public synchronized boolean isTerminated() {
    return shutdown;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return true;
  }

  /** A scheduled task that never comes due. */
  private static final class Never<V> implements ScheduledFuture<V> {
    @Override
    public long getDelay(TimeUnit unit) {
      return Long.MAX_VALUE;
    }

    @Override
    public int compareTo(Delayed o) {
      return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      return true;
    }

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public boolean isDone() {
      return false;
    }

    @Override
    public V get() {
      throw new IllegalStateException("never runs");
    }

    @Override
    public V get(long timeout, TimeUnit unit) {
      throw new IllegalStateException("never runs");
    }
  }
}
