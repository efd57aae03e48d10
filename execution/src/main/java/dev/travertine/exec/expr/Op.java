package dev.travertine.exec.expr;

/**
 * Operators of {@link Expr.Call}. Semantics are Calcite's (the reference the differential tests
 * compare with): NULL in, NULL out unless said otherwise; integer arithmetic in the result type
 * (Java wrap-around for INTEGER/BIGINT as Calcite's generated code does; DECIMAL exact).
 */
public enum Op {
  // Arithmetic: two operands already of (or castable to) the result type; NEGATE one.
  PLUS, MINUS, TIMES, DIVIDE, MOD, NEGATE,
  /** CAST(arg AS type()): between all engine types, as Calcite's CAST. */
  CAST,
  // Comparisons of two operands of the same type family (the adapter adds widening casts).
  EQ, NE, LT, LE, GT, GE,
  /** a IS [NOT] DISTINCT FROM b: never NULL. */
  IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM,
  // Three-valued logic over BOOLEAN operands; AND/OR take two or more.
  AND, OR, NOT,
  // Never NULL.
  IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE,
  /** CASE: args are when1, then1, when2, then2, ..., else (an odd count; else may be a NULL constant). */
  CASE,
  /** COALESCE(a, b, ...). */
  COALESCE,
  /** NULLIF(a, b). */
  NULLIF,
  /** value IN (c1, c2, ...): args[0] the value, the rest constants of its type. */
  IN,
  /** value NOT IN (c1, ...): as NOT(IN). */
  NOT_IN,
  /** LIKE(value, pattern constant [, escape constant]). */
  LIKE,
  NOT_LIKE,
  /** CHAR_LENGTH(string): in characters. */
  CHAR_LENGTH,
  /** SUBSTRING(string, from [, length]): 1-based, in characters, SQL semantics. */
  SUBSTRING,
  LOWER, UPPER,
  /** POSITION(needle IN string): 1-based index (in characters) of the first occurrence, 0 if none. */
  POSITION,
  /** string || string (the result type is VARCHAR). */
  CONCAT,
  /** EXTRACT(unit FROM date/timestamp): args[0] a VARCHAR constant naming the unit (YEAR, MONTH, DAY, ...). */
  EXTRACT,
  /** date/timestamp + interval: args[1] a BIGINT milliseconds (day-time interval) operand. */
  DATETIME_PLUS_MILLIS,
  /** date/timestamp + interval: args[1] an INTEGER months (year-month interval) operand. */
  DATETIME_PLUS_MONTHS,
  /** date/timestamp - interval: as the PLUS forms with the operand negated. */
  DATETIME_MINUS_MILLIS,
  DATETIME_MINUS_MONTHS
}
