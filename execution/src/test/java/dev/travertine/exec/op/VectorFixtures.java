package dev.travertine.exec.op;

import dev.travertine.exec.Columns;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/**
 * Test data for the operator tests: random column values in a plain Java form, batches built
 * from them (selection vectors with gaps, repeating vectors, NULLs, garbage where the engine must
 * not look) and the rows a reference implementation sees.
 *
 * <p>Plain values: Long for every long-backed kind (BOOLEAN as 0/1), Double for REAL/DOUBLE,
 * BigDecimal (trailing zeros stripped) for DECIMAL, String for CHAR/VARCHAR, {@link Ts} for
 * TIMESTAMP, null for NULL. Equality is {@code equals} (so doubles compare as
 * {@code Double.equals}: -0.0 differs from 0.0, every NaN is the same).
 */
public final class VectorFixtures {
  private VectorFixtures() {}

  public static final DataType BOOL = DataType.of(TypeKind.BOOLEAN);
  public static final DataType TINY = DataType.of(TypeKind.TINYINT);
  public static final DataType SMALL = DataType.of(TypeKind.SMALLINT);
  public static final DataType INT = DataType.of(TypeKind.INTEGER);
  public static final DataType BIG = DataType.of(TypeKind.BIGINT);
  public static final DataType REAL = DataType.of(TypeKind.REAL);
  public static final DataType DBL = DataType.of(TypeKind.DOUBLE);
  public static final DataType DEC = DataType.decimal(12, 3);
  public static final DataType STR = DataType.varchar(-1);
  public static final DataType CHR = new DataType(TypeKind.CHAR, 10, -1);
  public static final DataType DATE = DataType.of(TypeKind.DATE);
  public static final DataType TS = DataType.of(TypeKind.TIMESTAMP);

  /** A TIMESTAMP value as the vector holds it: epoch millis and the nanos of its second. */
  public record Ts(long millis, int nanos) implements Comparable<Ts> {
    public static Ts of(long seconds, int nanos) {
      return new Ts(seconds * 1000 + nanos / 1_000_000, nanos);
    }

    @Override public int compareTo(Ts o) {
      int c = Long.compare(millis, o.millis);
      return c != 0 ? c : Integer.compare(nanos, o.nanos);
    }
  }

  /** Strings that stress byte order and lengths: empty, multi-byte, outside the BMP, NUL. */
  public static final List<String> SPECIAL_STRINGS = List.of("", "a", "ab", "abc", "b", "A", "é", "日本語",
      "😀", "\uE000", "\uFFFD", "a\u0000", "a\u0000b", " ", "€uro", "x".repeat(40), "x".repeat(41), "🙂b", "z");

  /** Doubles whose sums are exact in any order, and the special values. */
  public static final List<Double> SPECIAL_DOUBLES = List.of(0.0, -0.0, Double.NaN,
      Double.longBitsToDouble(0x7ff8000000000123L), Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.0, -1.0,
      0.125, -2.5);

