package dev.travertine.calcite.schema;

import dev.travertine.mergetree.Database;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.settings.SessionSettings;
import java.util.LinkedHashMap;
import java.util.Map;

/** One connection's view of the engine: the shared database and its own session settings. */
public final class TravertineSession {
  private final Database database;
  private final SessionSettings settings;
  private final String user;
  private volatile dev.travertine.mergetree.query.QueryContext current;
  private volatile boolean gone;

  public TravertineSession(Database database, SessionSettings settings, String user) {
    this.database = database;
    this.settings = settings;
    this.user = user;
  }

  public String user() {
    return user;
  }

  /** A prepared statement plan and the catalog version it was planned against. */
  record CachedPlan(long catalogVersion, Object signature) {}

  /** This connection's plans by SQL text (LRU); plans hold the connection's schema, so they are not shared. */
  private final Map<String, CachedPlan> plans = new LinkedHashMap<>(64, 0.75f, true) {
    @Override protected boolean removeEldestEntry(Map.Entry<String, CachedPlan> e) {
      return size() > 256;
    }
  };

  public synchronized Object cachedPlan(String key) {
    CachedPlan p = plans.get(key);
    if (p == null) {
      return null;
    }
    if (p.catalogVersion() != database.catalogVersion()) {
      plans.remove(key);
      return null;
    }
    return p.signature();
  }

  public synchronized void cachePlan(String key, long version, Object signature) {
    plans.put(key, new CachedPlan(version, signature));
  }

  private volatile String clientConnectionId;

  /**
   * The id of the client connection this session serves (a server's Avatica connection id): its
   * statements show it in system.processes, and the remote driver's Statement.cancel() kills by it.
   */
  public void setClientConnectionId(String id) {
    clientConnectionId = id;
  }

  public String clientConnectionId() {
    return clientConnectionId;
  }

  private volatile String queryId;

  /**
   * The id the session's statements run under until cleared (null: a new one each), as
   * ClickHouse's HTTP {@code query_id} parameter gives it.
   */
  public void useQueryId(String id) {
    queryId = id;
    namedQuery = null;
  }

  private volatile dev.travertine.mergetree.query.QueryContext namedQuery;

  /** The running statement that took the {@link #queryId} (statements it runs inside get their own ids). */
  public dev.travertine.mergetree.query.QueryContext namedQuery() {
    return namedQuery;
  }

  public void setNamedQuery(dev.travertine.mergetree.query.QueryContext q) {
    namedQuery = q;
  }

  public String queryId() {
    return queryId;
  }

  private volatile boolean readOnly;

  /** Whether this session may only read (a server's read-only users). */
  public boolean readOnly() {
    return readOnly;
  }

  public void setReadOnly(boolean r) {
    readOnly = r;
  }

  /** Throws unless the session may change data or schema. */
  public void checkWritable(String what) {
    if (readOnly) {
      throw new SecurityException("User " + user + " is read-only: cannot run " + what);
    }
    long ro = settings.getLong(dev.travertine.mergetree.settings.Settings.READONLY);
    if (ro > 0) {
      throw new SecurityException("Cannot run " + what + " in readonly mode (readonly = " + ro + ")");
    }
  }

  /** What Calcite's operators of the running statement hold (null between statements). */
  private volatile dev.travertine.exec.op.MemoryTracker currentMemory;

  /** The statement this connection is running (null between statements). */
  public dev.travertine.mergetree.query.QueryContext currentQuery() {
    return current;
  }

  /**
   * The client went away (its connection closed): the running query stops at its next check, and
   * a query that was still being prepared stops as it begins.
   */
  public void clientGone() {
    gone = true;
    dev.travertine.mergetree.query.QueryContext q = current;
    if (q != null) {
      q.cancel("connection closed");
    }
  }

  /** What Calcite's operators of the current query hold (null when no query runs). */
  public dev.travertine.exec.op.MemoryTracker queryMemory() {
    return currentMemory;
  }

  public void setCurrentQuery(dev.travertine.mergetree.query.QueryContext q) {
    currentMemory = q == null ? null
        : new dev.travertine.exec.op.MemoryTracker(settings.getLong(dev.travertine.mergetree.settings.Settings.MAX_MEMORY_USAGE));
    current = q;
    if (gone && q != null) { // set, then look: clientGone looks the other way round, so one of us sees
      q.cancel("connection closed");
    }
  }

  public Database database() {
    return database;
  }

  public SessionSettings settings() {
    return settings;
  }

  /** A table by name, or a clear error. */
  public MergeTreeTable requireTable(String name) {
    MergeTreeTable t = database.table(name);
    if (t == null) {
      throw new IllegalArgumentException("Table " + name + " does not exist");
    }
    return t;
  }
}
