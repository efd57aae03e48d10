package dev.travertine.mergetree.query;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The process list and the query log of one database: running statements (system.processes,
 * KILL QUERY) and the last {@link #LOG_SIZE} finished ones (system.query_log), kept in memory.
 */
public final class QueryRegistry {
  public static final int LOG_SIZE = 10_000;

  /** A finished statement. */
  public record Entry(String queryId, String user, String query, long startMillis, long durationMillis,
      long readRows, long readBytes, long resultRows, long memoryBytes, String exception) {}

  private final Clock clock;
  private final Map<String, QueryContext> running = new ConcurrentHashMap<>();
  private final Deque<Entry> log = new ArrayDeque<>();
  private long finished;

  public QueryRegistry(Clock clock) {
    this.clock = clock;
  }

  private volatile int maxConcurrent;
  private volatile int maxConcurrentForUser;

  /**
   * The server's {@code max_concurrent_queries} and {@code max_concurrent_queries_for_user}
   * (0 = no limit): a statement that would run beyond them is refused when it begins.
   */
  public void limitConcurrency(int maxQueries, int maxQueriesForUser) {
    this.maxConcurrent = Math.max(0, maxQueries);
    this.maxConcurrentForUser = Math.max(0, maxQueriesForUser);
  }

  /**
   * Registers a statement.
   *
   * @throws QueryContext.QueryLimitException when it would pass a concurrency limit
   */
  public synchronized QueryContext begin(String user, String query) {
    int max = maxConcurrent;
    if (max > 0 && running.size() >= max) {
      throw new QueryContext.QueryLimitException("Too many simultaneous queries. Maximum: " + max
          + " (max_concurrent_queries)");
    }
    int maxUser = maxConcurrentForUser;
    if (maxUser > 0) {
      long mine = running.values().stream().filter(q -> q.user().equals(user)).count();
      if (mine >= maxUser) {
        throw new QueryContext.QueryLimitException("Too many simultaneous queries for user " + user + ". Current: "
            + mine + ", maximum: " + maxUser + " (max_concurrent_queries_for_user)");
      }
    }
    QueryContext c = new QueryContext(UUID.randomUUID().toString(), user, query, clock.millis(), System.nanoTime());
    running.put(c.id(), c);
    return c;
  }

  /** Ends a query (idempotent); {@code error} is null on success. */
  public void finish(QueryContext c, Throwable error) {
    if (running.remove(c.id()) == null) {
      return;
    }
    long ms = (System.nanoTime() - c.startNanos()) / 1_000_000;
    String ex = error == null ? null : error.getClass().getSimpleName() + ": " + error.getMessage();
    Entry e = new Entry(c.id(), c.user(), c.query(), c.startMillis(), ms, c.readRows(), c.readBytes.get(),
        c.resultRows(), c.allocatedBytes(), ex);
    synchronized (log) {
      log.addLast(e);
      finished++;
      while (log.size() > LOG_SIZE) {
        log.removeFirst();
      }
    }
  }

  /** Forgets a query without logging it (its executions are logged separately). */
  public void abandon(QueryContext c) {
    running.remove(c.id());
  }

  public List<QueryContext> running() {
    return List.copyOf(running.values());
  }

  public List<Entry> log() {
    synchronized (log) {
      return new ArrayList<>(log);
    }
  }

  /** Cancels a running query; false if no such query runs. */
  public boolean kill(String queryId) {
    QueryContext c = running.get(queryId);
    if (c == null) {
      return false;
    }
    c.cancel();
    return true;
  }

  public long finishedCount() {
    synchronized (log) {
      return finished;
    }
  }
}
