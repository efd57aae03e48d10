package dev.travertine.exec.expr;

import static dev.travertine.exec.expr.ExprTestSupport.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.LocalDate;
import java.time.temporal.ChronoField;
import java.time.temporal.IsoFields;
import java.util.Random;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.junit.jupiter.api.Test;

class StringDateTest {
  @Test void lengthsAndSubstringsCountCharacters() {
    ColumnVector s = vector(STR, "héllo", "中文字", "", null, "a😀b");
    assertEquals(list(5L, 3L, 0L, null, 4L), longs(eval(call(Op.CHAR_LENGTH, INT, col(0, STR)), all(s))));
    // positions count UTF-16 units, as in Calcite: the emoji is two
    assertEquals(list("éll", "文字", "", null, "😀b"),
        eval(call(Op.SUBSTRING, STR, col(0, STR), lit(2, INT), lit(3, INT)), all(s)));
    // positions -1, 0 and 1: only the first character
    assertEquals(list("h", "中", "", null, "a"),
        eval(call(Op.SUBSTRING, STR, col(0, STR), lit(-1, INT), lit(3, INT)), all(s)));
    assertEquals(list("", "", "", null, ""), eval(call(Op.SUBSTRING, STR, col(0, STR), lit(9, INT)), all(s)));
    assertThrows(IllegalArgumentException.class,
        () -> eval(call(Op.SUBSTRING, STR, col(0, STR), lit(1, INT), lit(-1, INT)), all(s)));
  }

  @Test void caseMappingAndConcat() {
    ColumnVector s = vector(STR, "Ab", "Éé", null);
    assertEquals(list("ab", "éé", null), eval(call(Op.LOWER, STR, col(0, STR)), all(s)));
    assertEquals(list("AB", "ÉÉ", null), eval(call(Op.UPPER, STR, col(0, STR)), all(s)));
    assertEquals(list("Ab-", "Éé-", null), eval(call(Op.CONCAT, STR, col(0, STR), lit("-", STR)), all(s)));
    ColumnVector rep = repeating(STR, "x", 3);
    assertEquals(list("xAb", "xÉé", null), eval(call(Op.CONCAT, STR, col(1, STR), col(0, STR)), all(s, rep)));
  }

  @Test void extractMatchesJavaTime() {
    Random rnd = new Random(7);
    for (int t = 0; t < 2000; t++) {
      long days = rnd.nextInt(200_000) - 100_000;
      LocalDate d = LocalDate.ofEpochDay(days);
      long ms = rnd.nextInt(86_400_000);
      ColumnVector dv = vector(DATE, (int) days);
      ColumnVector tv = vector(TS, days * 86_400_000L + ms);
      assertEquals((long) d.getYear(), extract("YEAR", dv, DATE), d.toString());
      assertEquals((long) d.getMonthValue(), extract("MONTH", dv, DATE));
      assertEquals((long) d.getDayOfMonth(), extract("DAY", tv, TS));
      assertEquals((long) d.getDayOfYear(), extract("DOY", dv, DATE));
      assertEquals((long) d.get(IsoFields.QUARTER_OF_YEAR), extract("QUARTER", dv, DATE));
      assertEquals((long) d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR), extract("WEEK", tv, TS), d.toString());
      assertEquals((long) d.getDayOfWeek().getValue() % 7 + 1, extract("DOW", dv, DATE));
      assertEquals((long) d.get(ChronoField.DAY_OF_WEEK), extract("ISODOW", dv, DATE));
      assertEquals(ms / 3_600_000, extract("HOUR", tv, TS));
      assertEquals(ms / 60_000 % 60, extract("MINUTE", tv, TS));
      assertEquals(ms / 1000 % 60, extract("SECOND", tv, TS));
      assertEquals(days * 86_400, extract("EPOCH", dv, DATE));
      long months = rnd.nextInt(400) - 200;
      assertEquals((int) d.plusMonths(months).toEpochDay(),
          eval(call(Op.DATETIME_PLUS_MONTHS, DATE, col(0, DATE), lit((int) months, INT)), all(dv)).get(0));
      assertEquals(d.minusMonths(months).toEpochDay() * 86_400_000L + ms,
          eval(call(Op.DATETIME_MINUS_MONTHS, TS, col(0, TS), lit((int) months, INT)), all(tv)).get(0));
    }
    assertEquals(list(3, null), eval(call(Op.DATETIME_PLUS_MILLIS, DATE, col(0, DATE), lit(2 * 86_400_000L, BIG)),
        all(vector(DATE, 1, null))));
    assertEquals(list(-500L), eval(call(Op.DATETIME_MINUS_MILLIS, TS, col(0, TS), lit(1500L, BIG)),
        all(vector(TS, 1000L))));
  }

  private static Object extract(String unit, ColumnVector v, dev.travertine.vector.DataType t) {
    return eval(call(Op.EXTRACT, BIG, lit(unit, STR), col(0, t)), all(v)).get(0);
  }

  private static java.util.List<Object> longs(java.util.List<Object> xs) {
    java.util.List<Object> out = new java.util.ArrayList<>();
    for (Object x : xs) {
      out.add(x == null ? null : ((Number) x).longValue());
    }
    return out;
  }
}
