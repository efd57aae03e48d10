package dev.travertine.exec.expr;

import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/** A constant: a repeating vector (NULL when the value is null). */
final class ConstantExpr extends VecExpr {
  final Object value;
  /** The value as a long (long-backed kinds and TIMESTAMP millis), a double, or UTF-8 bytes. */
  final long longValue;
  final double doubleValue;
  final byte[] bytes;
  final BigDecimal decimal;

  ConstantExpr(Object value, DataType type) {
    super(type);
    this.value = value;
    long l = 0;
    double d = 0;
    byte[] s = null;
    BigDecimal dec = null;
    if (value != null) {
      switch (type.kind()) {
        case BOOLEAN -> l = ((Boolean) value) ? 1 : 0;
        case TINYINT, SMALLINT, INTEGER, BIGINT, DATE, TIMESTAMP -> l = ((Number) value).longValue();
        case REAL, DOUBLE -> d = ((Number) value).doubleValue();
        case DECIMAL -> dec = (value instanceof BigDecimal b ? b : new BigDecimal(value.toString()))
            .setScale(type.scale(), java.math.RoundingMode.UNNECESSARY);
        case CHAR, VARCHAR -> s = value.toString().getBytes(StandardCharsets.UTF_8);
      }
    }
    this.longValue = l;
    this.doubleValue = d;
    this.bytes = s;
    this.decimal = dec;
  }

  boolean isNull() {
    return value == null;
  }

  /** The vector, made once: no consumer writes into its input vectors. */
  private ColumnVector vector;

  @Override ColumnVector eval(Batch b) {
    ColumnVector v = vector;
    if (v == null) {
      v = vector = repeating();
    }
    return v;
  }

  private ColumnVector repeating() {
    ColumnVector v = Vecs.alloc(type, 1); // repeating: row 0 stands for every row
    v.isRepeating = true;
    if (value == null) {
      Vecs.setNull(v, 0);
      if (v instanceof BytesColumnVector bv) {
        bv.setRef(0, Vecs.EMPTY, 0, 0);
      }
      return v;
    }
    switch (type.kind()) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE -> ((LongColumnVector) v).vector[0] = longValue;
      case REAL, DOUBLE -> ((DoubleColumnVector) v).vector[0] = doubleValue;
      case DECIMAL -> ((DecimalColumnVector) v).vector[0].set(HiveDecimal.create(decimal));
      case CHAR, VARCHAR -> ((BytesColumnVector) v).setRef(0, bytes, 0, bytes.length);
      case TIMESTAMP -> Vecs.setMillis((TimestampColumnVector) v, 0, longValue);
    }
    return v;
  }

  @Override public int filter(Batch b, int[] out) {
    if (value instanceof Boolean t && t) {
      System.arraycopy(b.sel(), 0, out, 0, b.size());
      return b.size();
    }
    return 0;
  }
}
