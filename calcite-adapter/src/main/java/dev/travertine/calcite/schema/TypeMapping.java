package dev.travertine.calcite.schema;

import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.math.BigDecimal;
import java.util.function.UnaryOperator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

/** Maps engine column types to Calcite types and back: the one place the two type systems meet. */
public final class TypeMapping {
  private TypeMapping() {}

  /** TIMESTAMP columns carry milliseconds. */
  public static final int TIMESTAMP_PRECISION = 3;

  public static RelDataType toRelType(RelDataTypeFactory tf, DataType t, boolean nullable) {
    RelDataType r = switch (t.kind()) {
      case BOOLEAN -> tf.createSqlType(SqlTypeName.BOOLEAN);
      case TINYINT -> tf.createSqlType(SqlTypeName.TINYINT);
      case SMALLINT -> tf.createSqlType(SqlTypeName.SMALLINT);
      case INTEGER -> tf.createSqlType(SqlTypeName.INTEGER);
      case BIGINT -> tf.createSqlType(SqlTypeName.BIGINT);
      case REAL -> tf.createSqlType(SqlTypeName.REAL);
      case DOUBLE -> tf.createSqlType(SqlTypeName.DOUBLE);
      case DECIMAL -> tf.createSqlType(SqlTypeName.DECIMAL, t.precision(), t.scale());
      case CHAR -> t.precision() >= 0 ? tf.createSqlType(SqlTypeName.CHAR, t.precision())
          : tf.createSqlType(SqlTypeName.CHAR);
      case VARCHAR -> t.precision() >= 0 ? tf.createSqlType(SqlTypeName.VARCHAR, t.precision())
          : tf.createSqlType(SqlTypeName.VARCHAR);
      case DATE -> tf.createSqlType(SqlTypeName.DATE);
      case TIMESTAMP -> tf.createSqlType(SqlTypeName.TIMESTAMP, TIMESTAMP_PRECISION);
    };
    return tf.createTypeWithNullability(r, nullable);
  }

  public static RelDataType rowType(RelDataTypeFactory tf, TableSchema schema) {
    RelDataTypeFactory.Builder b = tf.builder();
    for (Column c : schema.columns()) {
      b.add(c.name(), toRelType(tf, c.type(), c.nullable()));
    }
    return b.build();
  }

  /** The engine type for a Calcite type, or a clear error for unsupported ones. */
  public static DataType fromRelType(RelDataType t) {
    SqlTypeName n = t.getSqlTypeName();
    return switch (n) {
      case BOOLEAN -> DataType.of(TypeKind.BOOLEAN);
      case TINYINT -> DataType.of(TypeKind.TINYINT);
      case SMALLINT -> DataType.of(TypeKind.SMALLINT);
      case INTEGER -> DataType.of(TypeKind.INTEGER);
      case BIGINT -> DataType.of(TypeKind.BIGINT);
      case REAL -> DataType.of(TypeKind.REAL);
      // FLOAT without a precision is double precision, as in Calcite, PostgreSQL and SQLite.
      case FLOAT, DOUBLE -> DataType.of(TypeKind.DOUBLE);
      case DECIMAL -> DataType.decimal(t.getPrecision(), Math.max(0, t.getScale()));
      case CHAR -> new DataType(TypeKind.CHAR, t.getPrecision(), -1);
      case VARCHAR -> new DataType(TypeKind.VARCHAR,
          t.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED || t.getPrecision() >= 65536 ? -1
              : t.getPrecision(), -1);
      case DATE -> DataType.of(TypeKind.DATE);
      case TIMESTAMP -> DataType.of(TypeKind.TIMESTAMP);
      case NULL -> throw new IllegalArgumentException("Cannot create a column of type NULL; cast it to a type");
      default -> throw new IllegalArgumentException("Unsupported column type: " + t.getFullTypeString());
    };
  }
  /**
   * Converts engine values (as {@link dev.travertine.vector.Vectors#get} returns them) to Calcite's
   * Java values of a SQL type, chosen once per column: an integer that does not fit the type fails.
   */
  public static UnaryOperator<Object> calciteValue(SqlTypeName sqlType) {
    return switch (sqlType) {
      case BIGINT, TIMESTAMP -> v -> v == null ? null : ((Number) v).longValue();
      case INTEGER, DATE -> v -> v == null ? null : (int) checkRange(v, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case SMALLINT -> v -> v == null ? null : (short) checkRange(v, Short.MIN_VALUE, Short.MAX_VALUE);
      case TINYINT -> v -> v == null ? null : (byte) checkRange(v, Byte.MIN_VALUE, Byte.MAX_VALUE);
      case DOUBLE, FLOAT -> v -> v == null ? null : ((Number) v).doubleValue();
      case REAL -> v -> v == null ? null : ((Number) v).floatValue();
      case DECIMAL -> v -> v == null || v instanceof BigDecimal ? v
          : v instanceof Double || v instanceof Float ? BigDecimal.valueOf(((Number) v).doubleValue())
          : BigDecimal.valueOf(((Number) v).longValue());
      case BOOLEAN -> v -> v == null || v instanceof Boolean ? v : ((Number) v).longValue() != 0;
      default -> v -> v;
    };
  }

  private static long checkRange(Object v, long min, long max) {
    long x = ((Number) v).longValue();
    if (x < min || x > max) {
      throw new ArithmeticException("Value " + x + " out of range");
    }
    return x;
  }
}
