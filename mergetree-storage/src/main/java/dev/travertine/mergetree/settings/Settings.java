package dev.travertine.mergetree.settings;

import static dev.travertine.mergetree.settings.Setting.Scope.SESSION;
import static dev.travertine.mergetree.settings.Setting.Scope.TABLE;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The registry of every setting the engine knows: one home, each key beside its default.
 * Names follow ClickHouse where the concept is the same.
 */
public final class Settings {
  private Settings() {}

  public static final int CORES = Runtime.getRuntime().availableProcessors();

  // MergeTree table settings (CREATE TABLE … SETTINGS k = v).
  public static final Setting INDEX_GRANULARITY = Setting.uint("index_granularity", 8192, 1000, 1 << 20, TABLE,
      "Rows per granule: the unit of the sparse index and of skipping (ORC row index stride)");
  public static final Setting MAX_PARTS_TO_MERGE_AT_ONCE = Setting.uint("max_parts_to_merge_at_once", 10, 2, 100,
      TABLE, "Most parts one background merge combines");
  public static final Setting MAX_BYTES_TO_MERGE_AT_MAX_SPACE = Setting.uint(
      "max_bytes_to_merge_at_max_space_in_pool", 150L << 30, 1, Long.MAX_VALUE, TABLE,
      "Largest total size of parts a background merge may produce");
  public static final Setting MERGE_SELECTOR_BASE = Setting.uint("merge_selector_base", 5, 2, 100, TABLE,
      "How unbalanced (largest part vs the rest) a merge may be; ClickHouse's SimpleMergeSelector base");
  public static final Setting INSERT_BUFFER_MAX_ROWS = Setting.uint("insert_buffer_max_rows", 1 << 20, 1,
      1L << 31, TABLE, "Buffered (WAL-backed) rows that trigger a flush into a part");
  public static final Setting INSERT_BUFFER_MAX_BYTES = Setting.uint("insert_buffer_max_bytes", 64L << 20, 1,
      1L << 40, TABLE, "Buffered bytes (estimated) that trigger a flush into a part");
  public static final Setting INSERT_BUFFER_FLUSH_MS = Setting.uint("insert_buffer_flush_interval_ms", 1000, 0,
      86_400_000, TABLE, "Age of the oldest buffered row that triggers a flush");
  public static final Setting MIN_ROWS_FOR_DIRECT_PART = Setting.uint("min_insert_rows_for_direct_part", 65536,
      0, 1L << 31, TABLE, "Inserts at least this large skip the buffer and write parts directly");
  public static final Setting FSYNC_AFTER_INSERT = Setting.bool("fsync_after_insert", true, TABLE,
      "Force the write-ahead log to disk before an INSERT returns");
  public static final Setting COMPRESSION = Setting.choice("compression", "lz4",
      List.of("none", "lz4", "zstd", "zlib", "snappy"), TABLE, "ORC compression codec of new parts");

  public static final Setting NUMBER_OF_MUTATIONS_TO_THROW = Setting.uint("number_of_mutations_to_throw", 1000, 0,
      1L << 31, TABLE, "A new mutation fails while this many are unfinished (0 = no limit)");
  public static final Setting FINISHED_MUTATIONS_TO_KEEP = Setting.uint("finished_mutations_to_keep", 100, 0,
      1L << 31, TABLE, "Finished mutations kept in the metadata log and system.mutations");

  public static final Setting OLD_PARTS_LIFETIME = Setting.uint("old_parts_lifetime", 480, 0, 1L << 31, TABLE,
      "Seconds the file of a part replaced by a merge or mutation stays on storage once this node no longer"
          + " reads it, for nodes that attached the table read-only and are still reading it (0: deleted at once)");

  public static final Setting STORAGE = Setting.location("storage", TABLE,
      "Where the table's parts and metadata log live: empty = the data directory, or s3://bucket/prefix,"
          + " hdfs://host:port/path (the write-ahead log stays local)");