  /** {@code n} distinct plain values of {@code type} (special values first). */
  public static List<Object> pool(Random rnd, DataType type, int n) {
    Set<Object> out = new LinkedHashSet<>();
    switch (type.kind()) {
      case BOOLEAN -> {
        out.add(0L);
        out.add(1L);
      }
      case TINYINT -> {
        for (long v : new long[] {Byte.MIN_VALUE, Byte.MAX_VALUE, 0, -1, 1}) {
          out.add(v);
        }
      }
      case SMALLINT -> {
        for (long v : new long[] {Short.MIN_VALUE, Short.MAX_VALUE, 0, -1}) {
          out.add(v);
        }
      }
      case INTEGER -> {
        for (long v : new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1}) {
          out.add(v);
        }
      }
      case BIGINT -> {
        for (long v : new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1}) {
          out.add(v);
        }
      }
      case DATE -> {
        out.add(0L);
        out.add(-1L);
      }
      case REAL, DOUBLE -> out.addAll(SPECIAL_DOUBLES);
      case DECIMAL -> {
        out.add(BigDecimal.ZERO);
        out.add(new BigDecimal("999999999.999"));
        out.add(new BigDecimal("-999999999.999"));
        out.add(new BigDecimal("0.001"));
        out.add(new BigDecimal("-1.5"));
      }
      case CHAR, VARCHAR -> out.addAll(SPECIAL_STRINGS);
      case TIMESTAMP -> {
        out.add(Ts.of(0, 0));
        out.add(Ts.of(-1, 999_999_999));
        out.add(Ts.of(0, 1));
        out.add(Ts.of(0, 1_000_000));
        out.add(Ts.of(1_700_000_000L, 123_456_789));
      }
    }
    List<Object> list = new ArrayList<>(out);
    int max = type.kind() == TypeKind.BOOLEAN ? 2 : type.kind() == TypeKind.TINYINT ? 256 : Integer.MAX_VALUE;
    Set<Object> seen = new LinkedHashSet<>(list);
    while (seen.size() < Math.min(n, max)) {
      seen.add(random(rnd, type));
    }
    list = new ArrayList<>(seen);
    return list.subList(0, Math.min(n, list.size()));
  }

  /** A random plain value of {@code type} (not NULL). */
  public static Object random(Random rnd, DataType type) {
    return switch (type.kind()) {
      case BOOLEAN -> (long) rnd.nextInt(2);
      case TINYINT -> (long) (byte) rnd.nextInt();
      case SMALLINT -> (long) (short) rnd.nextInt();
      case INTEGER -> (long) rnd.nextInt();
      case BIGINT -> rnd.nextBoolean() ? rnd.nextLong() : (long) rnd.nextInt(1_000_000) - 500_000;
      case DATE -> (long) rnd.nextInt(60_000) - 30_000;
      // multiples of 1/8 below 2^20: every sum of them is exact, in any order
      case DOUBLE -> (rnd.nextInt(1 << 23) - (1 << 22)) / 8.0;
      case REAL -> (double) (float) ((rnd.nextInt(1 << 20) - (1 << 19)) / 8.0);
      case DECIMAL -> {
        long bound = 1_000_000_000_000L;
        long u = rnd.nextBoolean() ? rnd.nextLong() % bound : rnd.nextInt(20_000) - 10_000;
        yield BigDecimal.valueOf(u, type.scale()).stripTrailingZeros();
      }
      case CHAR, VARCHAR -> {
        int len = rnd.nextInt(12);
        StringBuilder sb = new StringBuilder(rnd.nextInt(3) == 0 ? "common-prefix-0123456789-" : "");
        String alphabet = "abcXYZ09 éß日本😀\u0000";
        for (int i = 0; i < len; i++) {
          sb.appendCodePoint(alphabet.codePointAt(alphabet.offsetByCodePoints(0, rnd.nextInt(alphabet.codePointCount(0, alphabet.length())))));
        }
        yield sb.toString();
      }
      case TIMESTAMP -> {
        long sec = rnd.nextInt(4_000_000) - 2_000_000L + (rnd.nextBoolean() ? 1_700_000_000L : 0);
        int nanos = switch (rnd.nextInt(3)) {
          case 0 -> 0;
          case 1 -> rnd.nextInt(1000) * 1_000_000;
          default -> rnd.nextInt(1_000_000_000);
        };
        yield Ts.of(sec, nanos);
      }
    };
  }

  /** Writes a plain value (null = NULL) into row {@code row}. */
  public static void set(ColumnVector v, DataType type, int row, Object value) {
    if (value == null) {
      v.noNulls = false;
      v.isNull[row] = true;
      if (v instanceof BytesColumnVector b) {
        b.setVal(row, new byte[0]);
      }
      return;
    }
    v.isNull[row] = false;
    switch (type.kind()) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE -> ((LongColumnVector) v).vector[row] = (Long) value;
      case REAL, DOUBLE -> ((DoubleColumnVector) v).vector[row] = (Double) value;
      case DECIMAL -> {
        DecimalColumnVector d = (DecimalColumnVector) v;
        d.set(row, HiveDecimal.create((BigDecimal) value));
        if (d.isNull[row]) {
          throw new IllegalArgumentException(value + " does not fit " + type);
        }
      }
      case CHAR, VARCHAR -> ((BytesColumnVector) v).setVal(row, ((String) value).getBytes(StandardCharsets.UTF_8));
      case TIMESTAMP -> {
        TimestampColumnVector t = (TimestampColumnVector) v;
        t.time[row] = ((Ts) value).millis();
        t.nanos[row] = ((Ts) value).nanos();
      }
    }
  }

  /** The plain value at {@code row} (honouring isRepeating and noNulls). */
  public static Object get(ColumnVector v, DataType type, int row) {
    int i = v.isRepeating ? 0 : row;
    if (!v.noNulls && v.isNull[i]) {
      return null;
    }
    return switch (type.kind()) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE -> ((LongColumnVector) v).vector[i];
      case REAL, DOUBLE -> ((DoubleColumnVector) v).vector[i];
      case DECIMAL -> ((DecimalColumnVector) v).vector[i].getHiveDecimal().bigDecimalValue().stripTrailingZeros();
      case CHAR, VARCHAR -> {
        BytesColumnVector b = (BytesColumnVector) v;
        yield new String(b.vector[i], b.start[i], b.length[i], StandardCharsets.UTF_8);
      }
      case TIMESTAMP -> new Ts(((TimestampColumnVector) v).time[i], ((TimestampColumnVector) v).nanos[i]);
    };
  }

  /** Order of two non-NULL plain values as SQL (and the engine) orders them. */
  public static int compare(DataType type, Object a, Object b) {
    return switch (type.kind()) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE -> Long.compare((Long) a, (Long) b);
      case REAL, DOUBLE -> Double.compare((Double) a, (Double) b);
      case DECIMAL -> ((BigDecimal) a).compareTo((BigDecimal) b);
      case CHAR, VARCHAR -> Arrays.compareUnsigned(((String) a).getBytes(StandardCharsets.UTF_8),
          ((String) b).getBytes(StandardCharsets.UTF_8));
      case TIMESTAMP -> ((Ts) a).compareTo((Ts) b);
    };
  }

  /** How one column of a generated table draws its values. */
  public record Col(DataType type, List<Object> pool, double nullRate) {
    public static Col of(Random rnd, DataType type, int distinct, double nullRate) {
      return new Col(type, VectorFixtures.pool(rnd, type, distinct), nullRate);
    }

    Object draw(Random rnd) {
      return rnd.nextDouble() < nullRate ? null : pool.get(rnd.nextInt(pool.size()));
    }
  }

  /** A batch and the rows (plain values of the selected positions, in order) it carries. */
  public record Generated(Batch batch, List<Object[]> rows) {}

  /** Options of {@link #batch}. */
  public record Shape(int maxCapacity, double repeatRate, double noNullRate) {
    public static final Shape DEFAULT = new Shape(1500, 0.1, 0.3);
  }

  /**
   * A random batch: capacity 1..max, a selection that is dense, empty, or has gaps; a column may
   * be repeating (garbage in the other positions) or have no NULLs at all (noNulls set); the rows
   * outside the selection hold values too, which the engine must ignore.
   */
  public static Generated batch(Random rnd, List<Col> cols, Shape shape) {
    int cap = 1 + rnd.nextInt(shape.maxCapacity());
    int[] sel;
    int mode = rnd.nextInt(10);
    if (mode == 0) {
      sel = Columns.identity(cap);
    } else if (mode == 1 && rnd.nextInt(4) == 0) {
      sel = new int[0];
    } else {
      double p = rnd.nextDouble();
      int[] s = new int[cap];
      int n = 0;
      for (int i = 0; i < cap; i++) {
        if (rnd.nextDouble() < p) {
          s[n++] = i;
        }
      }
      sel = Arrays.copyOf(s, n);
    }
    ColumnVector[] vecs = new ColumnVector[cols.size()];
    Object[][] values = new Object[cols.size()][];
    for (int c = 0; c < cols.size(); c++) {
      Col col = cols.get(c);
      ColumnVector v = Columns.newVector(col.type(), cap);
      Object[] vals = new Object[cap];
      if (rnd.nextDouble() < shape.repeatRate()) {
        Object x = col.draw(rnd);
        Arrays.fill(vals, x);
        set(v, col.type(), 0, x);
        for (int i = 1; i < cap; i++) { // garbage the engine must not read
          set(v, col.type(), i, rnd.nextInt(3) == 0 ? null : col.draw(rnd));
        }
        v.noNulls = x != null && rnd.nextBoolean();
        v.isRepeating = true;
      } else {
        boolean noNulls = rnd.nextDouble() < shape.noNullRate();
        for (int i = 0; i < cap; i++) {
          Object x = col.draw(rnd);
          while (noNulls && x == null) {
            x = col.draw(rnd);
          }
          vals[i] = x;
          set(v, col.type(), i, x);
        }
        if (noNulls) {
          v.noNulls = true;
        }
      }
      vecs[c] = v;
      values[c] = vals;
    }
    List<Object[]> rows = new ArrayList<>(sel.length);
    for (int r : sel) {
      Object[] row = new Object[cols.size()];
      for (int c = 0; c < row.length; c++) {
        row[c] = values[c][r];
      }
      rows.add(row);
    }
    return new Generated(new Batch(vecs, sel, sel.length), rows);
  }

  /** The selected rows of a batch as plain values. */
  public static List<Object[]> rows(Batch b, List<DataType> types) {
    List<Object[]> out = new ArrayList<>(b.size());
    for (int k = 0; k < b.size(); k++) {
      int r = b.sel()[k];
      Object[] row = new Object[types.size()];
      for (int c = 0; c < row.length; c++) {
        row[c] = get(b.cols()[c], types.get(c), r);
      }
      out.add(row);
    }
    return out;
  }

  /** A plain vector of {@code values} (null = NULL). */
  public static ColumnVector vector(DataType type, Object... values) {
    ColumnVector v = Columns.newVector(type, values.length);
    for (int i = 0; i < values.length; i++) {
      set(v, type, i, values[i]);
    }
    return v;
  }
}
