package dev.travertine.vector;

import java.util.Arrays;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DateColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * Integers held at their column's width: {@link Int8Vector} (BOOLEAN, TINYINT), {@link Int16Vector}
 * (SMALLINT), {@link Int32Vector} (INTEGER, DATE as days). Hive's {@link LongColumnVector} holds
 * every one of them in 8 bytes; these hold 1, 2 or 4.
 *
 * <p>They are read-only to their readers: made once from decoded values ({@link #narrow}) and
 * read by any number of threads; or filled by a decoder ({@link #decoding}), which fills the same
 * arrays again only once their batch has come back to it (no one reads them any more), as Hive's
 * vectors are reused. They extend Hive's {@link ColumnVector} so that they travel in today's batches beside
 * Hive's vectors, with its null flags ({@code noNulls}, {@code isNull}) and {@code isRepeating}. A
 * consumer either reads them through {@link #get} or a subclass's array, or asks for Hive's form
 * with {@link Vectors#wide} (a copy). Only consumers that said they take them get them (see
 * docs/design/execution.md, "Narrow vectors").
 */
public abstract sealed class IntegerVector extends CompactVector permits Int8Vector, Int16Vector, Int32Vector {
  private final TypeKind kind;
  /** Made by {@link #decoding}: its arrays are the decoder's to fill again once the batch comes back. */
  private final boolean refillable;

  IntegerVector(int length, TypeKind kind, boolean refillable) {
    super(Type.LONG, length);
    this.kind = kind;
    this.refillable = refillable;
  }

  /**
   * A vector of {@code n} values of {@code kind} (null when {@code kind} has none narrower than 8
   * bytes) for a decoder to fill: it writes the subclass's array, the null flags ({@code isNull},
   * an array of the vector's own, and {@code noNulls}) and {@code isRepeating}, then hands the
   * vector on and writes it no more. Over the arrays of {@code previous} when that is one this
   * method made, of the same kind and with room for {@code n} values: the decoder's own vector of an
   * earlier batch, back in its hands (a batch is handed back only when no one reads it any more).
   * Otherwise over new arrays with room for {@code capacity} values.
   */
  public static IntegerVector decoding(TypeKind kind, int n, int capacity, ColumnVector previous) {
    IntegerVector prev = previous instanceof IntegerVector p && p.refillable && p.kind == kind ? p : null;
    int cap = Math.max(Math.max(n, capacity), 1);
    IntegerVector r = switch (kind) {
      case BOOLEAN, TINYINT -> new Int8Vector(prev instanceof Int8Vector p && p.values.length >= n ? p.values
          : new byte[cap], n, kind, true);
      case SMALLINT -> new Int16Vector(prev instanceof Int16Vector p && p.values.length >= n ? p.values
          : new short[cap], n, true);
      case INTEGER, DATE -> new Int32Vector(prev instanceof Int32Vector p && p.values.length >= n ? p.values
          : new int[cap], n, kind, true);
      default -> null;
    };
    if (r != null) {
      r.isNull = prev != null && prev.isNull.length >= n ? prev.isNull : new boolean[cap];
    }
    return r;
  }

  /**
   * The values of {@code v} at positions 0 .. rows - 1 (its first only, when it repeats), at the
   * width of {@code kind}; null when {@code kind} has none narrower than 8 bytes. Null flags are
   * copied, or, without nulls, shared with every other such vector (all false).
   */
  public static IntegerVector narrow(LongColumnVector v, TypeKind kind, int rows) {
    int n = v.isRepeating ? 1 : rows;
    IntegerVector r = switch (kind) {
      case BOOLEAN, TINYINT -> Int8Vector.of(v.vector, n, kind);
      case SMALLINT -> Int16Vector.of(v.vector, n);
      case INTEGER, DATE -> Int32Vector.of(v.vector, n, kind);
      default -> null;
    };
    if (r == null) {
      return null;
    }
    r.isRepeating = v.isRepeating;
    r.noNulls = v.noNulls;
    r.isNull = v.noNulls ? noNulls(n) : Arrays.copyOf(v.isNull, Math.max(n, 1));
    return r;
  }

  /** The engine type the values are of. */
  public TypeKind kind() {
    return kind;
  }

  /** Bytes per value. */
  public abstract int width();

  /**
   * Positions of {@code sel[0 .. n)} whose value {@code x} satisfies {@code x op c}, into {@code
   * out} (which may be {@code sel}); returns their count. NULLs are not looked at: the caller drops
   * them. Every operator is a range test ({@link #selectRange}), {@code <>} its negation.
   */
  public int selectCompare(Predicate.Op op, long c, int[] sel, int n, int[] out, boolean branching) {
    return switch (op) {
      case EQ -> selectRange(c, c, false, sel, n, out, branching);
      case NE -> selectRange(c, c, true, sel, n, out, branching);
      case LT -> c == Long.MIN_VALUE ? 0 : selectRange(Long.MIN_VALUE, c - 1, false, sel, n, out, branching);
      case LE -> selectRange(Long.MIN_VALUE, c, false, sel, n, out, branching);
      case GT -> c == Long.MAX_VALUE ? 0 : selectRange(c + 1, Long.MAX_VALUE, false, sel, n, out, branching);
      case GE -> selectRange(c, Long.MAX_VALUE, false, sel, n, out, branching);
    };
  }

  /**
   * Positions of {@code sel[0 .. n)} whose value lies in {@code [lo, hi]} (outside it, with {@code
   * negate}), into {@code out} (which may be {@code sel}); returns their count. NULLs are not looked
   * at: the caller drops them. The range is first cut to the values the width holds, so a bound past
   * them selects all rows or none and the loops compare ints. {@code branching}: a branch per row,
   * for selections that keep almost all or almost none; otherwise branch-free.
   */
  public int selectRange(long lo, long hi, boolean negate, int[] sel, int n, int[] out, boolean branching) {
    long min = width() == 1 ? Byte.MIN_VALUE : width() == 2 ? Short.MIN_VALUE : Integer.MIN_VALUE;
    long max = width() == 1 ? Byte.MAX_VALUE : width() == 2 ? Short.MAX_VALUE : Integer.MAX_VALUE;
    long l = Math.max(lo, min);
    long h = Math.min(hi, max);
    if (isRepeating) { // one value for every row
      long x = get(0);
      if ((x >= lo && x <= hi) != negate) {
        System.arraycopy(sel, 0, out, 0, n);
        return n;
      }
      return 0;
    }
    if (l > h || l == min && h == max) {
      if (l > h == negate) { // an empty range negated, or the whole range
        System.arraycopy(sel, 0, out, 0, n);
        return n;
      }
      return 0;
    }
    boolean dense = n > 0 && sel[n - 1] == n - 1;
    return select((int) l, (int) h, negate, sel, n, out, dense, branching);
  }

  abstract int select(int l, int h, boolean negate, int[] sel, int n, int[] out, boolean dense, boolean branching);

  /** The value at position {@code i} (already mapped for repetition). */
  public abstract long get(int i);

  /** The heap this vector holds, roughly (values, and its null flags unless shared). */
  @Override public long bytes() {
    return 32L + (long) width() * length() + (noNulls ? 0 : isNull.length);
  }

  /** Hive's form: a new {@link LongColumnVector} (a {@link DateColumnVector} for DATE) with the same values and flags. */
  @Override public LongColumnVector widen() {
    int n = Math.max(length(), 1);
    LongColumnVector w = kind == TypeKind.DATE ? new DateColumnVector(n) : new LongColumnVector(n);
    long[] out = w.vector;
    widenInto(out);
    w.isRepeating = isRepeating;
    w.noNulls = noNulls;
    if (!noNulls) {
      System.arraycopy(isNull, 0, w.isNull, 0, Math.min(isNull.length, n));
    }
    return w;
  }

  abstract void widenInto(long[] out);

  /**
   * Writes the values and null flags of positions {@code sel[0 .. n)} (position 0 when repeating)
   * into {@code dst}, which must be long enough, and its flags; other positions of {@code dst} are
   * left as they were. For a consumer that reads the selected rows only.
   */
  public void widenAt(LongColumnVector dst, int[] sel, int n) {
    dst.isRepeating = isRepeating;
    dst.noNulls = noNulls;
    if (isRepeating) {
      dst.vector[0] = get(0);
      dst.isNull[0] = !noNulls && isNull[0];
      return;
    }
    widenAt(dst.vector, sel, n);
    if (!noNulls) {
      boolean[] from = isNull;
      boolean[] to = dst.isNull;
      for (int k = 0; k < n; k++) {
        to[sel[k]] = from[sel[k]];
      }
    }
  }

  abstract void widenAt(long[] out, int[] sel, int n);

  @Override public void stringifyValue(StringBuilder buffer, int row) {
    int i = isRepeating ? 0 : row;
    if (noNulls || !isNull[i]) {
      buffer.append(get(i));
    } else {
      buffer.append("null");
    }
  }
}
