package dev.travertine.mergetree.scan;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.travertine.mergetree.EngineEvents;
import dev.travertine.vector.CompactVector;
import dev.travertine.vector.DictionaryVector;
import dev.travertine.vector.IntegerVector;
import dev.travertine.vector.StringDictionary;
import dev.travertine.vector.TypeKind;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/**
 * The decoded-column cache (ClickHouse's uncompressed cache, one level further: it keeps the
 * column vectors ORC decoded, so a repeated scan of the same parts neither decompresses nor
 * decodes). An entry is one column of one part task (a part, or one stripe of it): the vectors of
 * its batches in order, and their sizes. Bounded by the bytes of the vectors held (Caffeine,
 * W-TinyLFU: a scan larger than the cache does not flush the entries that are used often).
 *
 * <p>Entries are never changed, and neither are the vectors handed out from them: a scan uses the
 * cache only for parts without pending mutations (applying a mutation rewrites vectors in place),
 * and nothing downstream of a scan writes into its input vectors. Parts never change, and the key
 * names the part's file object (a new part, e.g. from a merge or a mutation, has another), so no
 * entry is ever stale; entries of replaced parts just age out.
 *
 * <p>One per engine ({@link dev.travertine.mergetree.EngineContext#columnCache()}), sized by the
 * server/connection property {@value #SIZE_KEY}; scans use it when the session has {@code
 * use_uncompressed_cache = 1}. Thread-safe.
 */
public final class DecodedColumnCache {
  /** The engine property giving the cache's size in bytes (ClickHouse's server setting name). */
  public static final String SIZE_KEY = "uncompressed_cache_size";

