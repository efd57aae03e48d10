package dev.travertine.exec.op;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Where a fragment's parallel work runs besides the scan: an executor and how many of its
 * threads a query may use ({@code max_threads}).
 */
public record Workers(ExecutorService pool, int threads) {
  public Workers {
    threads = Math.max(1, threads);
  }

  /** Work on the caller's thread alone. */
  public static Workers callerOnly() {
    return new Workers(null, 1);
  }

  /**
   * Runs tasks 0 … n - 1, each once, on up to {@link #threads} threads (the caller's is one of
   * them), and returns when all are done. The first failure stops the tasks not yet started and
   * is rethrown; {@code cancelCheck} runs before each task.
   */
  public void run(int n, IntConsumer task, Runnable cancelCheck) {
    AtomicInteger next = new AtomicInteger();
    AtomicBoolean failed = new AtomicBoolean();
    Runnable loop = () -> {
      try {
        int t;
        while (!failed.get() && (t = next.getAndIncrement()) < n) {
          cancelCheck.run();
          task.accept(t);
        }
      } catch (RuntimeException | Error e) {
        failed.set(true);
        throw e;
      }
    };
    int helpers = pool == null ? 0 : Math.min(threads, n) - 1;
    List<Future<?>> futures = new ArrayList<>();
    for (int i = 0; i < helpers; i++) {
      try {
        futures.add(pool.submit(loop));
      } catch (java.util.concurrent.RejectedExecutionException e) {
        break; // a pool shutting down: the caller's thread does the rest
      }
    }
    Throwable first = null;
    try {
      loop.run();
    } catch (RuntimeException | Error e) {
      first = e;
    }
    boolean interrupted = false;
    for (Future<?> f : futures) {
      // Every helper has ended when this returns (an interrupt only stops the tasks not started).
      while (true) {
        try {
          f.get();
          break;
        } catch (ExecutionException e) {
          if (first == null) {
            first = e.getCause();
          }
          break;
        } catch (InterruptedException e) {
          interrupted = true;
          failed.set(true);
          if (first == null) {
            first = e;
          }
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (first instanceof RuntimeException r) {
      throw r;
    }
    if (first instanceof Error err) {
      throw err;
    }
    if (first != null) {
      throw new IllegalStateException("Interrupted", first);
    }
  }

  /** These workers as where a join's table builds in parallel, checking {@code cancelCheck} before each task. */
  public dev.travertine.exec.join.JoinTable.Parallel forJoinBuild(Runnable cancelCheck) {
    return new dev.travertine.exec.join.JoinTable.Parallel() {
      @Override public int threads() {
        return threads;
      }

      @Override public void run(int n, IntConsumer task) {
        Workers.this.run(n, task, cancelCheck);
      }
    };
  }
}
