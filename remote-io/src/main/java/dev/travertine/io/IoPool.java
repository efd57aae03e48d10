package dev.travertine.io;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The shared pool that runs blocking storage reads issued ahead of use (vectored reads,
 * prefetches) for backends without asynchronous reads of their own. IO-bound: more threads than
 * cores; idle threads end after a minute.
 */
public final class IoPool {
  private IoPool() {}

  private static final ExecutorService POOL;

  static {
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor p = new ThreadPoolExecutor(32, 32, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread t = new Thread(r, "travertine-io-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    p.allowCoreThreadTimeOut(true);
    POOL = p;
  }

  public static ExecutorService executor() {
    return POOL;
  }
}
