package dev.travertine.mergetree.query;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** One running statement: identity, text, start time, counters, and its cancel flag. */
public final class QueryContext {
  private final String id;
  private final String user;
  private final String query;
  private final long startMillis;
  private final long startNanos;
  final AtomicLong readRows = new AtomicLong();
  final AtomicLong readBytes = new AtomicLong();
  final AtomicLong resultRows = new AtomicLong();
  private final AtomicBoolean cancelled = new AtomicBoolean();
  private final long startThread = Thread.currentThread().getId();
  private final long startAllocated = allocated();

  /** Bytes allocated so far by the current thread (HotSpot), or -1. */
  static long allocated() {
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    if (mx instanceof com.sun.management.ThreadMXBean hs && hs.isThreadAllocatedMemoryEnabled()) {
      return hs.getThreadAllocatedBytes(Thread.currentThread().getId());
    }
    return -1;
  }

  /**
   * Heap bytes the statement allocated on the thread that started it (a stand-in for ClickHouse's
   * memory_usage; scan worker threads are not counted), or -1 when unknown.
   */
  long allocatedBytes() {
    if (startAllocated < 0 || Thread.currentThread().getId() != startThread) {
      return -1;
    }
    return allocated() - startAllocated;
  }

  QueryContext(String id, String user, String query, long startMillis, long startNanos) {
    this.id = id;
    this.user = user;
    this.query = query;
    this.startMillis = startMillis;
    this.startNanos = startNanos;
  }

  public String id() {
    return id;
  }

  public String user() {
    return user;
  }

  public String query() {
    return query;
  }

  public long startMillis() {
    return startMillis;
  }

  long startNanos() {
    return startNanos;
  }

  public void addReadRows(long n) {
    readRows.addAndGet(n);
  }

  public void addResultRows(long n) {
    resultRows.addAndGet(n);
  }

  public long readRows() {
    return readRows.get();
  }

  public long resultRows() {
    return resultRows.get();
  }

  /** KILL QUERY: the query stops at its next check with an error. */
  public void cancel() {
    cancelled.set(true);
  }

  public boolean isCancelled() {
    return cancelled.get();
  }

  /** Throws if the query was killed. */
  public void checkCancelled() {
    if (cancelled.get()) {
      throw new IllegalStateException("Query " + id + " was cancelled (KILL QUERY)");
    }
  }
}
