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
