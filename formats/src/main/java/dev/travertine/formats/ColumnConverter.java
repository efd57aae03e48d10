package dev.travertine.formats;

import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/**
 * Copies a run of values from a vector of a file column's type into a vector of a table column's
 * type (both in the storage representation of {@link TypeKind}): the same kind by bulk copies,
 * integers to wider or narrower integers (range-checked), to floating point or DECIMAL, DECIMAL to
 * DECIMAL (rescaled, precision-checked), DATE to TIMESTAMP and back, strings to strings (length
 * checked against VARCHAR(n)/CHAR(n), CHAR padded) and strings to numbers, dates and timestamps
 * (parsed as the text loaders do). A NULL in a NOT NULL column takes the column's default, as
 * {@code input_format_null_as_default}. Other pairs are refused when the converter is made, naming
 * both types. A value that does not fit throws {@link BadValue} with its row.
 */
final class ColumnConverter {
  /** A value that does not fit: {@code row} is its position in the source vector. */
  static final class BadValue extends Exception {
    final int row;

    BadValue(int row, String message) {
      super(message, null, false, false);
      this.row = row;
    }
  }

  private final String name;
  private final DataType from;
  private final DataType to;
  private final boolean nullable;
  private final boolean nullAsDefault;
  private final boolean copyStrings;
  private final long defaultLong;
  private final double defaultDouble;
  private final byte[] defaultBytes;
  private final Object defaultValue;

  /**
   * @param nullAsDefault whether a NULL in a NOT NULL column takes the default (else it is a bad value)
   * @param copyStrings whether string bytes must be copied (the source vectors are reused by their
   *     reader) rather than referenced
   * @param defaultValue the storage value a NULL takes in a NOT NULL column (null: the type's zero)
   */
  ColumnConverter(String name, DataType from, DataType to, boolean nullable, boolean nullAsDefault,
      boolean copyStrings, Object defaultValue) {
    this.name = name;
    this.from = from;
    this.to = to;
    this.nullable = nullable;
    this.nullAsDefault = nullAsDefault;
    this.copyStrings = copyStrings;
    if (!convertible(from.kind(), to.kind())) {
      throw new IllegalArgumentException("column " + name + ": cannot load " + from + " values into "
          + to + " (supported: the same type, between numeric types, DATE and TIMESTAMP, and from strings)");
    }
    Object d = defaultValue != null ? defaultValue : nullable ? null : TextParser.zero(to);
    this.defaultValue = d;
    defaultLong = d instanceof Boolean b ? (b ? 1 : 0) : d instanceof Number n ? n.longValue() : 0;
    defaultDouble = d instanceof Number n ? n.doubleValue() : 0;
    defaultBytes = d == null ? null : d.toString().getBytes(StandardCharsets.UTF_8);
  }

  static boolean convertible(TypeKind f, TypeKind t) {
    if (f == t || f.isString()) {
      return true;
    }
    boolean fNum = f.isLongBacked() && f != TypeKind.DATE || f.isDoubleBacked() || f == TypeKind.DECIMAL;
    boolean tNum = t.isLongBacked() && t != TypeKind.DATE || t.isDoubleBacked() || t == TypeKind.DECIMAL;
    if (fNum && tNum) {
      return !(f.isDoubleBacked() && (t.isLongBacked() || t == TypeKind.DECIMAL)); // no silent truncation
    }
    return (f == TypeKind.DATE || f == TypeKind.TIMESTAMP) && (t == TypeKind.DATE || t == TypeKind.TIMESTAMP);
  }

  /**
   * Copies {@code n} values from {@code src[s…]} into {@code dst[d…]}. A repeating {@code src} is
   * the caller's to expand over its whole batch first (FileLoad does): expanding here would reach
   * only {@code s + n}, and a later stretch would read entries never set.
   */
  void convert(ColumnVector src, int s, ColumnVector dst, int d, int n) throws BadValue {
    TypeKind f = from.kind();
    TypeKind t = to.kind();
    boolean nulls = !src.noNulls;
    if (f == t && !t.isString() && t != TypeKind.DECIMAL && !nulls) {
      bulk(src, s, dst, d, n);
      if (!dst.noNulls) { // a position written before (a row skipped as bad) may still say NULL
        java.util.Arrays.fill(dst.isNull, d, d + n, false);
      }
      return;
    }
    for (int i = 0; i < n; i++) {
      if (nulls && src.isNull[s + i]) {
        if (nullable) {
          Vectors.setNull(dst, d + i);
        } else if (nullAsDefault) {
          setDefault(dst, d + i);
        } else {
          throw new BadValue(s + i, "column " + name + ": NULL in a NOT NULL column");
        }
        continue;
      }
      dst.isNull[d + i] = false;
      one(src, s + i, dst, d + i);
    }
  }

