package dev.travertine.mergetree.scan;

import dev.travertine.mergetree.EngineEvents;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.part.PartWriter;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.OrcTypes;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.IntegerVector;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.util.Arrays;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.TypeDescription;

/**
 * One part task's use of the {@link DecodedColumnCache}: which of the columns it reads come from
 * the cache, which it decodes (only those: the reader's {@link #readInclude()}), and the decoded
 * ones it keeps for the cache once the task has been read to its end.
 *
 * <p>Entries always hold a whole task read without granule skipping, so batches end at the same
 * rows for every column (the batch size is in the key) and cached and decoded columns line up
 * batch by batch. A task whose granule selection leaves out some of its granules is served from
 * the cache only when every column it reads is there, then handing on only the rows of its
 * selected granules (as a skipping read would); otherwise it is read with skipping as without the
 * cache, and nothing is kept ({@link #plan} returns null).
 *
 * <p>Used by one source at a time (its lock held).
 */
final class CachedTask {
  private final DecodedColumnCache cache;
  private final TypeDescription orcSchema;
  private final int width;
  /** The table columns the task reads. */
  private final int[] columns;
  private final DecodedColumnCache.Key[] keys;
  /** By position in {@link #columns}: the cached entry, or null where the column is decoded. */
  private final DecodedColumnCache.Entry[] hits;
  /** By position in {@link #columns}: what a decoded column gathers for the cache (null for hits). */
  private final DecodedColumnCache.Builder[] fill;
  /** The reader's columns (ORC ids: the struct, then c + 1), or null when every column is cached. */
  private final boolean[] readInclude;
  /** The batches' sizes, from the cached entries (null when none is cached). */
  private final int[] layout;
  private final int batchSize;
  /** The part's selected granules when the task leaves some of its own out; null: every row counts. */
  private final boolean[] granules;
  private final int firstGranule;
  private final int granularity;
  /** Whether the consumer takes {@link IntegerVector}s; otherwise cached narrow ones are widened. */
  private final boolean narrow;
  private int[] sizes = new int[16];
  /**
   * By batch column: a vector the reader decoded into that the cache kept a copy of (a narrowed
   * integer, a dictionary-encoded string) and no batch handed on holds, so the next read reuses it
   * instead of allocating (newBatch and combine both run in the task's reading thread, one after
   * the other).
   */
  private ColumnVector[] reusable;
  /** By batch column: the vector the last {@link #newBatch} made (or reused), to tell whether the reader used it. */
  private ColumnVector[] given;
  private boolean filling;
  private int batch;
  private long batchStart;
  private long nextRow;
  private int size;

  private CachedTask(DecodedColumnCache cache, TypeDescription orcSchema, int width, int[] columns, TypeKind[] kinds,
      DecodedColumnCache.Key[] keys, DecodedColumnCache.Entry[] hits, boolean[] readInclude, int[] layout,
      int batchSize, boolean[] granules, int firstGranule, int granularity, boolean narrow) {
    this.cache = cache;
    this.orcSchema = orcSchema;
    this.width = width;
    this.columns = columns;
    this.keys = keys;
    this.hits = hits;
    this.readInclude = readInclude;
    this.layout = layout;
    this.batchSize = batchSize;
    this.granules = granules;
    this.firstGranule = firstGranule;
    this.granularity = granularity;
    this.narrow = narrow;
    this.fill = new DecodedColumnCache.Builder[columns.length];
    for (int i = 0; i < columns.length; i++) {
      if (hits[i] == null) {
        fill[i] = new DecodedColumnCache.Builder(cache.maxEntryBytes(), kinds[i]);
        filling = true;
      }
    }
  }