  /**
   * 1 GiB, or a quarter of the maximum heap when that is less (ClickHouse's 8 GiB does not fit
   * our default 4 GiB heap, which query states need too).
   */
  public static final long DEFAULT_MAX_BYTES = Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 4);

  /**
   * What determines one column's decoded vectors of one part task: the part's file ({@link
   * dev.travertine.mergetree.part.PartRef#fileId()}), the stripe (-1: the whole part), the column's
   * storage name, the type it is read as and the default a part without it reads as (ALTER
   * changes those), and the rows per batch (which fixes where batches end).
   */
  record Key(long file, int stripe, String column, String type, String defaultValue, int batchSize) {}

  /** One column of one part task: its vectors batch by batch, the batches' sizes, and the bytes held. */
  record Entry(ColumnVector[] vectors, int[] sizes, int bytes) {}

  /**
   * Whether TINYINT, SMALLINT, INTEGER, DATE and BOOLEAN columns are kept at their width and
   * strings as dictionary ids (the default; {@code -Dtravertine.cache.narrow=false} keeps Hive's
   * vectors, the "off" side of benchmarks).
   */
  static final boolean NARROW = !"false".equals(System.getProperty("travertine.cache.narrow"));

  private final long maxBytes;
  private final Cache<Key, Entry> cache;

  /** A cache of at most {@code maxBytes} (0: no cache); evicted bytes count in {@code events}. */
  public DecodedColumnCache(long maxBytes, EngineEvents events) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("Invalid " + SIZE_KEY + ": " + maxBytes + " (bytes, 0 = no cache)");
    }
    this.maxBytes = maxBytes;
    this.cache = maxBytes == 0 ? null : Caffeine.newBuilder()
        .maximumWeight(maxBytes)
        .weigher((Key k, Entry e) -> e.bytes())
        .executor(Runnable::run) // evictions on the thread that inserts: no common-pool work, bound kept at once
        .evictionListener((Key k, Entry e, com.github.benmanes.caffeine.cache.RemovalCause cause) -> {
          if (e != null && cause.wasEvicted()) {
            events.add(EngineEvents.UNCOMPRESSED_CACHE_WEIGHT_LOST, e.bytes());
          }
        })
        .build();
  }

  /** The size given by the {@value #SIZE_KEY} property of {@code props}, or {@link #DEFAULT_MAX_BYTES}. */
  public static long size(Map<String, String> props) {
    String v = props.get(SIZE_KEY);
    if (v == null || v.isBlank()) {
      return DEFAULT_MAX_BYTES;
    }
    return parseSize(v);
  }

  /** Parses a size in bytes (0 = no cache), or says why not. */
  public static long parseSize(String v) {
    try {
      long n = Long.parseLong(v.trim());
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException("Invalid " + SIZE_KEY + ": '" + v + "' (bytes, 0 = no cache)");
  }

  public long maxBytes() {
    return maxBytes;
  }

  /** Whether it can hold anything (size above 0). */
  public boolean enabled() {
    return cache != null;
  }

  /** Bytes held now. */
  public long bytes() {
    if (cache == null) {
      return 0;
    }
    cache.cleanUp();
    return cache.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
  }

  /** Entries held now. */
  public long entries() {
    if (cache == null) {
      return 0;
    }
    cache.cleanUp();
    return cache.estimatedSize();
  }

  /** Drops every entry (ClickHouse's SYSTEM DROP UNCOMPRESSED CACHE). */
  public void clear() {
    if (cache != null) {
      cache.invalidateAll();
    }
  }

  /**
   * The largest entry worth keeping: a quarter of the cache (one task's column must not push out
   * most of the others), and what a Caffeine weight can say.
   */
  long maxEntryBytes() {
    return Math.min(Integer.MAX_VALUE, maxBytes / 4);
  }

  Entry get(Key k) {
    return cache == null ? null : cache.getIfPresent(k);
  }

  void put(Key k, Entry e) {
    if (cache != null && e.bytes() <= maxEntryBytes()) {
      cache.put(k, e);
    }
  }

  /** Gathers one column's vectors of a task as they are decoded, with their bytes. */
  static final class Builder {
    private final long limit;
    /** A dictionary may always grow to this many strings; past it, to half the rows seen. */
    static final int DICTIONARY_MIN = 4096;
    /**
     * The column's type: integers narrower than 8 bytes are kept at their width ({@link
     * IntegerVector}), strings as ids into a dictionary ({@link DictionaryVector}) while it holds at
     * most {@link #DICTIONARY_MIN} strings or half the rows.
     */
    private final TypeKind kind;
    private final java.util.ArrayList<ColumnVector> vectors = new java.util.ArrayList<>();
    /** Byte arrays strings point into, counted once (a stripe's dictionary is shared by all its batches). */
    private final Set<byte[]> buffers = Collections.newSetFromMap(new IdentityHashMap<>());
    private long bytes;
    private boolean over;
    /** Dictionaries of dictionary vectors the part reader made, counted once each. */
    private final Set<dev.travertine.vector.StringDictionary> readerDictionaries =
        Collections.newSetFromMap(new IdentityHashMap<>());
    /** The strings of a string column's dictionary vectors ({@link DictionaryVector}), or null. */
    private StringDictionary dictionary;
    private long dictionaryBytes;
    private long rowsSeen;
    private boolean noDictionary;

    Builder(long limit, TypeKind kind) {
      this.limit = limit;
      this.kind = kind;
    }

    /**
     * Adds the next batch's vector of {@code rows} rows (not once the entry would be too large to
     * keep); returns what the batch should use: {@code v}, or the narrow copy kept.
     */
    ColumnVector add(ColumnVector v, int rows) {
      if (over) {
        return v;
      }
      if (NARROW && v instanceof LongColumnVector l && !(v instanceof Decimal64ColumnVector)) {
        IntegerVector n = IntegerVector.narrow(l, kind, rows);
        v = n != null ? n : v;
      } else if (NARROW && kind.isString() && v instanceof BytesColumnVector s && !noDictionary) {
        if (dictionary == null) {
          dictionary = new StringDictionary();
        }
        rowsSeen += rows;
        DictionaryVector d = DictionaryVector.encode(s, rows, dictionary, (int) Math.max(DICTIONARY_MIN, rowsSeen / 2));
        if (d == null) {
          noDictionary = true; // too many distinct strings: the rest stay Hive's vectors
        } else {
          v = d;
        }
      }
      bytes += DecodedColumnCache.bytes(v, buffers);
      if (v instanceof DictionaryVector d && d.dictionary != dictionary && readerDictionaries.add(d.dictionary)) {
        bytes += d.dictionary.bytes(); // the reader's dictionary of the stripe (OrcStreamReader): counted once
      }
      if (dictionary != null) {
        bytes += dictionary.bytes() - dictionaryBytes;
        dictionaryBytes = dictionary.bytes();
      }
      if (bytes > limit) {
        over = true;
        vectors.clear();
        buffers.clear();
        return v;
      }
      vectors.add(v);
      return v;
    }

    /** Bytes gathered so far. */
    long bytes() {
      return bytes;
    }

    /** The entry, or null when it grew too large. */
    Entry build(int[] sizes) {
      if (over || vectors.size() != sizes.length) {
        return null;
      }
      if (dictionary != null) { // complete: its lookup for adding strings goes
        dictionary.seal();
        bytes -= dictionaryBytes - dictionary.bytes();
      }
      return new Entry(vectors.toArray(new ColumnVector[0]), sizes, (int) bytes);
    }
  }

  /**
   * The heap a vector holds, roughly: its arrays (null flags, values; for strings the arrays of
   * references, offsets and lengths, plus each byte array its rows point into that {@code seen}
   * does not hold yet).
   */
  static long bytes(ColumnVector v, Set<byte[]> seen) {
    if (v instanceof CompactVector c) {
      return c.bytes(); // a dictionary vector's dictionary is counted as it grows (Builder)
    }
    long b = 64 + v.isNull.length;
    if (v instanceof LongColumnVector l) {
      b += 8L * l.vector.length;
    } else if (v instanceof DoubleColumnVector d) {
      b += 8L * d.vector.length;
    } else if (v instanceof TimestampColumnVector t) {
      b += 12L * t.time.length;
    } else if (v instanceof DecimalColumnVector d) {
      b += 64L * d.vector.length; // a HiveDecimalWritable each
    } else if (v instanceof BytesColumnVector s) {
      b += 16L * s.vector.length;
      byte[] last = null;
      for (byte[] a : s.vector) {
        if (a != null && a != last) {
          last = a;
          if (seen.add(a)) {
            b += 16 + a.length;
          }
        }
      }
    }
    return b;
  }
}
