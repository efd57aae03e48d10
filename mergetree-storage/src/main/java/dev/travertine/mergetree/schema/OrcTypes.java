package dev.travertine.mergetree.schema;

import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.util.List;
import org.apache.orc.TypeDescription;

/**
 * The one mapping between our column types ({@link DataType}) and ORC's: how a part stores a
 * column, and which column type reads a plain ORC file's field.
 *
 * <p>A column has a <em>logical</em> ORC type ({@link #of}: what parts' metadata, schema
 * evolution and statistics speak of) and a <em>stored</em> one ({@link #stored}: what the file
 * holds). They differ for DECIMAL of up to 18 digits in parts of format 2 and later: the file holds
 * the scaled value as an ORC {@code bigint} (run-length coded like any integer; ORC's own decimal
 * stream is a varint and a scale per value, read a byte at a time), with the attribute
 * {@value #DECIMAL_ATTRIBUTE} = {@code "precision,scale"} so the file says what it holds
 * (docs/design/storage-format.md).
 */
public final class OrcTypes {
  private OrcTypes() {}

  /** Part format 1: every column in its logical ORC type. */
  public static final int FORMAT_ORC_TYPES = 1;

  /** Part format 2: DECIMAL columns of up to 18 digits stored as scaled {@code bigint}s. */
  public static final int FORMAT_SCALED_DECIMALS = 2;

  /** The format new parts are written in. */
  public static final int CURRENT_FORMAT = FORMAT_SCALED_DECIMALS;

  /** The attribute of a stored {@code bigint} that holds a DECIMAL's scaled values: {@code "precision,scale"}. */
  public static final String DECIMAL_ATTRIBUTE = "travertine.decimal";

  /**
   * The attribute our in-memory logical file schemas put on a DECIMAL field whose file holds it as
   * scaled longs (value {@code "true"}); never written to a file.
   */
  public static final String SCALED_ATTRIBUTE = "travertine.scaled";

  /** Whether parts of {@code format} store a DECIMAL of this precision as scaled longs. */
  public static boolean storesScaled(int format, int precision) {
    return format >= FORMAT_SCALED_DECIMALS && precision <= TypeDescription.MAX_DECIMAL64_PRECISION;
  }

  /** The ORC type a part of {@code format} stores a column of this type in. */
  public static TypeDescription stored(DataType type, int format) {
    if (type.kind() == TypeKind.DECIMAL && storesScaled(format, type.precision())) {
      return TypeDescription.createLong().setAttribute(DECIMAL_ATTRIBUTE, type.precision() + "," + type.scale());
    }
    return of(type);
  }

  /**
   * The logical form of a part file's struct schema: a {@code bigint} that stores scaled decimals
   * (its {@link #DECIMAL_ATTRIBUTE}) reads as its DECIMAL type, marked {@link #SCALED_ATTRIBUTE}.
   */
  public static TypeDescription logical(TypeDescription fileSchema) {
    if (fileSchema.getCategory() != TypeDescription.Category.STRUCT) {
      return fileSchema;
    }
    boolean any = false;
    for (TypeDescription f : fileSchema.getChildren()) {
      any |= f.getAttributeValue(DECIMAL_ATTRIBUTE) != null;
    }
    if (!any) {
      return fileSchema;
    }
    TypeDescription out = TypeDescription.createStruct();
    List<String> names = fileSchema.getFieldNames();
    for (int i = 0; i < names.size(); i++) {
      TypeDescription f = fileSchema.getChildren().get(i);
      String d = f.getAttributeValue(DECIMAL_ATTRIBUTE);
      if (d == null) {
        out.addField(names.get(i), f.clone());
      } else {
        String[] ps = d.split(",");
        out.addField(names.get(i), TypeDescription.createDecimal().withScale(Integer.parseInt(ps[1].trim()))
            .withPrecision(Integer.parseInt(ps[0].trim())).setAttribute(SCALED_ATTRIBUTE, "true"));
      }
    }
    return out;
  }

  /**
   * The logical file schema a part's metadata records ({@link TypeDescription#toString} of the
   * logical types), with the DECIMAL fields that a part of {@code format} stores as scaled longs
   * marked {@link #SCALED_ATTRIBUTE}.
   */
  public static TypeDescription parseLogical(String schema, int format) {
    TypeDescription t = TypeDescription.fromString(schema);
    if (t.getCategory() == TypeDescription.Category.STRUCT) {
      for (TypeDescription f : t.getChildren()) {
        if (f.getCategory() == TypeDescription.Category.DECIMAL && storesScaled(format, f.getPrecision())) {
          f.setAttribute(SCALED_ATTRIBUTE, "true");
        }
      }
    }
    return t;
  }

  /** Whether a logical file field is stored as scaled longs. */
  public static boolean isScaled(TypeDescription logicalField) {
    return logicalField.getAttributeValue(SCALED_ATTRIBUTE) != null;
  }

  /** The logical ORC type of a column of this type (what parts written in format 1 store). */
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
