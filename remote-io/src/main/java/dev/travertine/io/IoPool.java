package dev.travertine.io;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The shared pools for work issued ahead of use. {@link #executor()} runs blocking storage reads
 * (vectored reads of backends without asynchronous reads of their own); {@link #prefetchExecutor()}
 * runs prefetch tasks, which wait for such reads and so must never occupy the threads those reads
 * need. Both are IO-bound: more threads than cores; idle threads end after a minute.
 */
public final class IoPool {
  private IoPool() {}

  private static final ExecutorService POOL = pool("travertine-io-", 32);
  private static final ExecutorService PREFETCH = pool("travertine-prefetch-", 32);

  private static ExecutorService pool(String prefix, int threads) {
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor p = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        r -> {
          Thread t = new Thread(r, prefix + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    p.allowCoreThreadTimeOut(true);
    return p;
  }

  /** Blocking storage reads; a task here never waits for another task of this pool. */
  public static ExecutorService executor() {
    return POOL;
  }

  /** Prefetches: tasks that open and read a file ahead of use, waiting for reads on {@link #executor()}. */
  public static ExecutorService prefetchExecutor() {
    return PREFETCH;
  }
}
