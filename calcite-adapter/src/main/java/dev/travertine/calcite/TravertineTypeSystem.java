package dev.travertine.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type system with one change users of ClickHouse, DuckDB and PostgreSQL expect: SUM of
 * an integer column is a BIGINT, so summing INTEGERs does not overflow at 2^31.
 */
public final class TravertineTypeSystem extends RelDataTypeSystemImpl {
  public static final TravertineTypeSystem INSTANCE = new TravertineTypeSystem();

  @Override public RelDataType deriveSumType(RelDataTypeFactory tf, RelDataType argumentType) {
    switch (argumentType.getSqlTypeName()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
        return tf.createTypeWithNullability(tf.createSqlType(SqlTypeName.BIGINT), argumentType.isNullable());
      default:
        return super.deriveSumType(tf, argumentType);
    }
  }
}
