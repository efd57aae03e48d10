package dev.travertine.exec.expr;

import dev.travertine.vector.DataType;
import dev.travertine.vector.Decimals;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * The result vectors of arithmetic, casts and comparisons, handed out again batch after batch
 * where nothing outlives a batch: a stage whose consumer copies what it keeps (a partial
 * aggregate) opens its arena around each batch ({@link #open}), and the vectors the expressions
 * took for the batch before go back to it then. Without an open arena (any consumer that may
 * keep batches: a sort, a join's build side, the scan's output queue) every result is a new
 * vector, as before. A vector taken again holds the old values (the expressions write every row
 * they read), no NULLs and no repetition. Integers, doubles and scaled decimals only (no
 * per-value objects, no string buffers). One arena per worker thread; not thread-safe.
 */
public final class VectorArena {
  private static final ThreadLocal<VectorArena> OPEN = new ThreadLocal<>();
  /** Free vectors kept per kind at most: a stage takes a few per batch. */
  private static final int MAX_FREE = 32;

  private final List<ColumnVector> used = new ArrayList<>();
  private final List<LongColumnVector> longs = new ArrayList<>();
  private final List<DoubleColumnVector> doubles = new ArrayList<>();
  private final List<Decimal64ColumnVector> scaled = new ArrayList<>();

  /**
   * Opens this arena on the calling thread for one batch: the vectors taken for the batch before
   * are free again (their consumer is done with them). {@link #close} ends the batch's taking.
   */
  public void open() {
    for (ColumnVector v : used) {
      if (v instanceof Decimal64ColumnVector d) {
        free(scaled, d);
      } else if (v instanceof DoubleColumnVector d) {
        free(doubles, d);
      } else if (v.getClass() == LongColumnVector.class) {
        free(longs, (LongColumnVector) v);
      }
    }
    used.clear();
    OPEN.set(this);
  }

  /** Stops handing out this arena's vectors on the calling thread (those taken stay valid until {@link #open}). */
  public void close() {
    OPEN.remove();
  }

  private static <V extends ColumnVector> void free(List<V> list, V v) {
    if (list.size() < MAX_FREE) {
      list.add(v);
    }
  }

  /** A vector of longs for {@code cap} rows: from the open arena, or new. */
  static LongColumnVector longs(int cap) {
    return vector(a -> a.longs, cap, x -> true, Vecs::longs);
  }

  /** A vector of doubles for {@code cap} rows: from the open arena, or new. */
  static DoubleColumnVector doubles(int cap) {
    return vector(a -> a.doubles, cap, x -> true, DoubleColumnVector::new);
  }

  /** A vector of scaled longs of DECIMAL {@code type} for {@code cap} rows: from the open arena, or new. */
  static Decimal64ColumnVector scaled(int cap, DataType type) {
    int precision = Math.min(18, type.precision()); // as Decimals.newScaled makes it
    return vector(a -> a.scaled, cap, d -> d.scale == type.scale() && d.precision == precision,
        n -> Decimals.newScaled(n, type));
  }

  /** A result vector of {@code t} for {@code cap} rows: pooled for integers and doubles, else new. */
  static ColumnVector result(DataType t, int cap) {
    return switch (t.kind()) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT -> longs(cap);
      case REAL, DOUBLE -> doubles(cap);
      default -> Vecs.alloc(t, cap);
    };
  }

  /**
   * Without an open arena, {@code make(cap)}. Otherwise a free vector of the arena's {@code pool}
   * for at least {@code cap} rows that {@code fits} (its NULLs and repetition cleared), else a new
   * one; either way noted as taken for this batch.
   */
  private static <V extends ColumnVector> V vector(Function<VectorArena, List<V>> pool, int cap,
      Predicate<V> fits, IntFunction<V> make) {
    VectorArena a = OPEN.get();
    if (a == null) {
      return make.apply(cap);
    }
    List<V> free = pool.apply(a);
    V v = null;
    for (int i = free.size() - 1; i >= 0 && v == null; i--) {
      V f = free.get(i);
      if (f.isNull.length >= cap && fits.test(f)) {
        v = free.remove(i);
        Arrays.fill(v.isNull, false);
        v.noNulls = true;
        v.isRepeating = false;
      }
    }
    if (v == null) {
      v = make.apply(cap);
    }
    a.used.add(v);
    return v;
  }
}
