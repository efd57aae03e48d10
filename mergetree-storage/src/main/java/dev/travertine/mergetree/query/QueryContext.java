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
  private volatile String cancelReason = "KILL QUERY";
  /** max_execution_time (nanoseconds), max_rows_to_read and max_bytes_to_read; 0 = none. */
  private volatile long maxNanos;
  private volatile long maxRowsToRead;
  private volatile long maxBytesToRead;
  /** The client's own stop: its statement's cancel flag (Statement.cancel) and query timeout. */
  private volatile AtomicBoolean clientCancel;
  private volatile long clientTimeoutNanos;
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

  private volatile String connectionId;

  /** The client connection that runs the statement (a server's Avatica connection id), or null. */
  public String connectionId() {
    return connectionId;
  }

  public void setConnectionId(String id) {
    connectionId = id;
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

  public void addReadBytes(long n) {
    readBytes.addAndGet(n);
  }

  public void addResultRows(long n) {
    resultRows.addAndGet(n);
  }

  public long readRows() {
    return readRows.get();
  }

  public long readBytes() {
    return readBytes.get();
  }

  public long resultRows() {
    return resultRows.get();
  }

  /** KILL QUERY: the query stops at its next check with an error. */
  public void cancel() {
    cancel("KILL QUERY");
  }

  /** Stops the query at its next check with an error that gives {@code why} (e.g. "connection closed"). */
  public void cancel(String why) {
    cancelReason = why;
    cancelled.set(true);
  }

  public boolean isCancelled() {
    return cancelled.get();
  }

  /**
   * The query's limits: {@code max_execution_time} in seconds, {@code max_rows_to_read} and
   * {@code max_bytes_to_read} (0 = none), enforced by {@link #checkCancelled}.
   */
  public void limit(long maxExecutionSeconds, long maxRowsToRead, long maxBytesToRead) {
    this.maxNanos = maxExecutionSeconds <= 0 ? 0 : java.util.concurrent.TimeUnit.SECONDS.toNanos(maxExecutionSeconds);
    this.maxRowsToRead = Math.max(0, maxRowsToRead);
    this.maxBytesToRead = Math.max(0, maxBytesToRead);
  }

  /**
   * Ties the query to its JDBC statement: {@code cancelFlag} set by {@code Statement.cancel()}
   * (null: none) and {@code setQueryTimeout} in milliseconds (0 = none), both enforced by
   * {@link #checkCancelled} like KILL QUERY and max_execution_time.
   */
  public void watchClient(AtomicBoolean cancelFlag, long timeoutMillis) {
    this.clientCancel = cancelFlag;
    this.clientTimeoutNanos = Math.max(0, java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
  }

  /** Throws if the query was killed or passed one of its limits (ClickHouse's wording). */
  public void checkCancelled() {
    if (cancelled.get()) {
      throw new IllegalStateException("Query " + id + " was cancelled (" + cancelReason + ")");
    }
    AtomicBoolean client = clientCancel;
    if (client != null && client.get()) {
      throw new IllegalStateException("Query " + id + " was cancelled (Statement.cancel)");
    }
    long clientMax = clientTimeoutNanos;
    if (clientMax > 0 && System.nanoTime() - startNanos > clientMax) {
      throw new QueryLimitException(String.format(java.util.Locale.ROOT,
          "Timeout exceeded: elapsed %.1f seconds, maximum: %.1f (Statement.setQueryTimeout)",
          (System.nanoTime() - startNanos) / 1e9, clientMax / 1e9));
    }
    long maxRows = maxRowsToRead;
    if (maxRows > 0 && readRows.get() > maxRows) {
      throw new QueryLimitException(String.format(java.util.Locale.ROOT,
          "Limit for rows to read exceeded: %,d rows read, maximum: %,d (max_rows_to_read)", readRows.get(), maxRows));
    }
    long maxBytes = maxBytesToRead;
    if (maxBytes > 0 && readBytes.get() > maxBytes) {
      throw new QueryLimitException(String.format(java.util.Locale.ROOT,
          "Limit for (uncompressed) bytes to read exceeded: %,d bytes read, maximum: %,d (max_bytes_to_read)",
          readBytes.get(), maxBytes));
    }
    long max = maxNanos;
    if (max > 0) {
      long elapsed = System.nanoTime() - startNanos;
      if (elapsed > max) {
        throw new QueryLimitException(String.format(java.util.Locale.ROOT,
            "Timeout exceeded: elapsed %.1f seconds, maximum: %d (max_execution_time)", elapsed / 1e9,
            java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(max)));
      }
    }
  }

  /** A query passed one of its limits (max_execution_time, max_rows_to_read, max_result_rows). */
  public static final class QueryLimitException extends IllegalStateException {
    public QueryLimitException(String message) {
      super(message);
    }
  }
}