  /**
   * Looks a task's columns up (counting a hit or a miss per column); null when the task does not
   * use the cache: the cache holds nothing, the task reads no column or a whole part of several
   * stripes (only ordered reads do; entries are of one stripe at most, so what a task gathers
   * stays bounded), or it skips more than half of its granules and not every column it reads is
   * cached (each counts as a miss then; a task that skips fewer reads its stripe whole and fills
   * the cache).
   *
   * @param stripe the task's stripe, -1 for the whole part
   * @param include the columns read (ORC ids: c + 1)
   * @param batchSize rows per batch the task's reader would read
   * @param narrow whether the consumer takes {@link IntegerVector}s
   */
  static CachedTask plan(DecodedColumnCache cache, ScanPlan.PartTask task, int stripe, TableSchema schema,
      TypeDescription orcSchema, boolean[] include, int batchSize, boolean narrow, EngineEvents events) {
    PartRef part = task.part();
    if (cache == null || !cache.enabled() || part.info().rows() == 0) {
      return null;
    }
    int n = 0;
    for (int c = 0; c < schema.size(); c++) {
      n += include[c + 1] ? 1 : 0;
    }
    if (n == 0) {
      return null;
    }
    int granularity = part.index().granularity();
    int total = part.info().granules();
    int gps = PartWriter.granulesPerStripe(granularity);
    if (stripe < 0 && total > gps) {
      return null; // a whole part of several stripes (an ordered read): entries are of one stripe at most
    }
    int first = stripe < 0 ? 0 : stripe * gps;
    int end = stripe < 0 ? total : Math.min(total, first + gps);
    int selected = end - first;
    for (int g = first; task.granules() != null && g < end; g++) {
      selected -= task.granules()[g] ? 0 : 1;
    }
    boolean partial = selected < end - first;
    // A task that skips most of its stripe's granules reads only those (no cache fill); one that
    // skips a few reads the whole stripe once to fill the cache, so that later scans of any
    // selection find it there.
    boolean mayFill = 2 * selected >= end - first;
    int[] columns = new int[n];
    DecodedColumnCache.Key[] keys = new DecodedColumnCache.Key[n];
    DecodedColumnCache.Entry[] hits = new DecodedColumnCache.Entry[n];
    int[] layout = null;
    int found = 0;
    for (int c = 0, i = 0; c < schema.size(); c++) {
      if (!include[c + 1]) {
        continue;
      }
      Column col = schema.column(c);
      columns[i] = c;
      keys[i] = new DecodedColumnCache.Key(part.fileId(), stripe, col.storage(), OrcTypes.of(col.type()).toString(),
          col.defaultValue(), batchSize);
      DecodedColumnCache.Entry e = cache.get(keys[i]);
      if (e != null && layout != null && !Arrays.equals(layout, e.sizes())) {
        e = null; // cannot happen (the batch size is in the key); decode it rather than misalign
      }
      if (e != null) {
        layout = e.sizes();
        hits[i] = e;
        found++;
      }
      i++;
    }
    if (partial && found < n && !mayFill) {
      events.add(EngineEvents.UNCOMPRESSED_CACHE_MISSES, n);
      return null;
    }
    events.add(EngineEvents.UNCOMPRESSED_CACHE_HITS, found);
    events.add(EngineEvents.UNCOMPRESSED_CACHE_MISSES, n - found);
    boolean[] readInclude = null;
    if (found < n) {
      readInclude = include.clone();
      for (int i = 0; i < n; i++) {
        if (hits[i] != null) {
          readInclude[columns[i] + 1] = false;
        }
      }
    }
    TypeKind[] kinds = new TypeKind[n];
    for (int i = 0; i < n; i++) {
      kinds[i] = schema.column(columns[i]).type().kind();
    }
    return new CachedTask(cache, orcSchema, schema.size(), columns, kinds, keys, hits, readInclude, layout, batchSize,
        partial ? task.granules() : null, first, granularity, narrow);
  }

  /** Whether every column comes from the cache (no reader at all). */
  boolean allCached() {
    return readInclude == null;
  }

  /** The columns the reader decodes: those not cached (ORC ids). */
  boolean[] readInclude() {
    return readInclude;
  }

  /** A batch for the reader: vectors for the decoded columns only (the cached ones are null, as unread ones are). */
  VectorizedRowBatch newBatch() {
    var children = orcSchema.getChildren();
    VectorizedRowBatch b = new VectorizedRowBatch(children.size(), batchSize);
    for (int c = 0; c < children.size(); c++) {
      if (!readInclude[c + 1]) {
        continue;
      }
      ColumnVector v = reusable != null ? reusable[c] : null;
      if (v != null) {
        reusable[c] = null;
        v.reset();
      } else {
        v = org.apache.orc.impl.TypeUtils.createColumn(children.get(c), ScanBatches.DECIMAL_FORM, batchSize);
      }
      b.cols[c] = v;
      if (given == null) {
        given = new ColumnVector[children.size()];
      }
      given[c] = v;
    }
    return b;
  }