  private static void bulk(ColumnVector src, int s, ColumnVector dst, int d, int n) {
    if (src instanceof LongColumnVector a) {
      System.arraycopy(a.vector, s, ((LongColumnVector) dst).vector, d, n);
    } else if (src instanceof DoubleColumnVector a) {
      System.arraycopy(a.vector, s, ((DoubleColumnVector) dst).vector, d, n);
    } else if (src instanceof TimestampColumnVector a) {
      TimestampColumnVector b = (TimestampColumnVector) dst;
      System.arraycopy(a.time, s, b.time, d, n);
      System.arraycopy(a.nanos, s, b.nanos, d, n);
    } else {
      throw new IllegalStateException("no bulk copy for " + src.getClass().getSimpleName());
    }
  }

  private void one(ColumnVector src, int i, ColumnVector dst, int j) throws BadValue {
    TypeKind f = from.kind();
    TypeKind t = to.kind();
    if (f.isString()) {
      BytesColumnVector b = (BytesColumnVector) src;
      if (t.isString()) {
        string(b.vector[i], b.start[i], b.start[i] + b.length[i], (BytesColumnVector) dst, i, j);
      } else {
        parse(b.vector[i], b.start[i], b.start[i] + b.length[i], dst, i, j);
      }
      return;
    }
    if (f == TypeKind.TIMESTAMP || f == TypeKind.DATE) {
      long v = f == TypeKind.DATE ? ((LongColumnVector) src).vector[i] : ((TimestampColumnVector) src).time[i];
      if (t == TypeKind.TIMESTAMP) {
        setMillis((TimestampColumnVector) dst, j, f == TypeKind.DATE ? v * 86_400_000L : v);
      } else {
        ((LongColumnVector) dst).vector[j] = f == TypeKind.DATE ? v : Math.floorDiv(v, 86_400_000L);
      }
      return;
    }
    if (f.isLongBacked()) {
      long v = ((LongColumnVector) src).vector[i];
      switch (t) {
        case REAL, DOUBLE -> ((DoubleColumnVector) dst).vector[j] = v;
        case DECIMAL -> decimal((DecimalColumnVector) dst, i, j,
            new org.apache.hadoop.hive.serde2.io.HiveDecimalWritable(v));
        default -> ((LongColumnVector) dst).vector[j] = checkRange(v, i);
      }
      return;
    }
    if (f.isDoubleBacked()) {
      double v = ((DoubleColumnVector) src).vector[i];
      ((DoubleColumnVector) dst).vector[j] = t == TypeKind.REAL ? (float) v : v;
      return;
    }
    // DECIMAL
    var w = ((DecimalColumnVector) src).vector[i];
    switch (t) {
      case REAL, DOUBLE -> ((DoubleColumnVector) dst).vector[j] = w.doubleValue();
      case DECIMAL -> decimal((DecimalColumnVector) dst, i, j, w);
      default -> {
        if (w.scale() != 0 || !w.isByte() && !w.isShort() && !w.isInt() && !w.isLong()) {
          throw new BadValue(i, "column " + name + ": " + w + " does not fit " + to);
        }
        ((LongColumnVector) dst).vector[j] = checkRange(w.longValue(), i);
      }
    }
  }

  private void decimal(DecimalColumnVector dst, int i, int j, org.apache.hadoop.hive.serde2.io.HiveDecimalWritable w)
      throws BadValue {
    dst.set(j, w);
    if (dst.isNull[j]) {
      throw new BadValue(i, "column " + name + ": " + w + " does not fit " + to);
    }
  }

