package org.apache.calcite.jdbc;

import java.sql.Types;
import java.util.List;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.schema.Table;

/**
 * Calcite's getColumns rows as GUI clients expect them: TYPE_NAME without the nullability and
 * precision ("INTEGER", not "INTEGER NOT NULL"; "DECIMAL", not "DECIMAL(12, 2)": NULLABLE,
 * COLUMN_SIZE and DECIMAL_DIGITS say those), and a COLUMN_SIZE and
 * DECIMAL_DIGITS for every type (Calcite reports -1 where the type has no declared precision,
 * and DBeaver then draws a column of width -1).
 */
final class TravertineMetaColumnFactory implements CalciteMetaColumnFactory {
  static final TravertineMetaColumnFactory INSTANCE = new TravertineMetaColumnFactory();

  private TravertineMetaColumnFactory() {}

  @Override public MetaImpl.MetaColumn createColumn(Table table, String tableCat, String tableSchem,
      String tableName, String columnName, int dataType, String typeName, Integer columnSize,
      Integer decimalDigits, int numPrecRadix, int nullable, Integer charOctetLength, int ordinalPosition,
      String isNullable) {
    String type = typeName.endsWith(" NOT NULL") ? typeName.substring(0, typeName.length() - 9) : typeName;
    int paren = type.indexOf('(');
    if (paren > 0) {
      type = type.substring(0, paren); // "DECIMAL(12, 2)": COLUMN_SIZE and DECIMAL_DIGITS carry the numbers
    }
    Integer size = columnSize == null || columnSize < 0 ? defaultSize(dataType) : columnSize;
    Integer digits = decimalDigits == null || decimalDigits < 0 ? defaultDigits(dataType) : decimalDigits;
    Integer octets = charOctetLength == null || charOctetLength < 0
        ? (dataType == Types.VARCHAR || dataType == Types.CHAR ? size : null) : charOctetLength;
    return CalciteMetaColumnFactoryImpl.INSTANCE.createColumn(table, tableCat, tableSchem, tableName, columnName,
        dataType, type, size, digits, numPrecRadix, nullable, octets, ordinalPosition, isNullable);
  }

  /** The display size of a type without a declared precision (as PostgreSQL's driver reports them). */
  static Integer defaultSize(int sqlType) {
    return switch (sqlType) {
      case Types.BOOLEAN, Types.BIT -> 1;
      case Types.TINYINT -> 3;
      case Types.SMALLINT -> 5;
      case Types.INTEGER -> 10;
      case Types.BIGINT -> 19;
      case Types.REAL -> 8;
      case Types.FLOAT, Types.DOUBLE -> 17;
      case Types.DATE -> 10;
      case Types.TIME -> 8;
      case Types.TIMESTAMP -> 23;
      case Types.VARCHAR, Types.CHAR, Types.VARBINARY, Types.BINARY -> Integer.MAX_VALUE;
      default -> null;
    };
  }

  static Integer defaultDigits(int sqlType) {
    return switch (sqlType) {
      case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> 0;
      case Types.TIMESTAMP -> 3;
      default -> null;
    };
  }

  @Override public List<String> getColumnNames() {
    return CalciteMetaColumnFactoryImpl.INSTANCE.getColumnNames();
  }

  @Override public Class<? extends MetaImpl.MetaColumn> getMetaColumnClass() {
    return CalciteMetaColumnFactoryImpl.INSTANCE.getMetaColumnClass();
  }
}
