package dev.travertine.exec.op;

import dev.travertine.exec.Columns;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import it.unimi.dsi.fastutil.longs.LongArrays;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * ORDER BY with an optional bound (top-N): keeps the batches it is given and a reference
 * (batch, position) per row, sorts the references on the keys, and copies rows out in order.
 * With a bound it compacts whenever it holds more than twice the bound: only the best
 * {@code bound} rows survive, copied into one batch, so memory stays proportional to the bound.
 * A small bound (top-N) uses a max-heap of the best rows instead: most rows cost one comparison
 * with the heap's worst. Ties keep their input order. Each worker fills its own buffer;
 * {@link #merge} combines them.
 *
 * <p>Without a heap, the buffer notes whether every batch it was given is in order by itself
 * (a replica's sorted output arrives so, block by block, and so does a buffer merged in): it then
 * merges those sorted runs, pairwise, in log2(runs) passes, instead of sorting all its rows
 * again. The first batch out of order ends the noting (on unsorted input that is the first batch,
 * after a comparison or two), and a full sort follows as before.
 */
public final class SortBuffer {
  private final List<DataType> types;
  private final Step.SortKey[] keys;
  private final TypeKind[] keyKinds;
  private final long bound;
  private final boolean heap;
  private final int compactAt;
  private List<Batch> batches = new ArrayList<>();
  private long[] refs = new long[1024];
  private int count;
  /** Estimated bytes of the batches held. */
  private long held;
  /**
   * Where each sorted run of {@code refs} begins (the first {@code runCount}), while every run
   * added so far was in order by itself ({@code runs != null}); null: refs are in no known order.
   */
  private int[] runs = new int[16];
  private int runCount;

  /** {@code bound}: the rows to keep from the start of the order (-1 = all). */
  public SortBuffer(List<DataType> types, List<Step.SortKey> keys, long bound) {
    this.types = List.copyOf(types);
    this.keys = keys.toArray(Step.SortKey[]::new);
    this.keyKinds = new TypeKind[this.keys.length];
    for (int i = 0; i < this.keys.length; i++) {
      keyKinds[i] = types.get(this.keys[i].field()).kind();
    }
    this.bound = bound;
    this.heap = usesHeap(bound);
    this.compactAt = bound < 0 || bound > Integer.MAX_VALUE / 4 ? Integer.MAX_VALUE : (int) Math.max(2 * bound, 4096);
    if (heap) {
      runs = null; // a heap's refs are in heap order
    }
  }

  /** Whether a buffer with this bound keeps a heap of its best rows (a top-N). */
  static boolean usesHeap(long bound) {
    return bound >= 0 && bound <= HEAP_MAX_BOUND;
  }

  /** Rows held. */
  public int rows() {
    return count;
  }

  /** Adds a batch's selected rows (the buffer keeps the batch). */
  public void add(Batch b) {
    int n = b.size();
    if (n == 0) {
      return;
    }
    if (batches.size() >= (1 << 30)) {
      throw new IllegalStateException("Cannot sort: too many batches");
    }
    long bi = (long) batches.size() << 32;
    batches.add(b);
    held += estimate(b);
    reserveRefs(heap ? (int) Math.min(bound, count + n) : count + n);
    int[] sel = b.sel();
    if (heap) {
      for (int k = 0; k < n; k++) {
        offer(bi | sel[k]);
      }
      if (batches.size() > HEAP_MAX_BATCHES) {
        compactHeap();
      }
      return;
    }
    int from = count;
    for (int k = 0; k < n; k++) {
      refs[count++] = bi | sel[k];
    }
    noteRun(from);
    if (count > compactAt) {
      compact();
    }
  }

  /** Room for {@code need} refs (at least doubling). */
  private void reserveRefs(int need) {
    if (need > refs.length) {
      refs = java.util.Arrays.copyOf(refs, Math.max(refs.length * 2, need));
    }
  }

  /** Notes the refs {@code from .. count)} just added as a run, if they are in order by themselves. */
  private void noteRun(int from) {
    if (runs == null || from == count) {
      return;
    }
    for (int i = from + 1; i < count; i++) {
      if (compareRefs(refs[i - 1], refs[i]) > 0) {
        runs = null;
        return;
      }
    }
    if (runCount > 0 && compareRefs(refs[from - 1], refs[from]) <= 0) {
      return; // it continues the run before it
    }
    startRun(from);
  }

  /** A sorted run begins at {@code from} (runs are being noted). */
  private void startRun(int from) {
    if (runCount == runs.length) {
      runs = java.util.Arrays.copyOf(runs, 2 * runCount);
    }
    runs[runCount++] = from;
  }

  /** Every ref is in order now: one run (none when empty), and new batches are noted again. */
  private void oneRun() {
    runs = new int[16];
    runCount = count > 0 ? 1 : 0;
  }

  /**
   * A heap that holds its bound's rows tells {@code t} its worst row's first key (nothing when
   * that key is NULL, or the heap is not full yet).
   */
  void publish(TopNThreshold t) {
    if (!heap || bound == 0 || count < bound) {
      return;
    }
    long worst = refs[0];
    ColumnVector v = batches.get((int) (worst >>> 32)).cols()[keys[0].field()];
    int row = (int) worst;
    if (!Vectors.isNull(v, row)) {
      t.offer(t.key(v, row));
    }
  }

  /** Top-N with a small bound keeps a max-heap of the best rows (the worst on top). */
  private static final int HEAP_MAX_BOUND = 1 << 16;
  /** Batches a heap may reference before its rows are copied into one and the rest dropped. */
  private static final int HEAP_MAX_BATCHES = 64;

  private void offer(long r) {
    if (bound == 0) {
      return;
    }
    if (count < bound) {
      refs[count] = r;
      siftUp(count++);
    } else if (compareRefs(r, refs[0]) < 0) {
      refs[0] = r;
      siftDown(0);
    }
  }

  private void siftUp(int i) {
    long x = refs[i];
    while (i > 0) {
      int p = (i - 1) >>> 1;
      if (compareRefs(x, refs[p]) <= 0) {
        break;
      }
      refs[i] = refs[p];
      i = p;
    }
    refs[i] = x;
  }

  private void siftDown(int i) {
    long x = refs[i];
    int half = count >>> 1;
    while (i < half) {
      int c = 2 * i + 1;
      if (c + 1 < count && compareRefs(refs[c + 1], refs[c]) > 0) {
        c++;
      }
      if (compareRefs(x, refs[c]) >= 0) {
        break;
      }
      refs[i] = refs[c];
      i = c;
    }
    refs[i] = x;
  }

  /** Copies the heap's rows (in order) into one batch and drops the batches they came from. */
  private void compactHeap() {
    sort();
    List<Batch> kept = materialize(0, count, Integer.MAX_VALUE);
    batches = new ArrayList<>(kept);
    held = 0;
    kept.forEach(k -> held += estimate(k));
    // Ascending order is a valid heap only upside down: rebuild the max-heap.
    int n = count;
    count = 0;
    for (int i = 0; i < n; i++) {
      refs[count] = i;
      siftUp(count++);
    }
  }

  /**
   * Adds every row another buffer holds (which is not used afterwards). Without heaps, the other
   * is sorted and its batches and references are taken over as they are, one more sorted run
   * beside this buffer's (sorted first unless it holds runs already), which its next sort merges.
   */
  public void merge(SortBuffer other) {
    other.sort(); // its rows in order, so ties keep their input order here too
    if (heap || other.heap) {
      for (Batch b : other.materialize(0, other.count, Integer.MAX_VALUE)) {
        add(b);
      }
      return;
    }
    if (other.count == 0) {
      return;
    }
    if ((long) batches.size() + other.batches.size() >= (1 << 30)) {
      throw new IllegalStateException("Cannot sort: too many batches");
    }
    if (runs == null) {
      sort(); // now one run
    }
    long base = (long) batches.size() << 32;
    batches.addAll(other.batches);
    held += other.held;
    reserveRefs(count + other.count);
    int from = count;
    for (int i = 0; i < other.count; i++) {
      refs[count++] = other.refs[i] + base; // the same row in the same batch, now numbered after ours
    }
    startRun(from);
    if (count > compactAt) {
      compact();
    }
  }

  /**
   * Sorts now (a worker sorts its own buffer before the buffers are merged). A heap stays a heap:
   * rows are still offered to it when other buffers merge into it, and it is small.
   */
  void prepare() {
    if (!heap) {
      sort();
    }
  }

  /**
   * Bytes held: the references and the batches' vectors (strings by their selected bytes), and
   * while it holds several sorted runs, the array their merge will take besides the references.
   */
  public long bytes() {
    return 8L * refs.length + held + (runs == null ? 0 : 4L * runs.length + (runCount > 1 ? 8L * count : 0));
  }

  /** The sorted runs it holds (1 when sorted), or -1 when its rows are in no known order. */
  int sortedRuns() {
    return runs == null ? -1 : runCount;
  }

  private static long estimate(Batch b) {
    long bytes = 0;
    for (ColumnVector v : b.cols()) {
      if (v instanceof org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector s && !s.isRepeating) {
        for (int k = 0; k < b.size(); k++) {
          bytes += 16 + s.length[b.sel()[k]];
        }
      } else if (v instanceof dev.travertine.vector.CompactVector c) {
        bytes += c.bytes(); // a dictionary vector's dictionary is the cache's
      } else {
        bytes += 9L * (v.isRepeating ? 1 : v.isNull.length);
      }
    }
    return bytes;
  }

  /** Puts the refs in order: merges the sorted runs when there are such, else sorts them all. */
  private void sort() {
    if (runs == null) {
      LongArrays.quickSort(refs, 0, count, this::compareRefs);
      if (!heap) {
        oneRun();
      }
      return;
    }
    if (runCount <= 1) {
      return;
    }
    long[] src = refs;
    long[] dst = new long[count];
    int[] st = java.util.Arrays.copyOf(runs, runCount + 1);
    st[runCount] = count;
    int n = runCount;
    while (n > 1) {
      int m = 0;
      for (int i = 0; i < n; i += 2) {
        int lo = st[i];
        int mid = st[Math.min(i + 1, n)];
        int hi = st[Math.min(i + 2, n)];
        mergeRuns(src, lo, mid, hi, dst);
        st[m++] = lo;
      }
      st[m] = count;
      n = m;
      long[] t = src;
      src = dst;
      dst = t;
    }
    if (src != refs) {
      System.arraycopy(src, 0, refs, 0, count);
    }
    runCount = 1;
  }

  /** Merges the sorted {@code src[lo .. mid)} and {@code src[mid .. hi)} into {@code dst[lo .. hi)}. */
  private void mergeRuns(long[] src, int lo, int mid, int hi, long[] dst) {
    if (mid == hi || compareRefs(src[mid - 1], src[mid]) <= 0) {
      System.arraycopy(src, lo, dst, lo, hi - lo);
      return;
    }
    int a = lo;
    int b = mid;
    int o = lo;
    while (a < mid && b < hi) {
      dst[o++] = compareRefs(src[b], src[a]) < 0 ? src[b++] : src[a++];
    }
    System.arraycopy(src, a, dst, o, mid - a);
    System.arraycopy(src, b, dst, o + (mid - a), hi - b);
  }

  private int compareRefs(long a, long b) {
    Batch x = batches.get((int) (a >>> 32));
    Batch y = batches.get((int) (b >>> 32));
    int ra = (int) a;
    int rb = (int) b;
    for (int i = 0; i < keys.length; i++) {
      Step.SortKey k = keys[i];
      ColumnVector va = x.cols()[k.field()];
      ColumnVector vb = y.cols()[k.field()];
      boolean na = Vectors.isNull(va, ra);
      boolean nb = Vectors.isNull(vb, rb);
      int c;
      if (na || nb) {
        if (na == nb) {
          continue;
        }
        return na == k.nullsFirst() ? -1 : 1;
      }
      c = Vectors.compare(va, ra, vb, rb, keyKinds[i]);
      if (c != 0) {
        return k.descending() ? -c : c;
      }
    }
    return Long.compare(a, b);
  }

  private void compact() {
    sort();
    int keep = (int) Math.min(count, bound);
    List<Batch> kept = materialize(0, keep, Integer.MAX_VALUE);
    batches = new ArrayList<>(kept);
    count = 0;
    held = 0;
    kept.forEach(k -> held += estimate(k));
    for (int j = 0; j < kept.size(); j++) {
      Batch b = kept.get(j);
      long bi = (long) j << 32;
      for (int k = 0; k < b.size(); k++) {
        refs[count++] = bi | b.sel()[k];
      }
    }
    oneRun(); // what is kept is in order
  }

  /** Rows {@code from .. to)} of the sorted references, copied into batches of {@code batchSize}. */
  private List<Batch> materialize(int from, int to, int batchSize) {
    List<Batch> out = new ArrayList<>();
    for (int start = from; start < to; start += batchSize) {
      int n = Math.min(batchSize, to - start);
      ColumnVector[] cols = new ColumnVector[types.size()];
      for (int c = 0; c < cols.length; c++) {
        cols[c] = Columns.newVector(types.get(c), n);
        TypeKind kind = types.get(c).kind();
        for (int i = 0; i < n; i++) {
          long r = refs[start + i];
          Vectors.copy(batches.get((int) (r >>> 32)).cols()[c], (int) r, cols[c], i, kind);
        }
      }
      out.add(new Batch(cols, Columns.identity(n), n));
    }
    return out;
  }

  /** The sorted rows after skipping {@code offset}, at most {@code fetch} (-1 = all). */
  public List<Batch> result(long offset, long fetch, int batchSize) {
    sort();
    int from = (int) Math.min(count, offset);
    int to = fetch < 0 ? count : (int) Math.min(count, from + Math.min(fetch, (long) count));
    return materialize(from, to, batchSize);
  }
}