  /** The next batch's vectors, all from the cache; null after the last. Its rows: {@link #size()}. */
  ColumnVector[] nextCached() {
    if (batch >= layout.length) {
      return null;
    }
    ColumnVector[] cols = new ColumnVector[width];
    for (int i = 0; i < columns.length; i++) {
      cols[columns[i]] = handOut(hits[i].vectors()[batch]);
    }
    advance(layout[batch]);
    return cols;
  }

  /**
   * The vectors of a batch the reader decoded, with the cached columns put in: the decoded ones
   * are gathered for the cache. Fails rather than hand on misaligned columns.
   */
  ColumnVector[] combine(VectorizedRowBatch b) {
    if (b.selectedInUse) {
      // A reader that drops rows (a PREWHERE row filter) would make batches that line up with nothing.
      throw new IllegalStateException("Decoded-column cache: a task that uses it must read every row");
    }
    if (layout != null && (batch >= layout.length || layout[batch] != b.size)) {
      throw new IllegalStateException("Decoded-column cache: batch " + batch + " has " + b.size
          + " rows, the cached columns " + (batch >= layout.length ? "end before" : layout[batch] + " rows"));
    }
    ColumnVector[] cols = b.cols;
    long held = 0;
    for (int i = 0; i < columns.length; i++) {
      if (hits[i] != null) {
        cols[columns[i]] = handOut(hits[i].vectors()[batch]);
      } else if (filling) {
        ColumnVector read = cols[columns[i]];
        ColumnVector kept = fill[i].add(read, b.size);
        ColumnVector made = given != null ? given[columns[i]] : null;
        if (made != null && made != read) {
          // the reader put a vector of its own in the batch (a dictionary vector): the one made is free again
          if (reusable == null) {
            reusable = new ColumnVector[cols.length];
          }
          reusable[columns[i]] = made;
        } else if (narrow && kept != read) {
          cols[columns[i]] = kept; // the batch hands on the copy: the reader's vector is free again
          if (reusable == null) {
            reusable = new ColumnVector[cols.length];
          }
          reusable[columns[i]] = read;
        }
        held += fill[i].bytes();
      }
    }
    if (filling && held > cache.maxBytes() / 2) {
      filling = false; // the task is too large to keep: let its vectors go as it is read
      Arrays.fill(fill, null);
    }
    if (batch == sizes.length) {
      sizes = Arrays.copyOf(sizes, batch * 2);
    }
    sizes[batch] = b.size;
    advance(b.size);
    return cols;
  }

  /** A cached vector as the consumer takes it. */
  private ColumnVector handOut(ColumnVector v) {
    return narrow ? v : Vectors.wide(v);
  }

  private void advance(int rows) {
    batch++;
    size = rows;
    batchStart = nextRow;
    nextRow += rows;
  }

  /** Whether {@link #select} selects every row of every batch (the task skips no granule). */
  boolean selectsAll() {
    return granules == null;
  }

  /** Rows of the batch last returned by {@link #nextCached} or {@link #combine}. */
  int size() {
    return size;
  }

  /**
   * Writes the positions of the last batch's rows in selected granules (all of them, unless the
   * task leaves granules out) to {@code sel}; returns how many.
   */
  int select(int[] sel) {
    if (granules == null) {
      for (int i = 0; i < size; i++) {
        sel[i] = i;
      }
      return size;
    }
    int m = 0;
    int i = 0;
    while (i < size) {
      long row = batchStart + i;
      int g = firstGranule + (int) (row / granularity);
      int upto = (int) Math.min(size, (row / granularity + 1) * granularity - batchStart);
      if (g < granules.length && granules[g]) {
        for (int r = i; r < upto; r++) {
          sel[m++] = r;
        }
      }
      i = upto;
    }
    return m;
  }

  /** The reader reached the task's end: its decoded columns go to the cache. */
  void finish() {
    if (layout != null && batch != layout.length) {
      throw new IllegalStateException("Decoded-column cache: the part task ended after " + batch
          + " batches, the cached columns have " + layout.length);
    }
    if (!filling || batch == 0) {
      return;
    }
    int[] s = Arrays.copyOf(sizes, batch);
    for (int i = 0; i < columns.length; i++) {
      if (fill[i] != null) {
        DecodedColumnCache.Entry e = fill[i].build(s);
        if (e != null) {
          cache.put(keys[i], e);
        }
      }
    }
    filling = false;
    Arrays.fill(fill, null);
  }

  /** The task was left before its end (LIMIT, an error): nothing is kept. */
  void abandon() {
    filling = false;
    Arrays.fill(fill, null);
  }
}
