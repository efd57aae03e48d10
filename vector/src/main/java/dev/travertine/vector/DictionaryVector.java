package dev.travertine.vector;

import java.util.Arrays;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;

/**
 * Strings as ids into a {@link StringDictionary}: four bytes a row, where Hive's {@link
 * BytesColumnVector} holds a reference, a start and a length (16 bytes) beside the bytes. A
 * consumer that computes something per string (a GROUP BY key's group, a comparison with a
 * constant, LIKE) computes it once per entry and reads it by id; the others ask for Hive's form
 * ({@link Vectors#wide}: references into the dictionary's arena, no bytes copied).
 *
 * <p>Read-only, like {@link IntegerVector}, and made the same way: once, when a task's decoded
 * columns fill the decoded-column cache, and handed only to consumers that take them.
 */
public final class DictionaryVector extends CompactVector {
  /** The dictionary, the key consumers memoize per-entry results by. */
  public final StringDictionary dictionary;
  /** The dictionary's arena and offsets as they were when this vector was made (entries {@code < entries}). */
  public final byte[] arena;
  public final int[] offsets;
  /** Entries of the dictionary this vector may refer to (every id is below it). */
  public final int entries;
  /** The ids; read them, never write them. */
  public final int[] ids;
  /** The bytes of the strings of positions 0 .. length - 1 (NULLs none), or -1 when not counted. */
  private long stringBytes = -1;

  DictionaryVector(StringDictionary dictionary, byte[] arena, int[] offsets, int entries, int[] ids, int n,
      boolean noNulls, boolean[] isNull, boolean repeating) {
    super(Type.BYTES, n);
    this.dictionary = dictionary;
    this.arena = arena;
    this.offsets = offsets;
    this.entries = entries;
    this.ids = ids;
    this.noNulls = noNulls;
    this.isNull = noNulls ? noNulls(Math.max(n, 1)) : isNull;
    this.isRepeating = repeating;
  }

  /**
   * The ids of {@code v}'s strings at positions 0 .. rows - 1 (its first only when it repeats) in
   * {@code dict}, added as needed; null, leaving the dictionary as it may have grown, when the
   * dictionary would grow past {@code maxEntries}.
   */
  public static DictionaryVector encode(BytesColumnVector v, int rows, StringDictionary dict, int maxEntries) {
    int n = v.isRepeating ? 1 : rows;
    int[] ids = new int[Math.max(n, 1)];
    boolean noNulls = v.noNulls;
    byte[][] bufs = v.vector;
    int[] start = v.start;
    int[] len = v.length;
    long total = 0;
    try {
      for (int i = 0; i < n; i++) {
        if (noNulls || !v.isNull[i]) {
          ids[i] = dict.add(bufs[i], start[i], len[i]);
          total += len[i];
          if (dict.size() > maxEntries) {
            return null;
          }
        }
      }
    } finally {
      dict.endBatch();
    }
    DictionaryVector d = dict.vector(ids, n, noNulls, noNulls ? null : Arrays.copyOf(v.isNull, Math.max(n, 1)),
        v.isRepeating);
    d.stringBytes = total;
    return d;
  }

  /** The bytes of the strings at positions 0 .. n - 1 (NULLs none; a repeating vector's one string n times). */
  public long stringBytes(int n) {
    if (isRepeating) {
      return noNulls || !isNull[0] ? (long) length(ids[0]) * n : 0;
    }
    if (n == length() && stringBytes >= 0) {
      return stringBytes;
    }
    long sum = 0;
    for (int i = 0; i < n; i++) {
      sum += noNulls || !isNull[i] ? length(ids[i]) : 0;
    }
    return sum;
  }

  public int start(int id) {
    return offsets[id];
  }

  public int length(int id) {
    return offsets[id + 1] - offsets[id];
  }

  /** The heap this vector holds, without its dictionary's (ids, and its null flags unless shared). */
  @Override public long bytes() {
    return 48L + 4L * length() + (noNulls ? 0 : isNull.length);
  }

  /** Hive's form: a new {@link BytesColumnVector} referencing the dictionary's bytes, with the same flags. */
  @Override public BytesColumnVector widen() {
    int n = Math.max(length(), 1);
    BytesColumnVector w = new BytesColumnVector(n);
    for (int i = 0; i < length(); i++) {
      if (noNulls || !isNull[i]) {
        int id = ids[i];
        w.vector[i] = arena;
        w.start[i] = offsets[id];
        w.length[i] = offsets[id + 1] - offsets[id];
      }
    }
    w.isRepeating = isRepeating;
    w.noNulls = noNulls;
    if (!noNulls) {
      System.arraycopy(isNull, 0, w.isNull, 0, Math.min(isNull.length, n));
    }
    return w;
  }