  // Session settings (SET k = v).
  public static final Setting MAX_THREADS = Setting.uint("max_threads", CORES, 1, 1024, SESSION,
      "Threads one query's scan uses");
  public static final Setting MAX_BLOCK_SIZE = Setting.uint("max_block_size", 4096, 1, 1 << 20, SESSION,
      "Rows per batch a scan reads");
  public static final Setting MAX_INSERT_BLOCK_SIZE = Setting.uint("max_insert_block_size", 1 << 20, 1,
      1L << 31, SESSION, "Rows INSERT … SELECT gathers into one block before writing a part");
  public static final Setting INPUT_FORMAT_NULL_AS_DEFAULT = Setting.bool("input_format_null_as_default", true,
      SESSION, "Loading files: a NULL or empty field in a NOT NULL column takes the column's default (0: the row is bad)");
  public static final Setting INPUT_FORMAT_ALLOW_ERRORS_NUM = Setting.uint("input_format_allow_errors_num", 0, 0,
      1L << 62, SESSION, "Loading files: bad rows skipped before the load fails (0: the first one fails it, and"
          + " nothing is loaded)");
  public static final Setting OPTIMIZE_READ_IN_ORDER = Setting.bool("optimize_read_in_order", true, SESSION,
      "ORDER BY a prefix of the sorting key reads parts in order instead of sorting");
  public static final Setting ENABLE_JOIN_RUNTIME_FILTERS = Setting.bool("enable_join_runtime_filters", true,
      SESSION, "An INNER or SEMI join's built keys filter its probe side's scan: their range prunes granules, their"
          + " set (exact when small, else a Bloom filter) drops rows before the other columns are read");
  /**
   * Build sides past a quarter of the JVM's heap spill by default: a join that does not fit fails
   * nothing (TPC-H SF 10's Q18 builds 60 M rows when the planner takes the wrong side; with
   * bin/travertine's 4 GiB heap it ran out of memory).
   */
  public static final Setting MAX_BYTES_IN_JOIN = Setting.uint("max_bytes_in_join",
      Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 4), 0, 1L << 50, SESSION,
      "A join whose build side holds more bytes than this spills both sides to disk in partitions and joins them one"
          + " at a time (grace hash join); 0: never spills. Default: a quarter of the JVM's maximum heap");
  public static final Setting USE_PRIMARY_KEY = Setting.bool("use_index_for_pruning", true, SESSION,
      "Prune partitions and granules with min/max statistics");
  public static final Setting REMOTE_READ_PREFETCH = Setting.bool("remote_filesystem_read_prefetch", true, SESSION,
      "Scans of remote parts open (and read) the next part stripes while the current one is decoded");
  public static final Setting PREFETCHES_LIMIT = Setting.uint("filesystem_prefetches_limit", 200, 0, 1 << 20,
      SESSION, "Most part stripes a scan's prefetch window holds (it grows when the scan waits; 0: only memory)");
  public static final Setting REMOTE_READ_MIN_BYTES_FOR_SEEK = Setting.uint("remote_read_min_bytes_for_seek",
      1 << 20, 0, 1L << 30, SESSION, "Remote reads: byte ranges closer than this are fetched by one request");
  public static final Setting REMOTE_READ_MAX_COALESCED_BYTES = Setting.uint("remote_read_max_coalesced_bytes",
      8 << 20, 4096, 1L << 30, SESSION, "Remote reads: no request is larger (large reads go out in parallel)");
  public static final Setting MAX_READ_BUFFER_SIZE = Setting.uint("max_read_buffer_size", 8 << 20, 4096, 1L << 30,
      SESSION, "Remote reads: the largest single request (a larger read goes out as parallel requests)");
  public static final Setting PREFETCH_MAX_MEMORY = Setting.uint("filesystem_prefetch_max_memory_usage",
      1L << 30, 0, 1L << 40, SESSION, "Bytes one query may hold in prefetched stripes");
  public static final Setting ENABLE_FILESYSTEM_CACHE = Setting.bool("enable_filesystem_cache", false, SESSION,
      "Remote reads go through the in-memory segment cache (1 MiB segments, storage.cache_max_bytes per server)");
  public static final Setting USE_UNCOMPRESSED_CACHE = Setting.bool("use_uncompressed_cache", false, SESSION,
      "Scans keep the column vectors they decode in the engine's cache (uncompressed_cache_size bytes per server)"
          + " and take them from it when they read the same part stripes again");
  public static final Setting MUTATIONS_SYNC = Setting.uint("mutations_sync", 0, 0, 2, SESSION,
      "0: mutations return after recording (reads apply them at once); 1, 2: wait until parts are rewritten");

  public static final Setting VECTORIZED_EXECUTION = Setting.bool("vectorized_execution", true, SESSION,
      "Filters, expressions, GROUP BY and ORDER BY over Travertine tables run on column vectors"
          + " (0: in Calcite's row-at-a-time operators, for comparison)");

  public static final Setting MAX_MEMORY_USAGE = Setting.uint("max_memory_usage", 0, 0, Long.MAX_VALUE, SESSION,
      "Bytes one query's operator states (hash tables, aggregate states, sort buffers) may hold; 0 = no limit");

  public static final Setting OPTIMIZE_MOVE_TO_PREWHERE = Setting.bool("optimize_move_to_prewhere", true, SESSION,
      "A vectorized WHERE over some of the columns read is evaluated first, and the other columns are decoded"
          + " only for the rows that pass (PREWHERE)");

  // The exchange (docs/design/exchange.md).
  public static final Setting ENABLE_PARALLEL_REPLICAS = Setting.bool("enable_parallel_replicas", false, SESSION,
      "Scans of a Travertine table are spread over the nodes of cluster_for_parallel_replicas, which read its"
          + " parts from shared storage");
  public static final Setting MAX_PARALLEL_REPLICAS = Setting.uint("max_parallel_replicas", 1000, 1, 1000, SESSION,
      "Most nodes (this one included) one query with parallel replicas uses");
  public static final Setting CLUSTER_FOR_PARALLEL_REPLICAS = Setting.name("cluster_for_parallel_replicas", SESSION,
      "The cluster (of the server's config) whose nodes parallel replicas use");
  public static final Setting ENABLE_PARALLEL_BLOCKS_MARSHALLING = Setting.bool("enable_parallel_blocks_marshalling",
      true, SESSION, "Blocks sent between nodes are serialized and compressed in the worker threads that produce"
          + " them, and decoded in the receiver's worker threads (0: in the thread of the connection)");
  public static final Setting NETWORK_COMPRESSION_METHOD = Setting.choice("network_compression_method", "lz4",
      List.of("lz4", "zstd", "none"), SESSION, "How blocks sent between nodes are compressed");
  public static final Setting NETWORK_ZSTD_COMPRESSION_LEVEL = Setting.uint("network_zstd_compression_level", 1, 1,
      22, SESSION, "The zstd level of network_compression_method = 'zstd'");

  // Query limits (ClickHouse's names; 0 = none).
  public static final Setting MAX_EXECUTION_TIME = Setting.uint("max_execution_time", 0, 0, 1L << 31, SESSION,
      "Seconds a query may run; past them it fails (0 = no limit)");
  public static final Setting MAX_ROWS_TO_READ = Setting.uint("max_rows_to_read", 0, 0, Long.MAX_VALUE, SESSION,
      "Rows a query may read from tables; past them it fails (0 = no limit)");
  public static final Setting MAX_BYTES_TO_READ = Setting.uint("max_bytes_to_read", 0, 0, Long.MAX_VALUE, SESSION,
      "Uncompressed bytes a query may read from tables; past them it fails (0 = no limit)");
  public static final Setting MAX_RESULT_ROWS = Setting.uint("max_result_rows", 0, 0, Long.MAX_VALUE, SESSION,
      "Rows a query may return; past them it fails (0 = no limit)");

  public static final Setting READONLY = Setting.uint("readonly", 0, 0, 2, SESSION,
      "1: the session only reads and changes no setting; 2: it only reads, settings may change (ClickHouse's"
          + " readonly)");

  public static final Setting RECEIVE_TIMEOUT = Setting.uint("receive_timeout", 300, 1, 86_400, SESSION,
      "Seconds a replica may send nothing (no block, no request for tasks) before the initiator gives up on it:"
          + " its tasks go to the others, or the query fails if it had sent part of its result");

  private static final Map<String, Setting> ALL = new LinkedHashMap<>();

  static {
    for (Setting s : List.of(INDEX_GRANULARITY, MAX_PARTS_TO_MERGE_AT_ONCE, MAX_BYTES_TO_MERGE_AT_MAX_SPACE,
        MERGE_SELECTOR_BASE, INSERT_BUFFER_MAX_ROWS, INSERT_BUFFER_MAX_BYTES, INSERT_BUFFER_FLUSH_MS,
        MIN_ROWS_FOR_DIRECT_PART, FSYNC_AFTER_INSERT, COMPRESSION, NUMBER_OF_MUTATIONS_TO_THROW,
        FINISHED_MUTATIONS_TO_KEEP, OLD_PARTS_LIFETIME, STORAGE, MAX_THREADS, MAX_BLOCK_SIZE,
        MAX_INSERT_BLOCK_SIZE, INPUT_FORMAT_NULL_AS_DEFAULT, INPUT_FORMAT_ALLOW_ERRORS_NUM, OPTIMIZE_READ_IN_ORDER, USE_PRIMARY_KEY, ENABLE_JOIN_RUNTIME_FILTERS, MAX_BYTES_IN_JOIN, REMOTE_READ_PREFETCH,
        REMOTE_READ_MIN_BYTES_FOR_SEEK, REMOTE_READ_MAX_COALESCED_BYTES, MAX_READ_BUFFER_SIZE, PREFETCH_MAX_MEMORY,
        PREFETCHES_LIMIT, ENABLE_FILESYSTEM_CACHE, USE_UNCOMPRESSED_CACHE,
        MUTATIONS_SYNC, VECTORIZED_EXECUTION, MAX_MEMORY_USAGE,
        OPTIMIZE_MOVE_TO_PREWHERE, ENABLE_PARALLEL_REPLICAS, MAX_PARALLEL_REPLICAS, CLUSTER_FOR_PARALLEL_REPLICAS,
        ENABLE_PARALLEL_BLOCKS_MARSHALLING, NETWORK_COMPRESSION_METHOD, NETWORK_ZSTD_COMPRESSION_LEVEL,
        RECEIVE_TIMEOUT, MAX_EXECUTION_TIME, MAX_ROWS_TO_READ, MAX_BYTES_TO_READ, MAX_RESULT_ROWS,
        READONLY)) {
      ALL.put(s.name(), s);
    }
  }

  /** Every setting, in declaration order. */
  public static List<Setting> all() {
    return List.copyOf(ALL.values());
  }

  /** A setting by name (case-insensitive), or a clear error. */
  public static Setting require(String name) {
    Setting s = ALL.get(name.toLowerCase(Locale.ROOT));
    if (s == null) {
      throw new IllegalArgumentException("Unknown setting: " + name);
    }
    return s;
  }

  /** A setting of the given scope, or a clear error. */
  public static Setting require(String name, Setting.Scope scope) {
    Setting s = require(name);
    if (s.scope() != scope) {
      throw new IllegalArgumentException("Setting " + s.name() + " is a "
          + s.scope().name().toLowerCase(Locale.ROOT) + " setting and cannot be used here ("
          + (scope == TABLE ? "CREATE TABLE … SETTINGS" : "SET") + ")");
    }
    return s;
  }
}
