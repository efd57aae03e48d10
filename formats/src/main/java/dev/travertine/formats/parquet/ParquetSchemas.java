package dev.travertine.formats.parquet;

import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * Travertine column types for Parquet's and back. Reading: BOOLEAN, INT32 (TINYINT/SMALLINT/
 * INTEGER by the INT annotation, DATE, DECIMAL; unsigned widened), INT64 (BIGINT, TIMESTAMP in
 * any unit, DECIMAL; unsigned as DECIMAL(20, 0)), INT96 timestamps, FLOAT, DOUBLE, and
 * BINARY/FIXED_LEN_BYTE_ARRAY as VARCHAR or DECIMAL. OPTIONAL columns are nullable, REQUIRED ones
 * NOT NULL. Nested types (groups, LIST, MAP, repeated fields) and TIME are refused by name.
 * Writing: each type as the annotated physical type DuckDB, Spark and ClickHouse read back as
 * the same type (TIMESTAMP as INT64 milliseconds, not adjusted to UTC, since Travertine's
 * TIMESTAMP has no time zone).
 */
public final class ParquetSchemas {
  private ParquetSchemas() {}

  /** The columns of a file's schema; {@code file} names it in errors. */
  public static TableSchema tableSchema(MessageType m, String file) {
    List<Column> cols = new ArrayList<>();
    for (Type t : m.getFields()) {
      cols.add(new Column(t.getName(), dataType(t, file), t.getRepetition() != Type.Repetition.REQUIRED));
    }
    if (cols.isEmpty()) {
      throw new IllegalArgumentException("Cannot read " + file + ": its Parquet schema has no columns");
    }
    return new TableSchema(cols);
  }

  /** The column type that reads a Parquet field, or a clear error. */
  public static DataType dataType(Type t, String file) {
    if (!t.isPrimitive() || t.getRepetition() == Type.Repetition.REPEATED) {
      throw new IllegalArgumentException("Cannot read " + file + ": column " + t.getName()
          + " is of a nested Parquet type (" + describe(t) + "); only columns of scalar types can be read");
    }
    PrimitiveType p = t.asPrimitiveType();
    LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
    switch (p.getPrimitiveTypeName()) {
      case BOOLEAN:
        return DataType.of(TypeKind.BOOLEAN);
      case INT32:
        if (a instanceof IntLogicalTypeAnnotation i) {
          int bits = i.getBitWidth() + (i.isSigned() ? 0 : 1);
          return DataType.of(bits <= 8 ? TypeKind.TINYINT : bits <= 16 ? TypeKind.SMALLINT
              : bits <= 32 ? TypeKind.INTEGER : TypeKind.BIGINT);
        }
        if (a instanceof DecimalLogicalTypeAnnotation d) {
          return DataType.decimal(d.getPrecision(), d.getScale());
        }
        if (a instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
          return DataType.of(TypeKind.DATE);
        }
        if (a == null) {
          return DataType.of(TypeKind.INTEGER);
        }
        break;
      case INT64:
        if (a instanceof IntLogicalTypeAnnotation i) {
          return i.isSigned() ? DataType.of(TypeKind.BIGINT) : DataType.decimal(20, 0);
        }
        if (a instanceof DecimalLogicalTypeAnnotation d) {
          return DataType.decimal(d.getPrecision(), d.getScale());
        }
        if (a instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) {
          return DataType.of(TypeKind.TIMESTAMP);
        }
        if (a == null) {
          return DataType.of(TypeKind.BIGINT);
        }
        break;
      case INT96:
        return DataType.of(TypeKind.TIMESTAMP);
      case FLOAT:
        return DataType.of(TypeKind.REAL);
      case DOUBLE:
        return DataType.of(TypeKind.DOUBLE);
      case BINARY:
      case FIXED_LEN_BYTE_ARRAY:
        if (a instanceof DecimalLogicalTypeAnnotation d) {
          if (d.getPrecision() > 38) {
            throw new IllegalArgumentException("Cannot read " + file + ": column " + t.getName() + " is "
                + describe(t) + "; DECIMAL holds at most 38 digits");
          }
          return DataType.decimal(d.getPrecision(), d.getScale());
        }
        return DataType.varchar(-1);
      default:
        break;
    }
    throw new IllegalArgumentException("Cannot read " + file + ": column " + t.getName() + " is of Parquet type "
        + describe(t) + ", which Travertine has no type for");
  }

  private static String describe(Type t) {
    if (!t.isPrimitive()) {
      LogicalTypeAnnotation a = t.getLogicalTypeAnnotation();
      return a != null ? a.toString() : "STRUCT";
    }
    PrimitiveType p = t.asPrimitiveType();
    String s = t.getRepetition() == Type.Repetition.REPEATED ? "repeated " : "";
    s += p.getPrimitiveTypeName().name();
    LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
    return a == null ? s : s + " " + a;
  }

  /** The Parquet schema a table's rows are written with. */
  public static MessageType messageType(TableSchema schema) {
    Types.MessageTypeBuilder b = Types.buildMessage();
    for (Column c : schema.columns()) {
      Type.Repetition r = c.nullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
      DataType t = c.type();
      PrimitiveType f = switch (t.kind()) {
        case BOOLEAN -> Types.primitive(PrimitiveTypeName.BOOLEAN, r).named(c.name());
        case TINYINT -> Types.primitive(PrimitiveTypeName.INT32, r).as(LogicalTypeAnnotation.intType(8, true))
            .named(c.name());
        case SMALLINT -> Types.primitive(PrimitiveTypeName.INT32, r).as(LogicalTypeAnnotation.intType(16, true))
            .named(c.name());
        case INTEGER -> Types.primitive(PrimitiveTypeName.INT32, r).named(c.name());
        case BIGINT -> Types.primitive(PrimitiveTypeName.INT64, r).named(c.name());
        case REAL -> Types.primitive(PrimitiveTypeName.FLOAT, r).named(c.name());
        case DOUBLE -> Types.primitive(PrimitiveTypeName.DOUBLE, r).named(c.name());
        case DECIMAL -> {
          var dec = LogicalTypeAnnotation.decimalType(t.scale(), t.precision());
          if (t.precision() <= 9) {
            yield Types.primitive(PrimitiveTypeName.INT32, r).as(dec).named(c.name());
          }
          if (t.precision() <= 18) {
            yield Types.primitive(PrimitiveTypeName.INT64, r).as(dec).named(c.name());
          }
          yield Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, r).length(decimalBytes(t.precision()))
              .as(dec).named(c.name());
        }
        case CHAR, VARCHAR -> Types.primitive(PrimitiveTypeName.BINARY, r).as(LogicalTypeAnnotation.stringType())
            .named(c.name());
        case DATE -> Types.primitive(PrimitiveTypeName.INT32, r).as(LogicalTypeAnnotation.dateType())
            .named(c.name());
        case TIMESTAMP -> Types.primitive(PrimitiveTypeName.INT64, r)
            .as(LogicalTypeAnnotation.timestampType(false, TimeUnit.MILLIS)).named(c.name());
      };
      b.addField(f);
    }
    return b.named("schema");
  }

  /** Bytes of the two's complement of the largest unscaled value of {@code precision} digits. */
  static int decimalBytes(int precision) {
    return (int) Math.ceil((precision * Math.log(10) / Math.log(2) + 1) / 8);
  }
}
