package dev.travertine.vector;

/**
 * Column types the engine stores, and the Java value each holds at API boundaries: BOOLEAN
 * Boolean, TINYINT Byte, SMALLINT Short, INTEGER Integer, BIGINT Long, REAL Float, DOUBLE Double,
 * DECIMAL BigDecimal, CHAR/VARCHAR String, DATE Integer (days since 1970-01-01), TIMESTAMP Long
 * (milliseconds since 1970-01-01 00:00, no time zone). These match Calcite's internal values.
 */
public enum TypeKind {
  BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, DECIMAL, CHAR, VARCHAR, DATE, TIMESTAMP;

  /** Whether values live in a {@code LongColumnVector}. */
  public boolean isLongBacked() {
    return switch (this) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE -> true;
      default -> false;
    };
  }

  public boolean isDoubleBacked() {
    return this == REAL || this == DOUBLE;
  }

  public boolean isString() {
    return this == CHAR || this == VARCHAR;
  }
}