  private long checkRange(long v, int i) throws BadValue {
    long min;
    long max;
    switch (to.kind()) {
      case BOOLEAN -> {
        min = 0;
        max = 1;
      }
      case TINYINT -> {
        min = Byte.MIN_VALUE;
        max = Byte.MAX_VALUE;
      }
      case SMALLINT -> {
        min = Short.MIN_VALUE;
        max = Short.MAX_VALUE;
      }
      case INTEGER -> {
        min = Integer.MIN_VALUE;
        max = Integer.MAX_VALUE;
      }
      default -> {
        return v;
      }
    }
    if (v < min || v > max) {
      throw new BadValue(i, "column " + name + ": " + v + " is out of range for " + to);
    }
    return v;
  }

  private void string(byte[] b, int s, int e, BytesColumnVector dst, int i, int j) throws BadValue {
    int max = to.precision();
    if (max > 0) {
      int chars = e - s > max ? TextParser.codePoints(b, s, e) : e - s;
      if (chars > max) {
        throw new BadValue(i, "column " + name + ": '" + new String(b, s, Math.min(e - s, 100), StandardCharsets.UTF_8)
            + "' is longer than " + to);
      }
      if (to.kind() == TypeKind.CHAR && chars < max) {
        byte[] padded = new byte[e - s + max - chars];
        System.arraycopy(b, s, padded, 0, e - s);
        java.util.Arrays.fill(padded, e - s, padded.length, (byte) ' ');
        dst.setRef(j, padded, 0, padded.length);
        return;
      }
    }
    if (copyStrings) {
      dst.setVal(j, b, s, e - s);
    } else {
      dst.setRef(j, b, s, e - s);
    }
  }

  private void parse(byte[] b, int s, int e, ColumnVector dst, int i, int j) throws BadValue {
    try {
      switch (to.kind()) {
        case BOOLEAN -> ((LongColumnVector) dst).vector[j] = FieldParsers.parseBoolean(b, s, e) ? 1 : 0;
        case TINYINT, SMALLINT, INTEGER, BIGINT -> ((LongColumnVector) dst).vector[j] =
            checkRange(FieldParsers.parseLong(b, s, e, Long.MIN_VALUE, Long.MAX_VALUE), i);
        case DATE -> ((LongColumnVector) dst).vector[j] = FieldParsers.parseDate(b, s, e);
        case REAL, DOUBLE -> ((DoubleColumnVector) dst).vector[j] = FieldParsers.parseDouble(b, s, e);
        case TIMESTAMP -> setMillis((TimestampColumnVector) dst, j, FieldParsers.parseTimestamp(b, s, e));
        case DECIMAL -> {
          try {
            Vectors.set(dst, to, j, new java.math.BigDecimal(new String(b, s, e - s, StandardCharsets.ISO_8859_1).trim()));
          } catch (NumberFormatException | ArithmeticException ex) {
            throw FieldParsers.BadValue.INSTANCE;
          } catch (IllegalArgumentException ex) {
            throw new BadValue(i, "column " + name + ": '" + new String(b, s, e - s, StandardCharsets.UTF_8)
                + "' does not fit " + to);
          }
        }
        default -> throw new AssertionError(to);
      }
    } catch (FieldParsers.BadValue ex) {
      throw new BadValue(i, "column " + name + ": cannot read '" + new String(b, s, Math.min(e - s, 100),
          StandardCharsets.UTF_8) + "' as " + to);
    }
  }

  /** Writes the column's default (NULL in a nullable column without one) at {@code j}. */
  void setDefault(ColumnVector dst, int j) {
    if (defaultValue == null) {
      Vectors.setNull(dst, j);
      return;
    }
    dst.isNull[j] = false;
    switch (to.kind()) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE -> ((LongColumnVector) dst).vector[j] = defaultLong;
      case REAL, DOUBLE -> ((DoubleColumnVector) dst).vector[j] = defaultDouble;
      case TIMESTAMP -> setMillis((TimestampColumnVector) dst, j, defaultLong);
      case CHAR, VARCHAR -> ((BytesColumnVector) dst).setRef(j, defaultBytes, 0, defaultBytes.length);
      default -> Vectors.set(dst, to, j, defaultValue);
    }
  }

  private static void setMillis(TimestampColumnVector tv, int j, long millis) {
    tv.time[j] = millis;
    tv.nanos[j] = (int) Math.floorMod(millis, 1000L) * 1_000_000;
  }
}
