package dev.travertine.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.serde2.io.HiveDecimalWritable;
import org.junit.jupiter.api.Test;

/** The long form of DECIMALs against BigInteger: every result is exact or NO_FIT, never wrong. */
class ScaledDecimalsTest {
  private static final BigInteger LIMIT = BigInteger.TEN.pow(ScaledDecimals.DIGITS);

  private static long expect(BigInteger exact) {
    return exact.abs().compareTo(LIMIT) < 0 ? exact.longValueExact() : ScaledDecimals.NO_FIT;
  }

  @Test void arithmeticIsExactOrNoFit() {
    Random rnd = new Random(7);
    for (int i = 0; i < 200_000; i++) {
      long x = value(rnd);
      long y = value(rnd);
      BigInteger a = BigInteger.valueOf(x);
      BigInteger b = BigInteger.valueOf(y);
      assertEquals(expect(a.add(b)), ScaledDecimals.add(x, y), x + " + " + y);
      assertEquals(expect(a.subtract(b)), ScaledDecimals.subtract(x, y), x + " - " + y);
      assertEquals(expect(a.multiply(b)), ScaledDecimals.multiply(x, y), x + " * " + y);
      int e = rnd.nextInt(ScaledDecimals.DIGITS + 1);
      assertEquals(expect(a.multiply(BigInteger.TEN.pow(e))), ScaledDecimals.rescale(x, e), x + " e" + e);
    }
    assertEquals(ScaledDecimals.NO_FIT, ScaledDecimals.add(ScaledDecimals.NO_FIT, 1));
    assertEquals(ScaledDecimals.NO_FIT, ScaledDecimals.multiply(1, ScaledDecimals.NO_FIT));
    assertEquals(ScaledDecimals.NO_FIT, ScaledDecimals.rescale(ScaledDecimals.NO_FIT, 0));
  }

  /** Values of every magnitude up to 18 digits, both signs. */
  private static long value(Random rnd) {
    long m = ScaledDecimals.pow10(rnd.nextInt(ScaledDecimals.DIGITS + 1));
    long v = m == 1 ? rnd.nextInt(2) : Math.floorMod(rnd.nextLong(), m);
    return rnd.nextBoolean() ? v : -v;
  }

  @Test void readsAtAScaleOrSaysNoFit() {
    HiveDecimalWritable w = new HiveDecimalWritable(HiveDecimal.create(new BigDecimal("-1234.5")));
    assertEquals(-12345000, ScaledDecimals.read(w, 4, true));
    assertEquals(-12345000, ScaledDecimals.read(w, 4, false));
    HiveDecimalWritable big = new HiveDecimalWritable(HiveDecimal.create(new BigDecimal("12345678901234567.5")));
    assertEquals(ScaledDecimals.NO_FIT, ScaledDecimals.read(big, 2, true));
    assertEquals(123456789012345675L, ScaledDecimals.read(big, 1, true));
    assertEquals(true, ScaledDecimals.alwaysFits(DataType.decimal(15, 2), 4));
    assertEquals(false, ScaledDecimals.alwaysFits(DataType.decimal(15, 2), 6));
  }
}
