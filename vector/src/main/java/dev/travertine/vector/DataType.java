package dev.travertine.vector;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

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

  @Override
  public String toString() {
    return switch (kind) {
      case DECIMAL -> "DECIMAL(" + precision + ", " + scale + ")";
      case CHAR, VARCHAR -> precision >= 0 ? kind + "(" + precision + ")" : kind.name();
      default -> kind.name();
    };
  }
}
