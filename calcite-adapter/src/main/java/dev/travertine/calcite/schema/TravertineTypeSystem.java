package dev.travertine.calcite.schema;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type system with the changes users of ClickHouse, DuckDB and PostgreSQL expect: SUM of
 * an integer column is a BIGINT, so summing INTEGERs does not overflow at 2^31; DECIMAL goes to 38
 * digits (Calcite stops at 19), as in DuckDB and ORC, so {@code price * (1 - discount) * (1 + tax)}
 * keeps its exact type; SUM of a DECIMAL is a DECIMAL(38) of the argument's scale (DuckDB's
 * HUGEINT-backed sum); AVG of a DECIMAL is a DOUBLE.
 */
public final class TravertineTypeSystem extends RelDataTypeSystemImpl {
  public static final TravertineTypeSystem INSTANCE = new TravertineTypeSystem();
  /** The most digits of a DECIMAL: ORC's and Hive's limit, DuckDB's too. */
  public static final int MAX_DECIMAL_PRECISION = 38;

  /**
   * CASE and UNION branches of strings of different lengths ({@code if(c, 'one', 'other')}) are a
   * VARCHAR, not a CHAR padded to the longest: no engine a user compares us with pads them.
   */
  @Override public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }

  @Override public int getMaxNumericPrecision() {
    return MAX_DECIMAL_PRECISION;
  }

  @Override public int getMaxPrecision(SqlTypeName typeName) {
    return typeName == SqlTypeName.DECIMAL ? MAX_DECIMAL_PRECISION : super.getMaxPrecision(typeName);
  }

  @Override public RelDataType deriveSumType(RelDataTypeFactory tf, RelDataType argumentType) {
    switch (argumentType.getSqlTypeName()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
        return tf.createTypeWithNullability(tf.createSqlType(SqlTypeName.BIGINT), argumentType.isNullable());
      case DECIMAL:
        return tf.createTypeWithNullability(
            tf.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL_PRECISION, argumentType.getScale()),
            argumentType.isNullable());
      default:
        return super.deriveSumType(tf, argumentType);
    }
  }

  /**
   * AVG of a DECIMAL is a DOUBLE, as in DuckDB and ClickHouse: Calcite keeps the argument's scale
   * ({@code avg(l_quantity)} of DECIMAL(15, 2) would be 25.52 where they answer 25.522005…).
   */
  @Override public RelDataType deriveAvgAggType(RelDataTypeFactory tf, RelDataType argumentType) {
    if (argumentType.getSqlTypeName() == SqlTypeName.DECIMAL) {
      return tf.createTypeWithNullability(tf.createSqlType(SqlTypeName.DOUBLE), argumentType.isNullable());
    }
    return super.deriveAvgAggType(tf, argumentType);
  }
}
