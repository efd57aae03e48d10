package dev.travertine.mergetree.query;

import dev.travertine.mergetree.settings.Setting;
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

  /**
   * Database properties (server keys, or properties of the first embedded connection): statements
   * running at once, in all and per user; 0 = no limit. (This class logs nothing, so the server's
   * configuration can check them before logging is set up.)
   */
  public static final Setting MAX_CONCURRENT_QUERIES = Setting.uint("max_concurrent_queries", 0, 0, 1_000_000,
      Setting.Scope.TABLE, "Most statements running at once (0 = no limit)");
  public static final Setting MAX_CONCURRENT_QUERIES_FOR_USER = Setting.uint("max_concurrent_queries_for_user", 0,
      0, 1_000_000, Setting.Scope.TABLE, "Most statements one user runs at once (0 = no limit)");

  /** Whether {@code key} is one of the concurrency properties. */
  public static boolean isConcurrencyKey(String key) {
    return key.equals(MAX_CONCURRENT_QUERIES.name()) || key.equals(MAX_CONCURRENT_QUERIES_FOR_USER.name());
  }

  /** The checked value of a concurrency property (a bad value is an error that names it). */
  public static long concurrency(Map<String, String> properties, String key) {
    Setting s = key.equals(MAX_CONCURRENT_QUERIES.name()) ? MAX_CONCURRENT_QUERIES : MAX_CONCURRENT_QUERIES_FOR_USER;
    return Long.parseLong(s.normalize(properties.getOrDefault(s.name(), s.defaultValue())));
  }

  private volatile int maxConcurrent;
  private volatile int maxConcurrentForUser;

  /**
   * Applies {@code max_concurrent_queries} and {@code max_concurrent_queries_for_user} from the
   * database properties: a statement that would run beyond them is refused when it begins.
   */
  public void limitConcurrency(Map<String, String> properties) {
    this.maxConcurrent = (int) concurrency(properties, MAX_CONCURRENT_QUERIES.name());
    this.maxConcurrentForUser = (int) concurrency(properties, MAX_CONCURRENT_QUERIES_FOR_USER.name());
  }

  /**
   * Registers a statement.
   *
   * @throws QueryContext.QueryLimitException when it would pass a concurrency limit
   */
  public QueryContext begin(String user, String query) {
    return begin(user, query, null);
  }

  /**
   * Registers a statement under the id its client chose (null: a new UUID), as ClickHouse's
   * {@code query_id}: {@code KILL QUERY WHERE query_id = …} then finds it.
   *
   * @throws IllegalStateException when a running query has that id
   */
  public synchronized QueryContext begin(String user, String query, String queryId) {
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
    String id = queryId == null || queryId.isEmpty() ? UUID.randomUUID().toString() : queryId;
    QueryContext c = new QueryContext(id, user, query, clock.millis(), System.nanoTime());
    if (running.putIfAbsent(id, c) != null) {
      throw new IllegalStateException("Query with id = " + id + " is already running");
    }
    return c;
  }

  /** Whether a query with this id is running. */
  public boolean isRunning(String queryId) {
    return queryId != null && running.containsKey(queryId);
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
