package dev.travertine.mergetree.schema;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.time.LocalDate;
import java.util.Locale;

/**
 * A PARTITION BY expression the engine evaluates per row: a column, or one of ClickHouse's
 * date functions (toYYYYMM, toYYYYMMDD, toYear, toMonth) of a DATE/TIMESTAMP column, or
 * {@code intDiv(col, n)} / {@code col % n} of an integer column. Pruning uses the min/max of the
 * underlying column, which every one of these is monotone in (except modulo, which prunes on its
 * own value).
 */
public record PartitionExpression(String function, String column, long argument) {

  /** Functions and their meaning; identity means the column's own value. */
  public static final String IDENTITY = "identity";

  @JsonCreator
  public PartitionExpression(@JsonProperty("function") String function,
      @JsonProperty("column") String column, @JsonProperty("argument") long argument) {
    this.function = function.toLowerCase(Locale.ROOT);
    this.column = column;
    this.argument = argument;
    switch (this.function) {
      case IDENTITY, "toyyyymm", "toyyyymmdd", "toyear", "tomonth" -> { }
      case "intdiv", "modulo" -> {
        if (argument <= 0) {
          throw new IllegalArgumentException("Invalid PARTITION BY " + function + ": divisor must be > 0");
        }
      }
      default -> throw new IllegalArgumentException("Unsupported PARTITION BY function: " + function
          + " (supported: a column, toYYYYMM, toYYYYMMDD, toYear, toMonth, intDiv(col, n), col % n)");
    }
  }

  public static PartitionExpression identity(String column) {
    return new PartitionExpression(IDENTITY, column, 0);
  }

  /** Validates the expression against the column's type. */
  public void validate(DataType type) {
    boolean date = type.kind() == TypeKind.DATE || type.kind() == TypeKind.TIMESTAMP;
    switch (function) {
      case "toyyyymm", "toyyyymmdd", "toyear", "tomonth" -> {
        if (!date) {
          throw new IllegalArgumentException(function + "() needs a DATE or TIMESTAMP column, not " + type);
        }
      }
      case "intdiv", "modulo" -> {
        if (!type.kind().isLongBacked() || type.kind() == TypeKind.DATE || type.kind() == TypeKind.BOOLEAN) {
          throw new IllegalArgumentException(function + "() needs an integer column, not " + type);
        }
      }
      default -> {
        if (type.kind() == TypeKind.REAL || type.kind() == TypeKind.DOUBLE) {
          throw new IllegalArgumentException("Cannot partition by a floating-point column: " + column);
        }
      }
    }
  }

  /** Whether pruning by the column's min/max is valid (the expression is monotone in the column). */
  public boolean isMonotone() {
    return !function.equals("modulo");
  }

  /**
   * The partition id of one value (storage representation, see {@link TypeKind}); safe for file
   * names. Null values get the id "null".
   */
  public String partitionId(DataType type, Object value) {
    if (value == null) {
      return "null";
    }
    switch (function) {
      case "toyyyymm", "toyyyymmdd", "toyear", "tomonth" -> {
        long days = type.kind() == TypeKind.DATE
            ? ((Number) value).longValue()
            : Math.floorDiv(((Number) value).longValue(), 86_400_000L);
        LocalDate d = LocalDate.ofEpochDay(days);
        return switch (function) {
          case "toyyyymm" -> Integer.toString(d.getYear() * 100 + d.getMonthValue());
          case "toyyyymmdd" -> Integer.toString(d.getYear() * 10000 + d.getMonthValue() * 100 + d.getDayOfMonth());
          case "toyear" -> Integer.toString(d.getYear());
          default -> Integer.toString(d.getMonthValue());
        };
      }
      case "intdiv" -> {
        return Long.toString(Math.floorDiv(((Number) value).longValue(), argument));
      }
      case "modulo" -> {
        return Long.toString(((Number) value).longValue() % argument);
      }
      default -> {
        return identityId(type, value);
      }
    }
  }

  private static String identityId(DataType type, Object value) {
    return switch (type.kind()) {
      case BOOLEAN -> ((Boolean) value) ? "1" : "0";
      case TINYINT, SMALLINT, INTEGER, BIGINT, DATE, TIMESTAMP -> value.toString();
      case DECIMAL -> ((java.math.BigDecimal) value).toPlainString();
      default -> {
        String s = value.toString();
        if (s.matches("[A-Za-z0-9]{1,32}")) {
          yield s;
        }
        // Like ClickHouse, a hash where the value is not a safe file name.
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        yield "h" + Long.toHexString(crc.getValue()) + Integer.toHexString(s.length());
      }
    };
  }

  @Override
  public String toString() {
    return switch (function) {
      case IDENTITY -> column;
      case "intdiv" -> "intDiv(" + column + ", " + argument + ")";
      case "modulo" -> column + " % " + argument;
      case "toyyyymm" -> "toYYYYMM(" + column + ")";
      case "toyyyymmdd" -> "toYYYYMMDD(" + column + ")";
      case "toyear" -> "toYear(" + column + ")";
      default -> "toMonth(" + column + ")";
    };
  }
}
