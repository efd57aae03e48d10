package dev.travertine.exec.expr;

import static dev.travertine.exec.expr.ExprTestSupport.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.math.BigDecimal;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.junit.jupiter.api.Test;

class CastTest {
  private static Object cast(Object v, DataType from, DataType to) {
    return eval(call(Op.CAST, to, col(0, from)), all(vector(from, v))).get(0);
  }

  @Test void narrowingChecksTheRange() {
    assertEquals((byte) 127, cast(127, INT, TINY));
    ArithmeticException e = assertThrows(ArithmeticException.class, () -> cast(128, INT, TINY));
    assertEquals("Value 128 out of range", e.getMessage());
    assertThrows(ArithmeticException.class, () -> cast(Long.MAX_VALUE, BIG, INT));
    assertEquals(3, cast(3.99, DBL, INT));
    assertEquals(-3, cast(-3.99, DBL, INT));
    assertEquals(0, cast(Double.NaN, DBL, INT));
    assertEquals(Integer.MAX_VALUE, cast(2147483647.5, DBL, INT));
    assertThrows(ArithmeticException.class, () -> cast(1e10, DBL, INT));
    assertThrows(ArithmeticException.class, () -> cast(1e19, DBL, BIG));
    assertEquals(12, cast(new BigDecimal("12.99"), DataType.decimal(4, 2), INT));
    // a NULL row is not checked
    assertEquals(null, cast(null, INT, TINY));
    // rows outside the selection are not converted
    ColumnVector v = vector(INT, 1, 1000, 2);
    assertEquals(list((byte) 1, (byte) 2), eval(call(Op.CAST, TINY, col(0, INT)), batch(new ColumnVector[] {v}, 0, 2)));
  }

  @Test void decimalTruncates() {
    DataType d41 = DataType.decimal(4, 1);
    assertEquals(new BigDecimal("12.3"), cast(new BigDecimal("12.39"), DataType.decimal(10, 2), d41));
    assertEquals(new BigDecimal("-12.3"), cast(new BigDecimal("-12.39"), DataType.decimal(10, 2), d41));
    assertEquals(new BigDecimal("2"), cast(2.9, DBL, DataType.decimal(10, 0)));
    assertThrows(ArithmeticException.class, () -> cast(12345.0, DBL, d41));
    assertEquals(new BigDecimal("12.3"), cast(" 12.36 ", STR, d41));
  }

  @Test void parsesStrings() {
    assertEquals(42, cast(" 42 ", STR, INT));
    assertEquals(-7L, cast("-7", STR, BIG));
    assertEquals((short) 12, cast(" 12", STR, SMALL));
    assertThrows(NumberFormatException.class, () -> cast(" 12", STR, TINY)); // Calcite does not trim here
    assertThrows(NumberFormatException.class, () -> cast("1.5", STR, INT));
    assertThrows(NumberFormatException.class, () -> cast("2147483648", STR, INT));
    assertEquals(1000.0, cast("1e3", STR, DBL));
    assertEquals(true, cast(" TRUE ", STR, BOOL));
    assertEquals(false, cast("false", STR, BOOL));
    assertThrows(IllegalArgumentException.class, () -> cast("yes", STR, BOOL));
    assertEquals(18322, cast("2020-03-01", STR, DATE));
    assertEquals(1577934245678L, cast("2020-01-02 03:04:05.678", STR, TS));
    assertThrows(IllegalArgumentException.class, () -> cast("2020-02-30", STR, DATE));
  }

  @Test void formatsAsCalcite() {
    assertEquals("0E0", cast(0.0, DBL, STR));
    assertEquals("1.0E-5", cast(1e-5, DBL, STR));
    assertEquals("1.5", cast(1.5f, REAL, STR));
    assertEquals(".05", cast(new BigDecimal("0.05"), DataType.decimal(5, 2), STR));
    assertEquals("-.50", cast(new BigDecimal("-0.5"), DataType.decimal(5, 2), STR));
    assertEquals("12.30", cast(new BigDecimal("12.3"), DataType.decimal(5, 2), STR));
    assertEquals("2022-01-08", cast(19000, DATE, STR));
    assertEquals("1969-12-31 23:59:59", cast(-1L, TS, STR));
    assertEquals("TRUE", cast(true, BOOL, STR));
    assertEquals("214", cast(2147483647, INT, DataType.varchar(3)));
    assertEquals("ab  ", cast("ab", STR, new DataType(TypeKind.CHAR, 4, -1)));
    assertEquals(19675, cast(1700000000123L, TS, DATE));
    assertEquals(-1, cast(-1L, TS, DATE));
    assertEquals(86_400_000L, cast(1, DATE, TS));
  }
}
