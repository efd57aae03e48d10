package dev.travertine.mergetree;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.travertine.io.FileIO;
import dev.travertine.io.FileIOs;
import dev.travertine.io.local.LocalFileIO;
import dev.travertine.mergetree.log.MetadataLog;
import dev.travertine.mergetree.schema.Names;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.settings.Setting;
import dev.travertine.mergetree.settings.Settings;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A data directory: the catalog of tables and views ({@code catalog.json}, replaced atomically
 * on every DDL), one storage directory per table ({@code tables/<id>/}), and an exclusive lock
 * ({@code LOCK}) so that two processes never open it at once. Owns the background scheduler
 * (merges, timed buffer flushes) and the scan pool unless they were injected.
 */
public final class Database implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Database.class);
  private static final String CATALOG = "catalog.json";

  /** A persisted view: name, SQL text and the schema path it was defined in. */
  public record ViewDefinition(String name, String sql, List<String> schemaPath, List<String> columnNames) {
    @JsonCreator
    public ViewDefinition(@JsonProperty("name") String name, @JsonProperty("sql") String sql,
        @JsonProperty("schemaPath") List<String> schemaPath,
        @JsonProperty("columnNames") List<String> columnNames) {
      this.name = name;
      this.sql = sql;
      this.schemaPath = schemaPath == null ? List.of() : List.copyOf(schemaPath);
      this.columnNames = columnNames == null ? List.of() : List.copyOf(columnNames);
    }
  }

  /**
   * Catalog file content. {@code attachedFrom}: the storage location of a table another node
   * writes, attached read-only (ATTACH TABLE … FROM); absent for the tables this node writes.
   */
  record TableEntry(String id, TableDefinition definition, String attachedFrom) {
    @JsonCreator
    TableEntry(@JsonProperty("id") String id, @JsonProperty("definition") TableDefinition definition,
        @JsonProperty("attachedFrom") String attachedFrom) {
      this.id = id;
      this.definition = definition;
      this.attachedFrom = attachedFrom;
    }
  }

  record Catalog(List<TableEntry> tables, List<ViewDefinition> views) {
    @JsonCreator
    Catalog(@JsonProperty("tables") List<TableEntry> tables, @JsonProperty("views") List<ViewDefinition> views) {
      this.tables = tables == null ? List.of() : tables;
      this.views = views == null ? List.of() : views;
    }
  }

  private final Path dir;
  private final LocalFileIO root;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final EngineContext ctx;
  private final boolean ownsExecutors;
  /** Takes the {@code system.metric_log} samples (engine-owned executors only), or null. */
  private volatile ScheduledExecutorService sampler;
  private final Map<String, String> storage;
  /** {@code storage.fsync}: whether local writes are forced to disk before they count. */
  private final boolean fsync;
  private final Map<String, MergeTreeTable> tables = new ConcurrentHashMap<>();
  /** Locations of attached read-only tables, by table id. */
  private final Map<String, String> attached = new ConcurrentHashMap<>();
  /**
   * Attached tables whose storage could not be read when the database opened (the writer's node
   * or share unreachable): kept in the catalog, not queryable until the next open; DROP forgets them.
   */
  private final Map<String, TableEntry> unavailable = new ConcurrentHashMap<>();
  private final dev.travertine.mergetree.query.QueryRegistry queries;
  private final Map<String, ViewDefinition> views = new ConcurrentHashMap<>();
  private final Object ddlLock = new Object();
  private final java.util.concurrent.atomic.AtomicLong catalogVersion = new java.util.concurrent.atomic.AtomicLong();
  private volatile boolean closed;

  private Database(Path dir, EngineContext ctx, boolean ownsExecutors, Map<String, String> storage)
      throws IOException {
    this.storage = Map.copyOf(storage);
    this.fsync = fsync(storage);
    // The decoded-column cache: the context's own, unless the properties size one for this database.
    EngineContext withCache = storage.containsKey(dev.travertine.mergetree.scan.DecodedColumnCache.SIZE_KEY)
        ? ctx.withColumnCache(new dev.travertine.mergetree.scan.DecodedColumnCache(
            dev.travertine.mergetree.scan.DecodedColumnCache.size(storage), ctx.events()))
        : ctx;
    if (storage.containsKey("storage.cache_max_bytes") || storage.containsKey("storage.cache_path")) {
      String path = storage.getOrDefault("storage.cache_path", "");
      dev.travertine.io.read.SegmentCache.configure(
          Long.parseLong(storage.getOrDefault("storage.cache_max_bytes", String.valueOf(512L << 20))),
          path.isEmpty() ? null : Path.of(path),
          Long.parseLong(storage.getOrDefault("storage.cache_disk_max_bytes", String.valueOf(10L << 30))));
    }
    this.dir = dir.toAbsolutePath().normalize();
    Files.createDirectories(this.dir);
    this.root = new LocalFileIO(this.dir, fsync);
    this.lockChannel = FileChannel.open(this.dir.resolve("LOCK"), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE);
    FileLock l;
    try {
      l = lockChannel.tryLock();
    } catch (OverlappingFileLockException e) {
      l = null;
    }
    if (l == null) {
      lockChannel.close();
      throw new IOException("Cannot open data directory " + this.dir
          + ": it is in use by another process (lock file " + this.dir.resolve("LOCK") + ")");
    }
    this.lock = l;
    this.ctx = withCache;
    this.ownsExecutors = ownsExecutors;
    this.queries = new dev.travertine.mergetree.query.QueryRegistry(ctx.clock());
    queries.limitConcurrency(storage);
  }

  /**
   * The {@code storage.fsync} property (default true). With false, nothing local is forced to
   * disk: parts, metadata logs, the catalog and the WAL reach the disk when the operating system
   * writes them, so a machine crash (not a process crash) can lose recent changes or leave them
   * torn. For scratch databases: test suites, the sqllogictest corpus.
   */
  public static boolean fsync(Map<String, String> storage) {
    return FSYNC.normalize(storage.getOrDefault(FSYNC.name(), FSYNC.defaultValue())).equals("1");
  }

  /** A database property, not a table or session setting: {@link Setting} only parses it. */
  private static final Setting FSYNC = Setting.bool("storage.fsync", true, Setting.Scope.TABLE,
      "Force local writes to disk before they count");

  /** Opens a data directory with the engine's own executors and the system clock; no mutations. */
  public static Database open(Path dir) throws IOException {
    return open(dir, dev.travertine.mergetree.mutation.MutationCompiler.NONE, Map.of());
  }

  /**
   * Opens a data directory with the engine's own executors, the system clock, a mutation compiler
   * and the storage properties ({@code s3.*}, {@code hadoop.*}, and {@code storage.default}: the
   * location of new tables without a {@code storage} setting).
   */
  public static Database open(Path dir, dev.travertine.mergetree.mutation.MutationCompiler compiler,
      Map<String, String> storage) throws IOException {
    AtomicInteger n = new AtomicInteger();
    ThreadFactory bg = r -> {
      Thread t = new Thread(r, "travertine-background-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
    ThreadFactory scan = r -> {
      Thread t = new Thread(r, "travertine-scan-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
    int bgThreads = Math.max(2, Runtime.getRuntime().availableProcessors() / 2);
    ScheduledExecutorService background = Executors.newScheduledThreadPool(bgThreads, bg);
    ExecutorService pool = Executors.newCachedThreadPool(scan);
    EngineContext ctx = new EngineContext(Clock.systemUTC(), background, pool, new EngineEvents(), true, compiler);
    try {
      Database db = open(dir, ctx, true, storage);
      background.scheduleWithFixedDelay(db::flushDueTables, 100, 100, TimeUnit.MILLISECONDS);
      // Its own thread: on the background pool, merges held both threads and seconds went unsampled.
      ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "travertine-metric-log");
        t.setDaemon(true);
        return t;
      });
      sampler.scheduleWithFixedDelay(db::sampleMetrics, 0, 1, TimeUnit.SECONDS); // no catch-up bursts after a pause
      db.sampler = sampler;
      return db;
    } catch (IOException | RuntimeException e) {
      background.shutdownNow();
      pool.shutdownNow();
      throw e;
    }
  }

  /** Opens a data directory with injected clock and executors (tests drive background work). */
  public static Database open(Path dir, EngineContext ctx) throws IOException {
    return open(dir, ctx, false, Map.of());
  }

  /** Opens a data directory with injected clock and executors and storage properties. */
  public static Database open(Path dir, EngineContext ctx, Map<String, String> storage) throws IOException {
    return open(dir, ctx, false, storage);
  }

  private static Database open(Path dir, EngineContext ctx, boolean owns, Map<String, String> storage)
      throws IOException {
    Database db = new Database(dir, ctx, owns, storage);
    try {
      db.clearScratch();
      db.load();
    } catch (IOException | RuntimeException e) {
      db.releaseLock();
      throw e;
    }
    return db;
  }

  private void load() throws IOException {
    if (!root.exists(CATALOG)) {
      return;
    }
    Catalog c;
    try {
      c = MetadataLog.JSON.readValue(root.readAll(CATALOG), Catalog.class);
    } catch (IOException e) {
      throw new IOException("Cannot open data directory " + dir + ": corrupt " + CATALOG + ": " + e.getMessage(), e);
    }
    List<String> ids = new ArrayList<>();
    for (TableEntry t : c.tables()) {
      if (t.attachedFrom() != null) {
        attached.put(t.id(), t.attachedFrom());
        try {
          tables.put(t.definition().name(), openTable(t.id(), t.definition()));
        } catch (IOException | RuntimeException e) {
          // A table another node writes must not keep this node from starting.
          LOG.warn("Table {} (attached from {}) cannot be read and stays unavailable until the next start"
              + " (DROP TABLE forgets it): {}", t.definition().name(), t.attachedFrom(), e.toString());
          attached.remove(t.id());
          unavailable.put(t.definition().name(), t);
        }
        ids.add(t.id());
        continue;
      }
      tables.put(t.definition().name(), openTable(t.id(), t.definition()));
      ids.add(t.id());
    }
    for (ViewDefinition v : c.views()) {
      views.put(v.name(), v);
    }
    // Directories of tables whose DROP was interrupted after the catalog changed.
    Path tdir = dir.resolve("tables");
    if (Files.isDirectory(tdir)) {
      try (var s = Files.list(tdir)) {
        for (Path p : s.toList()) {
          if (!ids.contains(p.getFileName().toString())) {
            LOG.info("Removing storage of dropped table {}", p.getFileName());
            deleteTree(p);
          }
        }
      }
    }
  }

  private static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (var s = Files.walk(p)) {
      for (Path x : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(x);
      }
    }
  }

  private MergeTreeTable openTable(String id, TableDefinition def) throws IOException {
    Path tableDir = dir.resolve("tables").resolve(id);
    String from = attached.get(id);
    if (from != null) {
      requireLocalDirectory(from); // opening a local location creates it: a gone share must stay gone
      return openAttached(id, def.name(), FileIOs.open(from, storage));
    }
    String location = def.tableSettings().get(Settings.STORAGE);
    FileIO io = location.isEmpty() ? new LocalFileIO(tableDir, fsync)
        : FileIOs.open(FileIOs.child(location, "tables/" + id), storage);
    MergeTreeTable t;
    try {
      t = MergeTreeTable.open(id, def, io, tableDir.resolve("wal"), ctx, fsync);
      t.publishDefinition();
    } catch (IOException | RuntimeException e) {
      io.close();
      throw e;
    }
    t.scheduleMerges();
    t.scheduleMutations();
    return t;
  }

  /** Changes with every DDL: cached plans made before a change are stale. */
  public long catalogVersion() {
    return catalogVersion.get();
  }

  private void saveCatalog() throws IOException {
    catalogVersion.incrementAndGet();
    List<TableEntry> ts = new ArrayList<>();
    tables.values().forEach(t -> ts.add(new TableEntry(t.id(), t.definition(), attached.get(t.id()))));
    ts.addAll(unavailable.values());
    ts.sort(java.util.Comparator.comparing(e -> e.definition().name()));
    List<ViewDefinition> vs = new ArrayList<>(views.values());
    vs.sort(java.util.Comparator.comparing(ViewDefinition::name));
    root.writeAtomic(CATALOG, MetadataLog.JSON.writerWithDefaultPrettyPrinter()
        .writeValueAsBytes(new Catalog(ts, vs)));
  }

  /** The storage properties the database was opened with (s3.*, hadoop.*, storage.*). */
  public Map<String, String> storageProperties() {
    return storage;
  }

  /**
   * The property that confines file() and INTO OUTFILE to a directory (ClickHouse's
   * {@code user_files_path}). A server always sets it (default {@code <data>/user_files}); an
   * embedded database without it reads and writes any path the process may (as DuckDB), relative
   * paths still under {@code <data>/user_files}.
   */
  public static final String USER_FILES_PATH = "user_files_path";

  /** Where relative file() and INTO OUTFILE paths are, and (when {@link #userFilesConfined}) the only place. */
  public Path userFiles() {
    String p = storage.getOrDefault(USER_FILES_PATH, "");
    return (p.isBlank() ? dir.resolve("user_files") : Path.of(p)).toAbsolutePath().normalize();
  }

  /** Whether file() and INTO OUTFILE are confined to {@link #userFiles}. */
  public boolean userFilesConfined() {
    return !storage.getOrDefault(USER_FILES_PATH, "").isBlank();
  }

  public Path directory() {
    return dir;
  }

  /**
   * The directory for scratch files (spilled joins, spooled uploads): {@code tmp/} of the data
   * directory, created when needed and emptied when the database opens (what a crashed process left).
   */
  public Path scratchDirectory() throws IOException {
    return java.nio.file.Files.createDirectories(dir.resolve("tmp"));
  }

  /** Deletes the files a previous process left in {@code tmp/} (this one holds the directory's lock). */
  private void clearScratch() throws IOException {
    Path tmp = dir.resolve("tmp");
    if (!java.nio.file.Files.isDirectory(tmp)) {
      return;
    }
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(tmp)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (java.nio.file.Files.isRegularFile(f)) {
          java.nio.file.Files.deleteIfExists(f);
        }
      }
    }
  }

  public EngineContext context() {
    return ctx;
  }

  /** Running and finished statements (system.processes, system.query_log). */
  public dev.travertine.mergetree.query.QueryRegistry queries() {
    return queries;
  }

  private final dev.travertine.mergetree.query.MetricLog metricLog = new dev.travertine.mergetree.query.MetricLog(3600);

  /** {@code system.metric_log}: a sample a second for the last hour (taken when the database runs its own background work). */
  public dev.travertine.mergetree.query.MetricLog metricLog() {
    return metricLog;
  }

  /** The counters of {@code system.events}: the engine's, and {@code Query} (statements finished). */
  public Map<String, Long> eventCounts() {
    Map<String, Long> out = new java.util.TreeMap<>();
    EngineEvents.NAMES.forEach(n -> out.put(n, 0L)); // every counter, also one nothing has counted yet
    out.putAll(events().snapshot());
    out.put("Query", queries.finishedCount());
    return out;
  }

  /** The gauges of {@code system.metrics}, now: name → value (descriptions in {@link #METRIC_DESCRIPTIONS}). */
  public Map<String, Long> currentMetrics() {
    long parts = 0;
    long buffered = 0;
    long merges = 0;
    for (MergeTreeTable t : tables()) {
      parts += t.activeParts().size();
      buffered += t.bufferedRows();
      merges += t.runningMerges().size();
    }
    Runtime rt = Runtime.getRuntime();
    Map<String, Long> out = new java.util.LinkedHashMap<>();
    out.put("Query", (long) queries.running().size());
    out.put("Merge", merges);
    out.put("PartsActive", parts);
    out.put("BufferedRows", buffered);
    out.put("Tables", (long) tables().size());
    out.put("MemoryHeapUsed", rt.totalMemory() - rt.freeMemory());
    var cache = ctx.columnCache();
    out.put("UncompressedCacheBytes", cache == null ? 0L : cache.bytes());
    out.put("UncompressedCacheCells", cache == null ? 0L : cache.entries());
    return out;
  }

  /** What each gauge of {@link #currentMetrics} is. */
  public static final Map<String, String> METRIC_DESCRIPTIONS = Map.of(
      "Query", "Queries running now",
      "Merge", "Merges running now",
      "PartsActive", "Active parts of all tables",
      "BufferedRows", "Rows in insert buffers (in the WAL, not yet in parts)",
      "Tables", "Tables",
      "MemoryHeapUsed", "Bytes of the JVM heap in use (queries, caches and garbage not yet collected)",
      "UncompressedCacheBytes", "Bytes the decoded-column cache holds (use_uncompressed_cache)",
      "UncompressedCacheCells", "Entries of the decoded-column cache (one column of one part stripe each)");

  /** Takes one {@code system.metric_log} sample (every second, on the background executor). */
  public void sampleMetrics() {
    if (closed) {
      return;
    }
    try {
      metricLog.add(new dev.travertine.mergetree.query.MetricLog.Sample(ctx.clock().millis(), eventCounts(),
          currentMetrics()));
    } catch (RuntimeException e) {
      LOG.debug("metric_log sample failed: {}", e.toString());
    }
  }

  public EngineEvents events() {
    return ctx.events();
  }

  // ---------------------------------------------------------------- tables

  /** A table by name (exact, else case-insensitive), or null. */
  public MergeTreeTable table(String name) {
    String key = keyOf(tables, name);
    return key == null ? null : tables.get(key);
  }

  /** The key of {@code map} that names {@code name} (exact, else case-insensitive), or null. */
  private static String keyOf(Map<String, ?> map, String name) {
    if (map.containsKey(name)) {
      return name;
    }
    List<String> names = new ArrayList<>(map.keySet());
    int i = Names.find(names, s -> s, name);
    return i < 0 ? null : names.get(i);
  }

  public List<MergeTreeTable> tables() {
    List<MergeTreeTable> out = new ArrayList<>(tables.values());
    out.sort(java.util.Comparator.comparing(t -> t.definition().name()));
    return out;
  }

  /**
   * Creates a table. Returns false (and changes nothing) if the name is taken and
   * {@code ifNotExists}; throws if it is taken otherwise.
   */
  public boolean createTable(TableDefinition def, boolean ifNotExists) throws IOException {
    synchronized (ddlLock) {
      ensureOpen();
      if (table(def.name()) != null || view(def.name()) != null || unavailableName(def.name()) != null) {
        if (ifNotExists) {
          return false;
        }
        throw new IllegalArgumentException("Table " + def.name() + " already exists");
      }
      String id = UUID.randomUUID().toString();
      String dflt = storage.getOrDefault("storage.default", "");
      if (!dflt.isEmpty() && !def.settings().containsKey(Settings.STORAGE.name())) {
        // Recorded in the table: later opens do not depend on the server's default.
        Map<String, String> s = new java.util.LinkedHashMap<>(def.settings());
        s.put(Settings.STORAGE.name(), dflt);
        def = new TableDefinition(def.name(), def.schema(), def.orderBy(), def.partitionBy(), def.primaryKey(), s,
            def.indexes());
      }
      MergeTreeTable t = openTable(id, def);
      tables.put(def.name(), t);
      try {
        saveCatalog();
      } catch (IOException | RuntimeException e) {
        tables.remove(def.name());
        t.drop();
        throw e;
      }
      return true;
    }
  }

  /**
   * ATTACH TABLE name FROM 'location': a table another node writes, read from its storage
   * (a shared directory, S3, HDFS) with the definition its writer published there; read-only
   * here, and every query sees what the writer has committed. Returns false (and changes
   * nothing) if the name is taken and {@code ifNotExists}.
   */
  public boolean attachTable(String name, String location, boolean ifNotExists) throws IOException {
    synchronized (ddlLock) {
      ensureOpen();
      if (table(name) != null || view(name) != null || unavailableName(name) != null) {
        if (ifNotExists) {
          return false;
        }
        throw new IllegalArgumentException("Table " + name + " already exists");
      }
      String from = location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
      Path local = requireLocalDirectory(from);
      if (local != null && local.toRealPath().startsWith(dir.toRealPath())) {
        throw new IllegalArgumentException("Cannot attach " + from + ": it is inside this node's data directory");
      }
      FileIO io = FileIOs.open(from, storage);
      for (MergeTreeTable t : tables.values()) {
        if (t.storageLocation().equals(io.location())) {
          io.close();
          throw new IllegalArgumentException("Cannot attach " + from + " as " + name + ": " + (t.readOnly()
              ? "it is attached already, as table " : "it is this node's own table ") + t.definition().name());
        }
      }
      String id = UUID.randomUUID().toString();
      attached.put(id, io.location());
      MergeTreeTable t;
      try {
        t = openAttached(id, name, io);
      } catch (IOException | RuntimeException e) {
        attached.remove(id);
        throw e;
      }
      tables.put(name, t);
      try {
        saveCatalog();
      } catch (IOException | RuntimeException e) {
        tables.remove(name);
        attached.remove(id);
        t.close();
        throw e;
      }
      return true;
    }
  }

  /**
   * Tables attached read-only that a statement's text names catch up with their writers before
   * it is planned: a definition the writer changed makes plans made before stale (the catalog
   * version moves). A table whose storage fails here fails the statements that read it, not this
   * call, and is not asked again for a while (TableFollower).
   */
  public void refreshAttached(String sql) {
    if (attached.isEmpty()) {
      return;
    }
    String text = sql == null ? null : sql.toLowerCase(java.util.Locale.ROOT); // null: a statement without text
    for (MergeTreeTable t : tables.values()) {
      // Only the tables a statement may name: the others' storage neither costs it a request nor holds it up.
      if (!t.readOnly() || text != null && !text.contains(t.definition().name().toLowerCase(java.util.Locale.ROOT))) {
        continue;
      }
      try {
        if (t.refreshFromWriter()) {
          catalogVersion.incrementAndGet();
        }
      } catch (RuntimeException e) {
        LOG.debug("Table {} cannot catch up with its writer now: {}", t.definition().name(), e.toString());
      }
    }
  }

  /** The key of an unavailable attached table by name (exact, else case-insensitive), or null. */
  private String unavailableName(String name) {
    return keyOf(unavailable, name);
  }

  /** Drops a table and deletes its storage (an attached read-only table: only forgets it). */
  public boolean dropTable(String name, boolean ifExists) throws IOException {
    synchronized (ddlLock) {
      ensureOpen();
      MergeTreeTable t = table(name); // never beside an unavailable table of the same name (createTable)
      String unavailableKey = t == null ? unavailableName(name) : null;
      if (unavailableKey != null) {
        TableEntry gone = unavailable.remove(unavailableKey);
        try {
          saveCatalog();
        } catch (IOException | RuntimeException e) {
          unavailable.put(unavailableKey, gone);
          throw e;
        }
        deleteTree(dir.resolve("tables").resolve(gone.id()));
        return true;
      }
      if (t == null) {
        if (ifExists) {
          return false;
        }
        throw new IllegalArgumentException("Table " + name + " does not exist");
      }
      tables.remove(t.definition().name());
      String from = attached.remove(t.id());
      try {
        saveCatalog();
      } catch (IOException | RuntimeException e) {
        tables.put(t.definition().name(), t);
        if (from != null) {
          attached.put(t.id(), from);
        }
        throw e;
      }
      t.drop();
      deleteTree(dir.resolve("tables").resolve(t.id()));
      return true;
    }
  }

  /** ALTER TABLE … column changes: a new schema for a table, saved in the catalog. */
  public void alterTable(MergeTreeTable t, TableDefinition def) throws IOException {
    synchronized (ddlLock) {
      t.alterSchema(def, () -> {
        saveCatalog();
        publishQuietly(t);
      });
    }
  }

  /** Replaces a table's definition in the catalog (index DDL). */
  public void updateDefinition(MergeTreeTable t, TableDefinition def) throws IOException {
    synchronized (ddlLock) {
      t.ensureWritable();
      TableDefinition old = t.definition();
      t.setDefinition(def);
      try {
        saveCatalog();
        publishQuietly(t);
      } catch (IOException | RuntimeException e) {
        t.setDefinition(old);
        throw e;
      }
    }
  }

  /**
   * A table another node writes, opened read-only on {@code io} (closed if it fails) with the
   * definition its writer publishes now (it may have changed since this node last read it).
   */
  private MergeTreeTable openAttached(String id, String name, FileIO io) throws IOException {
    try {
      TableDefinition def = MergeTreeTable.readPublishedDefinition(io).withName(name);
      return MergeTreeTable.openReadOnly(id, def, io, dir.resolve("tables").resolve(id).resolve("wal"), ctx);
    } catch (IOException | RuntimeException e) {
      io.close();
      throw e;
    }
  }

  /**
   * For a location on local disk (a path or a {@code file:} URI): its directory, which must
   * exist; null for other storage.
   */
  private static Path requireLocalDirectory(String location) throws java.io.FileNotFoundException {
    Path local = FileIOs.localPath(location);
    if (local == null) {
      return null;
    }
    local = local.toAbsolutePath().normalize();
    if (!Files.isDirectory(local)) {
      throw new java.io.FileNotFoundException("No Travertine table at " + location + " (no such directory)");
    }
    return local;
  }

  /** After a DDL the catalog holds: the copy in the table's storage follows, or a warning says it did not. */
  private static void publishQuietly(MergeTreeTable t) {
    try {
      t.publishDefinition();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot publish the new definition of table {} in its storage (nodes that attach it keep the"
          + " old one until it is published, at the table's next open or DDL): {}", t.definition().name(), e.toString());
    }
  }

  // ---------------------------------------------------------------- views

  public ViewDefinition view(String name) {
    String key = keyOf(views, name);
    return key == null ? null : views.get(key);
  }

  public List<ViewDefinition> views() {
    return List.copyOf(views.values());
  }

  public void createView(ViewDefinition v, boolean replace) throws IOException {
    synchronized (ddlLock) {
      ensureOpen();
      if (table(v.name()) != null || unavailableName(v.name()) != null) {
        throw new IllegalArgumentException("Cannot create view " + v.name() + ": a table of that name exists");
      }
      ViewDefinition old = view(v.name());
      if (old != null && !replace) {
        throw new IllegalArgumentException("View " + v.name() + " already exists");
      }
      if (old != null) {
        views.remove(old.name());
      }
      views.put(v.name(), v);
      try {
        saveCatalog();
      } catch (IOException | RuntimeException e) {
        views.remove(v.name());
        if (old != null) {
          views.put(old.name(), old);
        }
        throw e;
      }
    }
  }

  public boolean dropView(String name, boolean ifExists) throws IOException {
    synchronized (ddlLock) {
      ensureOpen();
      ViewDefinition v = view(name);
      if (v == null) {
        if (ifExists) {
          return false;
        }
        throw new IllegalArgumentException("View " + name + " does not exist");
      }
      views.remove(v.name());
      saveCatalog();
      return true;
    }
  }

  // ---------------------------------------------------------------- background

  private void flushDueTables() {
    for (MergeTreeTable t : tables.values()) {
      // Nothing may escape: a scheduled task that throws is never run again.
      try {
        t.removeOldParts();
        if (t.flushDue()) {
          t.flush();
        }
      } catch (Exception e) {
        LOG.warn("Timed flush of table {} failed: {}", t.definition().name(), e.toString());
      }
    }
  }

  /** SYSTEM FLUSH: writes every table's buffer into parts. */
  public void flushAll() throws IOException {
    for (MergeTreeTable t : tables.values()) {
      t.flush();
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("Cannot use data directory " + dir + ": it is closed");
    }
  }

  public boolean isClosed() {
    return closed;
  }

  /** Flushes buffers, stops background work and releases the directory lock. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (sampler != null) {
      sampler.shutdownNow();
    }
    if (ownsExecutors) {
      ctx.background().shutdown();
    }
    for (MergeTreeTable t : tables.values()) {
      t.cancelBackgroundWork(); // running merges and mutations stop at their next block
    }
    for (MergeTreeTable t : tables.values()) {
      t.flushQuietly();
    }
    if (ownsExecutors) {
      try {
        ctx.background().awaitTermination(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      ctx.scanPool().shutdownNow();
    }
    for (MergeTreeTable t : tables.values()) {
      t.close();
    }
    releaseLock();
  }

  private void releaseLock() throws IOException {
    try {
      lock.release();
    } finally {
      lockChannel.close();
    }
  }
}
