package dev.travertine.mergetree.part;

import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.expressions.StringExpr;
import org.apache.hadoop.hive.serde2.io.HiveDecimalWritable;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.orc.TypeDescription;

/**
 * DECIMAL columns a part stores as scaled longs ({@code OrcTypes.FORMAT_SCALED_DECIMALS}) read into
 * a vector of another form or type: Hive's decimal objects (batches made for objects: merges,
 * mutations, CHECK), or the column's type after an ALTER ... MODIFY COLUMN. The conversions are
 * ORC's own for a file DECIMAL read as another type (its {@code ConvertTreeReaderFactory}), so a
 * part answers the same in either format: a DECIMAL is rounded to the new scale and NULL when it no
 * longer fits, an integer is the value truncated and NULL out of the type's range, a string is the
 * decimal's text cut to the type's length.
 */
final class ScaledDecimalReads {
  private ScaledDecimalReads() {}

  /** A vector ORC's {@code bigint} reader fills with a file's scaled values ({@code fileType}: its DECIMAL). */
  static Decimal64ColumnVector scratch(int size, TypeDescription fileType) {
    return new Decimal64ColumnVector(size, fileType.getPrecision(), fileType.getScale());
  }

  /**
   * Converts positions {@code [0, rows)} of {@code src} (scaled values) into {@code dst}, a vector
   * for {@code readerType} (the table's logical ORC type), nulls and repetition included.
   */
  static void convert(Decimal64ColumnVector src, int rows, ColumnVector dst, TypeDescription readerType) {
    dst.reset();
    dst.isRepeating = src.isRepeating;
    int n = src.isRepeating ? Math.min(rows, 1) : rows;
    HiveDecimalWritable w = new HiveDecimalWritable();
    byte[] text = null;
    for (int i = 0; i < n; i++) {
      if (!src.noNulls && src.isNull[i]) {
        dst.isNull[i] = true;
        dst.noNulls = false;
        continue;
      }
      dst.isNull[i] = false;
      long unscaled = src.vector[i];
      if (dst instanceof Decimal64ColumnVector d && d.scale == src.scale && d.precision >= src.precision) {
        d.vector[i] = unscaled;
        continue;
      }
      w.deserialize64(unscaled, src.scale);
      switch (readerType.getCategory()) {
        case DECIMAL -> {
          if (dst instanceof Decimal64ColumnVector d) {
            d.set(i, w);
          } else {
            ((DecimalColumnVector) dst).set(i, w);
          }
        }
        case BOOLEAN -> ((LongColumnVector) dst).vector[i] = w.signum() == 0 ? 0 : 1;
        case BYTE, SHORT, INT, LONG -> integer((LongColumnVector) dst, i, w, readerType.getCategory());
        case FLOAT, DOUBLE -> ((DoubleColumnVector) dst).vector[i] = w.doubleValue();
        case STRING, CHAR, VARCHAR -> {
          if (text == null) {
            text = new byte[HiveDecimal.SCRATCH_BUFFER_LEN_TO_BYTES];
          }
          int start = w.toBytes(text);
          int length = text.length - start;
          if (readerType.getCategory() == TypeDescription.Category.CHAR) {
            length = StringExpr.rightTrimAndTruncate(text, start, length, readerType.getMaxLength());
          } else if (readerType.getCategory() == TypeDescription.Category.VARCHAR) {
            length = StringExpr.truncate(text, start, length, readerType.getMaxLength());
          }
          ((BytesColumnVector) dst).setVal(i, text, start, length);
        }
        default -> throw new IllegalStateException("A DECIMAL column cannot be read as " + readerType);
      }
    }
  }

  private static void integer(LongColumnVector dst, int i, HiveDecimalWritable w, TypeDescription.Category type) {
    boolean inRange = switch (type) {
      case BYTE -> w.isByte();
      case SHORT -> w.isShort();
      case INT -> w.isInt();
      default -> w.isLong();
    };
    if (!inRange) {
      dst.isNull[i] = true;
      dst.noNulls = false;
      return;
    }
    dst.vector[i] = switch (type) {
      case BYTE -> w.byteValue();
      case SHORT -> w.shortValue();
      case INT -> w.intValue();
      default -> w.longValue();
    };
  }
}
