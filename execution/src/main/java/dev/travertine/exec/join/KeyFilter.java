package dev.travertine.exec.join;

import dev.travertine.vector.DictionaryVector;
import dev.travertine.vector.Hashing;
import dev.travertine.vector.Int32Vector;
import dev.travertine.vector.IntegerVector;
import dev.travertine.vector.Predicate;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * A runtime filter: what a built join table says of the values one key of the probe side can take
 * to find a match — the build keys' smallest and largest value, their exact set when
 * there are few ({@link #EXACT_MAX}), else a Bloom filter unless the keys fill their range densely
 * (a primary key built whole, where the range says all). A probe row whose key fails it matches
 * nothing, so an INNER or SEMI join's probe side may drop it as early as it likes: the scan prunes
 * granules with {@link #narrowing}, and the reader or the first stage drops rows with
 * {@link #filter} before the other columns are decoded and before the steps under the join run.
 * Where the keys' range is small beside their count (at most {@link #BITMAP_BITS_PER_KEY} bits a
 * key, or {@link #SMALL_SPAN} bits in all), the filter is a bitmap over the range instead of a
 * Bloom filter: exact, and one memory access without hashing (TPC-H's order keys of one status).
 * NULL keys always fail (they match nothing). A string key (CHAR, VARCHAR) is tested by a 64-bit
 * hash of its bytes ({@link #ofStrings}, the join's own string hash): the range, set and Bloom
 * filter are over those hashes, so it drops rows in the reader and the first stage but gives the
 * scan no {@link #narrowing}. Immutable; each thread filters through an {@link Instance} of its own.
 */
public final class KeyFilter {
  /** Most distinct keys kept as an exact set (an IN list the scan also prunes granules with). */
  static final int EXACT_MAX = 64;
  /** Most keys given a Bloom filter (16 bits each: 16 MiB at the cap). */
  static final int BLOOM_MAX_KEYS = 1 << 23;
  /** A Bloom filter is skipped where the keys fill at least this share of their range. */
  static final double DENSE = 0.5;
  /** A bitmap over the range replaces the Bloom filter up to this many bits per key (twice the Bloom filter's size). */
  static final int BITMAP_BITS_PER_KEY = 32;
  /** A bitmap over a range of up to this many values is always taken (128 KiB: TPC-H's part keys). */
  static final long SMALL_SPAN = 1 << 20;
  /** Rows an instance tests before it may judge the filter useless. */
  static final int JUDGE_AFTER = 1 << 16;

  private final boolean empty;
  private final long min;
  private final long max;
  /** The distinct keys in order, or null. */
  private final long[] exact;
  /** A blocked Bloom filter (two bits per key in one word), or null. */
  private final long[] words;
  /** A bitmap of the keys over {@code min .. max} (bit {@code x - min}), or null. */
  private final long[] bits;
  private final int shift;
  /** Whether the values are hashes of string keys. */
  private final boolean hashed;

  private KeyFilter(boolean empty, long min, long max, long[] exact, long[] words, boolean hashed) {
    this(empty, min, max, exact, words, null, hashed);
  }

  private KeyFilter(boolean empty, long min, long max, long[] exact, long[] words, long[] bits, boolean hashed) {
    this.bits = bits;
    this.hashed = hashed;
    this.empty = empty;
    this.min = min;
    this.max = max;
    this.exact = exact;
    this.words = words;
    this.shift = words == null ? 0 : 64 - Integer.numberOfTrailingZeros(words.length);
  }

  /**
   * The filter over the first {@code rows} values of {@code keys} (a long-backed column; NULLs are
   * left out); {@code unique}: no value repeats.
   */
  public static KeyFilter of(LongColumnVector keys, int rows, boolean unique) {
    return of(keys, rows, unique, false);
  }

  /** The filter over the first {@code rows} values of a string column (CHAR or VARCHAR; NULLs left out). */
  public static KeyFilter ofStrings(BytesColumnVector keys, int rows) {
    LongColumnVector h = new LongColumnVector(Math.max(1, rows));
    boolean rep = keys.isRepeating;
    for (int r = 0; r < rows; r++) {
      int i = rep ? 0 : r;
      if (!keys.noNulls && keys.isNull[i]) {
        h.noNulls = false;
        h.isNull[r] = true;
      } else {
        h.vector[r] = JoinKeys.bytesHash(keys.vector[i], keys.start[i], keys.length[i]);
      }
    }
    return of(h, rows, false, true);
  }

  private static KeyFilter of(LongColumnVector keys, int rows, boolean unique, boolean hashed) {
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    int count = 0;
    long[] v = keys.vector;
    boolean rep = keys.isRepeating;
    LongOpenHashSet distinct = new LongOpenHashSet();
    for (int r = 0; r < rows; r++) {
      int i = rep ? 0 : r;
      if (!keys.noNulls && keys.isNull[i]) {
        continue;
      }
      long x = v[i];
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
      count++;
      if (distinct != null && distinct.add(x) && distinct.size() > EXACT_MAX) {
        distinct = null;
      }
    }
    if (count == 0) {
      return new KeyFilter(true, 0, -1, null, null, hashed);
    }
    double span = (double) hi - (double) lo + 1;
    // Without unique keys the row count overstates the distinct keys: judge density only for unique ones.
    boolean dense = unique && count >= DENSE * span;
    long[] bitmap = null;
    if ((distinct != null || !dense)
        && span <= Math.max(SMALL_SPAN, (double) BITMAP_BITS_PER_KEY * Math.min(count, BLOOM_MAX_KEYS))) {
      bitmap = new long[(int) (((long) span + 63) >>> 6)];
      for (int r = 0; r < rows; r++) {
        int i = rep ? 0 : r;
        if (keys.noNulls || !keys.isNull[i]) {
          long d = v[i] - lo;
          bitmap[(int) (d >>> 6)] |= 1L << d;
        }
      }
    }
    if (distinct != null) {
      long[] e = distinct.toLongArray();
      Arrays.sort(e);
      return new KeyFilter(false, lo, hi, e, null, bitmap, hashed);
    }
    if (dense || (bitmap == null && count > BLOOM_MAX_KEYS)) {
      return new KeyFilter(false, lo, hi, null, null, hashed);
    }
    if (bitmap != null) {
      return new KeyFilter(false, lo, hi, null, null, bitmap, hashed);
    }
    int bits = Integer.highestOneBit(Math.max(128, count * 16 - 1)) << 1;
    long[] words = new long[bits / 64];
    KeyFilter f = new KeyFilter(false, lo, hi, null, words, hashed);
    for (int r = 0; r < rows; r++) {
      int i = rep ? 0 : r;
      if (keys.noNulls || !keys.isNull[i]) {
        long h = Hashing.mix64(v[i]);
        words[(int) (h >>> f.shift)] |= (1L << h) | (1L << (h >>> 6));
      }
    }
    return f;
  }

  /** Whether the filter tests strings (by their hash) rather than long-backed values. */
  public boolean onStrings() {
    return hashed;
  }

  /** Whether no key is set (the join matches nothing). */
  public boolean empty() {
    return empty;
  }

  /** Whether testing rows can drop more than the {@link #narrowing} range does. */
  public boolean selective() {
    return empty || exact != null || words != null || bits != null;
  }

  /**
   * The same condition as a scan predicate on table column {@code column} (values as longs), for
   * partition and granule pruning: an IN list of the exact set, else the range; null for string
   * keys (their values are hashes), except that an empty filter is an empty IN list.
   */
  public Predicate narrowing(int column) {
    if (hashed && !empty) {
      return null;
    }
    if (empty || exact != null) {
      List<Object> values = new ArrayList<>();
      if (exact != null) {
        for (long x : exact) {
          values.add(x);
        }
      }
      return new Predicate.In(column, values);
    }
    return new Predicate.And(List.of(new Predicate.Compare(column, Predicate.Op.GE, min),
        new Predicate.Compare(column, Predicate.Op.LE, max)));
  }

  /** Whether key {@code x} may match. */
  public boolean mayContain(long x) {
    if (x < min || x > max) {
      return false;
    }
    if (bits != null) {
      long d = x - min;
      return (bits[(int) (d >>> 6)] & (1L << d)) != 0;
    }
    if (exact != null) {
      return Arrays.binarySearch(exact, x) >= 0;
    }
    if (words != null) {
      long h = Hashing.mix64(x);
      long m = (1L << h) | (1L << (h >>> 6));
      return (words[(int) (h >>> shift)] & m) == m;
    }
    return true;
  }

  /**
   * Narrows {@code sel[0 .. n)} in place to the rows of {@code v} (a long-backed column) whose key
   * may match; returns their count.
   */
  public int filter(ColumnVector v, int[] sel, int n) {
    if (empty) {
      return 0;
    }
    if (hashed && v instanceof DictionaryVector d) {
      // a dictionary column: each string's hash tested once per entry the rows use
      return d.select((b, st, len) -> mayContain(JoinKeys.bytesHash(b, st, len)), sel, n, sel);
    }
    if (hashed) {
      BytesColumnVector bv = (BytesColumnVector) v;
      boolean noNulls = bv.noNulls;
      if (bv.isRepeating) {
        return (noNulls || !bv.isNull[0]) && mayContain(JoinKeys.bytesHash(bv.vector[0], bv.start[0], bv.length[0]))
            ? n : 0;
      }
      int out = 0;
      for (int k = 0; k < n; k++) {
        int r = sel[k];
        if ((noNulls || !bv.isNull[r]) && mayContain(JoinKeys.bytesHash(bv.vector[r], bv.start[r], bv.length[r]))) {
          sel[out++] = r;
        }
      }
      return out;
    }
    if (v instanceof IntegerVector iv) {
      return filterNarrow(iv, sel, n);
    }
    LongColumnVector lv = (LongColumnVector) v;
    long[] a = lv.vector;
    boolean[] isNull = lv.isNull;
    if (lv.isRepeating) {
      return (lv.noNulls || !isNull[0]) && mayContain(a[0]) ? n : 0;
    }
    boolean noNulls = lv.noNulls;
    int out = 0;
    if (exact == null && words == null && bits == null) {
      for (int k = 0; k < n; k++) {
        int r = sel[k];
        long x = a[r];
        if ((noNulls || !isNull[r]) && x >= min && x <= max) {
          sel[out++] = r;
        }
      }
      return out;
    }
    if (bits != null) {
      long[] b = bits;
      long lo = min;
      long last = max - min; // unsigned: x - min past it is out of the range on either side
      for (int k = 0; k < n; k++) {
        int r = sel[k];
        long d = a[r] - lo;
        if ((noNulls || !isNull[r]) && Long.compareUnsigned(d, last) <= 0 && (b[(int) (d >>> 6)] & (1L << d)) != 0) {
          sel[out++] = r;
        }
      }
      return out;
    }
    // Probe keys often come in runs (a table stored in the key's order): a repeated key is tested once.
    long prev = 0;
    boolean prevKept = false;
    boolean any = false;
    for (int k = 0; k < n; k++) {
      int r = sel[k];
      if (noNulls || !isNull[r]) {
        long x = a[r];
        if (!any || x != prev) {
          prev = x;
          prevKept = mayContain(x);
          any = true;
        }
        if (prevKept) {
          sel[out++] = r;
        }
      }
    }
    return out;
  }

  /** {@link #filter} on integers kept at their width. */
  private int filterNarrow(IntegerVector v, int[] sel, int n) {
    if (v.isRepeating) {
      return (v.noNulls || !v.isNull[0]) && mayContain(v.get(0)) ? n : 0;
    }
    boolean noNulls = v.noNulls;
    boolean[] isNull = v.isNull;
    int out = 0;
    if (v instanceof Int32Vector iv && bits != null) {
      int[] a = iv.values;
      long[] b = bits;
      long lo = min;
      long last = max - min;
      for (int k = 0; k < n; k++) {
        int r = sel[k];
        long d = a[r] - lo;
        if ((noNulls || !isNull[r]) && Long.compareUnsigned(d, last) <= 0 && (b[(int) (d >>> 6)] & (1L << d)) != 0) {
          sel[out++] = r;
        }
      }
      return out;
    }
    for (int k = 0; k < n; k++) {
      int r = sel[k];
      if ((noNulls || !isNull[r]) && mayContain(v.get(r))) {
        sel[out++] = r;
      }
    }
    return out;
  }

  /** A thread's use of the filter: it stops testing once a sample shows it keeps nearly every row. */
  public Instance instance() {
    return new Instance();
  }

  @Override public String toString() {
    return empty ? "KeyFilter[empty]" : "KeyFilter[" + (hashed ? "string hashes " : "") + min + ".." + max
        + (exact != null ? ", " + exact.length + " keys" : "")
        + (bits != null ? ", bitmap" : words != null ? ", bloom " + words.length * 64 + " bits" : "")
        + "]";
  }

  /** One thread's filter; see {@link #instance()}. */
  public final class Instance {
    private long tested;
    private long kept;
    private boolean off;

    /** As {@link KeyFilter#filter}; once judged useless, keeps every row. */
    public int filter(ColumnVector v, int[] sel, int n) {
      if (off) {
        return n;
      }
      int m = KeyFilter.this.filter(v, sel, n);
      tested += n;
      kept += m;
      if (tested >= JUDGE_AFTER && kept > tested - tested / 16) {
        off = true;
      }
      return m;
    }
  }
}
