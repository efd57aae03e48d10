package dev.travertine.mergetree.schema;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.apache.orc.TypeDescription;

/** A column type: its kind plus precision/scale (DECIMAL) or length (CHAR/VARCHAR, -1 = unbounded). */
public record DataType(TypeKind kind, int precision, int scale) {

  @JsonCreator
  public DataType(@JsonProperty("kind") TypeKind kind, @JsonProperty("precision") int precision,
      @JsonProperty("scale") int scale) {
    this.kind = kind;
    this.precision = precision;
    this.scale = scale;
    if (kind == TypeKind.DECIMAL && (precision < 1 || precision > 38 || scale < 0 || scale > precision)) {
      throw new IllegalArgumentException(
          "Invalid DECIMAL(" + precision + ", " + scale + "): precision must be 1..38 and 0 <= scale <= precision");
    }
  }

  public static DataType of(TypeKind kind) {
    return new DataType(kind, -1, -1);
  }

  public static DataType decimal(int precision, int scale) {
    return new DataType(TypeKind.DECIMAL, precision, scale);
  }

  public static DataType varchar(int length) {
    return new DataType(TypeKind.VARCHAR, length, -1);
  }

  /** The ORC type that stores this column. */
  public TypeDescription orcType() {
    return switch (kind) {
      case BOOLEAN -> TypeDescription.createBoolean();
      case TINYINT -> TypeDescription.createByte();
      case SMALLINT -> TypeDescription.createShort();
      case INTEGER -> TypeDescription.createInt();
      case BIGINT -> TypeDescription.createLong();
      case REAL -> TypeDescription.createFloat();
      case DOUBLE -> TypeDescription.createDouble();
      case DECIMAL -> TypeDescription.createDecimal().withScale(scale).withPrecision(precision);
      case CHAR, VARCHAR -> TypeDescription.createString();
      case DATE -> TypeDescription.createDate();
      case TIMESTAMP -> TypeDescription.createTimestamp();
    };
  }

  /** The column type that reads an ORC type (plain ORC files), or a clear error for nested types. */
  public static DataType fromOrc(TypeDescription t) {
    return switch (t.getCategory()) {
      case BOOLEAN -> of(TypeKind.BOOLEAN);
      case BYTE -> of(TypeKind.TINYINT);
      case SHORT -> of(TypeKind.SMALLINT);
      case INT -> of(TypeKind.INTEGER);
      case LONG -> of(TypeKind.BIGINT);
      case FLOAT -> of(TypeKind.REAL);
      case DOUBLE -> of(TypeKind.DOUBLE);
      case DECIMAL -> decimal(t.getPrecision(), t.getScale());
      case STRING -> varchar(-1);
      case VARCHAR -> varchar(t.getMaxLength());
      case CHAR -> new DataType(TypeKind.CHAR, t.getMaxLength(), -1);
      case DATE -> of(TypeKind.DATE);
      case TIMESTAMP, TIMESTAMP_INSTANT -> of(TypeKind.TIMESTAMP);
      default -> throw new IllegalArgumentException("Unsupported ORC type " + t + " (supported: scalar types)");
    };
  }

  @Override
  public String toString() {
    return switch (kind) {
      case DECIMAL -> "DECIMAL(" + precision + ", " + scale + ")";
      case CHAR, VARCHAR -> precision >= 0 ? kind + "(" + precision + ")" : kind.name();
      default -> kind.name();
    };
  }
}