  /**
   * Writes the strings (as references) and null flags of positions {@code sel[0 .. n)} (position 0
   * when repeating) into {@code dst}, which must be long enough; other positions are left as they were.
   */
  public void widenAt(BytesColumnVector dst, int[] sel, int n) {
    dst.isRepeating = isRepeating;
    dst.noNulls = noNulls;
    int m = isRepeating ? 1 : n;
    for (int k = 0; k < m; k++) {
      int i = isRepeating ? 0 : sel[k];
      boolean nul = !noNulls && isNull[i];
      dst.isNull[i] = nul;
      if (!nul) {
        int id = ids[i];
        dst.vector[i] = arena;
        dst.start[i] = offsets[id];
        dst.length[i] = offsets[id + 1] - offsets[id];
      }
    }
  }

  /** A test of one string, {@code b[start .. start + len)}. */
  public interface StringTest {
    boolean test(byte[] b, int start, int len);
  }

  /** Entries a per-batch memo may have beside the batch's rows (past it, each row is tested). */
  private static final int MEMO_PER_ROW = 4;

  /**
   * The rows of {@code sel[0 .. n)} whose string passes {@code t}, into {@code out}; returns their
   * count. The test runs once per dictionary entry the rows use rather than once per row (a
   * comparison with a constant, IN, LIKE: a column of seven ship modes costs seven tests a batch).
   * NULL rows never pass.
   */
  public int select(StringTest t, int[] sel, int n, int[] out) {
    DictionaryVector d = this;
    int[] ids = d.ids;
    int[] off = d.offsets;
    byte[] arena = d.arena;
    boolean noNulls = d.noNulls;
    boolean[] isNull = d.isNull;
    if (d.isRepeating) {
      boolean pass = (noNulls || !isNull[0]) && t.test(arena, off[ids[0]], off[ids[0] + 1] - off[ids[0]]);
      if (pass) {
        System.arraycopy(sel, 0, out, 0, n);
        return n;
      }
      return 0;
    }
    if (d.entries == 0) {
      return 0; // every row NULL
    }
    int c = 0;
    if (d.entries > MEMO_PER_ROW * n + 64) {
      for (int k = 0; k < n; k++) {
        int r = sel[k];
        if (noNulls || !isNull[r]) {
          int id = ids[r];
          if (t.test(arena, off[id], off[id + 1] - off[id])) {
            out[c++] = r;
          }
        }
      }
      return c;
    }
    // 0: not tested yet, 1: passes, 2: fails; then the rows kept without a branch on the outcome
    byte[] memo = new byte[d.entries];
    for (int k = 0; k < n; k++) {
      int r = sel[k];
      int id = ids[r];
      if (memo[id] == 0 && (noNulls || !isNull[r])) {
        memo[id] = t.test(arena, off[id], off[id + 1] - off[id]) ? (byte) 1 : 2;
      }
    }
    if (noNulls) {
      for (int k = 0; k < n; k++) {
        int r = sel[k];
        out[c] = r;
        c += memo[ids[r]] & 1;
      }
    } else {
      for (int k = 0; k < n; k++) {
        int r = sel[k];
        out[c] = r;
        c += isNull[r] ? 0 : memo[ids[r]] & 1;
      }
    }
    return c;
  }

  /**
   * As {@link #select} for a test that looks only at whether a string is empty (a comparison with
   * {@code ''}): the rows of {@code sel[0 .. n)} whose string is empty when {@code empty}, else
   * those whose string is not, by the entries' lengths, with no test called. NULL rows never pass.
   */
  public int selectEmpty(boolean empty, int[] sel, int n, int[] out) {
    int[] ids = this.ids;
    int[] off = offsets;
    boolean[] isNull = this.isNull;
    if (isRepeating) {
      int id = ids[0];
      if ((noNulls || !isNull[0]) && (off[id + 1] == off[id]) == empty) {
        System.arraycopy(sel, 0, out, 0, n);
        return n;
      }
      return 0;
    }
    int c = 0;
    for (int k = 0; k < n; k++) {
      int r = sel[k];
      int id = ids[r];
      out[c] = r;
      c += (off[id + 1] == off[id]) == empty && (noNulls || !isNull[r]) ? 1 : 0;
    }
    return c;
  }

  @Override public void stringifyValue(StringBuilder buffer, int row) {
    int i = isRepeating ? 0 : row;
    if (noNulls || !isNull[i]) {
      buffer.append('"').append(new String(arena, start(ids[i]), length(ids[i]), java.nio.charset.StandardCharsets.UTF_8))
          .append('"');
    } else {
      buffer.append("null");
    }
  }
}
