package dev.travertine.mergetree.schema;

import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import org.apache.orc.TypeDescription;

/**
 * The one mapping between our column types ({@link DataType}) and ORC's: how a part stores a
 * column, and which column type reads a plain ORC file's field.
 */
public final class OrcTypes {
  private OrcTypes() {}

  /** The ORC type that stores a column of this type. */
  public static TypeDescription of(DataType type) {
    return switch (type.kind()) {
      case BOOLEAN -> TypeDescription.createBoolean();
      case TINYINT -> TypeDescription.createByte();
      case SMALLINT -> TypeDescription.createShort();
      case INTEGER -> TypeDescription.createInt();
      case BIGINT -> TypeDescription.createLong();
      case REAL -> TypeDescription.createFloat();
      case DOUBLE -> TypeDescription.createDouble();
      case DECIMAL -> TypeDescription.createDecimal().withScale(type.scale()).withPrecision(type.precision());
      case CHAR, VARCHAR -> TypeDescription.createString();
      case DATE -> TypeDescription.createDate();
      case TIMESTAMP -> TypeDescription.createTimestamp();
    };
  }

  /** The column type that reads an ORC type (plain ORC files), or a clear error for nested types. */
  public static DataType fromOrc(TypeDescription t) {
    return switch (t.getCategory()) {
      case BOOLEAN -> DataType.of(TypeKind.BOOLEAN);
      case BYTE -> DataType.of(TypeKind.TINYINT);
      case SHORT -> DataType.of(TypeKind.SMALLINT);
      case INT -> DataType.of(TypeKind.INTEGER);
      case LONG -> DataType.of(TypeKind.BIGINT);
      case FLOAT -> DataType.of(TypeKind.REAL);
      case DOUBLE -> DataType.of(TypeKind.DOUBLE);
      case DECIMAL -> DataType.decimal(t.getPrecision(), t.getScale());
      case STRING -> DataType.varchar(-1);
      case VARCHAR -> DataType.varchar(t.getMaxLength());
      case CHAR -> new DataType(TypeKind.CHAR, t.getMaxLength(), -1);
      case DATE -> DataType.of(TypeKind.DATE);
      case TIMESTAMP, TIMESTAMP_INSTANT -> DataType.of(TypeKind.TIMESTAMP);
      default -> throw new IllegalArgumentException("Unsupported ORC type " + t + " (supported: scalar types)");
    };
  }
}
