package dev.travertine.mergetree;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Cumulative engine counters (ClickHouse ProfileEvents names where they exist). Thread-safe. */
public final class EngineEvents {
  public static final String INSERTED_ROWS = "InsertedRows";
  public static final String INSERT_QUERIES = "InsertQuery";
  public static final String SELECTED_PARTS = "SelectedParts";
  public static final String SELECTED_MARKS = "SelectedMarks";
  public static final String SELECTED_ROWS = "SelectedRows";
  public static final String MERGES = "Merge";
  public static final String MERGED_ROWS = "MergedRows";
  /** Parts moved aside to detached/ as broken (by CHECK TABLE or at start). */
  public static final String DETACHED_PARTS = "DetachedParts";
  public static final String PARTS_WRITTEN = "PartsWritten";
  public static final String BYTES_WRITTEN = "WriteBufferFromFileDescriptorWriteBytes";
  public static final String BUFFER_FLUSHES = "InsertBufferFlush";
  public static final String WAL_RECORDS = "WalRecords";
  public static final String MUTATIONS = "Mutations";
  public static final String PREFETCHES = "RemoteFSPrefetches";
  public static final String PREFETCHED_READS = "RemoteFSPrefetchedReads";
  public static final String UNPREFETCHED_READS = "RemoteFSUnprefetchedReads";
  public static final String UNUSED_PREFETCH_BYTES = "RemoteFSUnusedPrefetchedBytes";
  public static final String PREFETCHES_OVER_BUDGET = "RemoteFSPrefetchesSkippedForMemory";
  /** Blocks (and their bytes) this node received from other nodes' fragments (parallel replicas). */
  public static final String EXCHANGE_BLOCKS_RECEIVED = "ExchangeReceivedBlocks";
  public static final String EXCHANGE_BYTES_RECEIVED = "ExchangeReceivedBytes";
  /** Read tasks other nodes read for this node's queries. */
  public static final String EXCHANGE_REMOTE_TASKS = "ParallelReplicasReadTasksOnReplicas";
  public static final String MUTATED_PARTS = "MutatedParts";
  public static final String MUTATED_ROWS = "MutatedRows";
  public static final String MUTATION_REVERSIONED_PARTS = "MutationReversionedParts";
  public static final String MUTATIONS_APPLIED_ON_FLY = "MutationsAppliedOnFlyInAllParts";
  /** Column tasks (one column of a part or part stripe) served from the decoded-column cache. */
  public static final String UNCOMPRESSED_CACHE_HITS = "UncompressedCacheHits";
  /** Column tasks decoded while a scan used the decoded-column cache. */
  public static final String UNCOMPRESSED_CACHE_MISSES = "UncompressedCacheMisses";
  /** Bytes of entries the decoded-column cache evicted to stay within its size. */
  public static final String UNCOMPRESSED_CACHE_WEIGHT_LOST = "UncompressedCacheWeightLost";

  /** Spill files joins wrote (a grace hash join writes two per partition) and their bytes (ClickHouse's names). */
  public static final String EXTERNAL_JOIN_FILES = "ExternalProcessingFilesTotal";
  public static final String EXTERNAL_JOIN_BYTES = "ExternalJoinCompressedBytes";

  private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();

  public void add(String name, long delta) {
    counters.computeIfAbsent(name, k -> new LongAdder()).add(delta);
  }

  public long get(String name) {
    LongAdder a = counters.get(name);
    return a == null ? 0 : a.sum();
  }

  /** A sorted copy of all counters. */
  /** The names of the engine's counters (this class's constants), for listings that show them all. */
  public static final java.util.List<String> NAMES = names();

  private static java.util.List<String> names() {
    java.util.List<String> out = new java.util.ArrayList<>();
    for (java.lang.reflect.Field f : EngineEvents.class.getFields()) {
      if (f.getType() == String.class && java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
        try {
          out.add((String) f.get(null));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return java.util.List.copyOf(out);
  }

  public Map<String, Long> snapshot() {
    Map<String, Long> out = new TreeMap<>();
    counters.forEach((k, v) -> out.put(k, v.sum()));
    out.putAll(dev.travertine.io.IoStats.snapshot());
    return out;
  }
}
