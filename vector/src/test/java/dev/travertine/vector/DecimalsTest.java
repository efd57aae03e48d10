package dev.travertine.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Random;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.junit.jupiter.api.Test;

/** Both forms of a DECIMAL vector read, compare, hash and copy alike, checked against BigDecimal. */
class DecimalsTest {
  private static final DataType TYPE = DataType.decimal(15, 2);
  private static final int N = 2_000;

  private static BigDecimal[] values(Random rnd) {
    BigDecimal[] v = new BigDecimal[N];
    for (int i = 0; i < N; i++) {
      long unscaled = switch (i % 4) {
        case 0 -> rnd.nextInt(2001) - 1000;
        case 1 -> rnd.nextLong() % 1_000_000_000_000_000L;
        case 2 -> (rnd.nextInt(21) - 10) * 100L; // trailing zeros: 1.00 and 1 must meet
        default -> rnd.nextLong() % 100_000;
      };
      v[i] = BigDecimal.valueOf(unscaled, 2);
    }
    return v;
  }

  private static ColumnVector[] bothForms(BigDecimal[] v) {
    Decimal64ColumnVector scaled = Decimals.newScaled(N, TYPE);
    DecimalColumnVector objects = new DecimalColumnVector(N, 38, 2);
    for (int i = 0; i < N; i++) {
      assertTrue(Decimals.set(scaled, i, v[i]));
      assertTrue(Decimals.set(objects, i, v[i]));
    }
    return new ColumnVector[] {scaled, objects};
  }

  @Test
  void bothFormsReadCompareAndHashAsBigDecimalDoes() {
    Random rnd = new Random(35);
    BigDecimal[] v = values(rnd);
    ColumnVector[] forms = bothForms(v);
    assertTrue(Decimals.scaled(forms[0]));
    assertFalse(Decimals.scaled(forms[1]));
    for (ColumnVector a : forms) {
      assertEquals(2, Decimals.scale(a));
      for (int i = 0; i < N; i++) {
        assertEquals(v[i], Decimals.big(a, i), "value keeps the column's scale");
        assertEquals(v[i].signum(), Decimals.signum(a, i));
        assertEquals(v[i].doubleValue(), Decimals.toDouble(a, i));
        assertEquals(HiveDecimal.create(v[i]).hashCode(), Decimals.hive(a, i).hashCode());
      }
      for (ColumnVector b : forms) {
        for (int k = 0; k < N; k++) {
          int i = rnd.nextInt(N);
          int j = rnd.nextInt(N);
          assertEquals(Integer.signum(v[i].compareTo(v[j])), Integer.signum(Decimals.compare(a, i, b, j)));
        }
      }
    }
  }

  @Test
  void copiesBetweenEveryPairOfForms() {
    BigDecimal[] v = values(new Random(7));
    ColumnVector[] forms = bothForms(v);
    for (ColumnVector src : forms) {
      for (ColumnVector dst : new ColumnVector[] {Decimals.newScaled(N, TYPE), new DecimalColumnVector(N, 38, 2)}) {
        for (int i = 0; i < N; i++) {
          Decimals.copy(src, i, dst, N - 1 - i);
        }
        for (int i = 0; i < N; i++) {
          assertEquals(v[i], Decimals.big(dst, N - 1 - i));
        }
      }
    }
  }

  @Test
  void aValueOfMoreThanEighteenDigitsDoesNotFitScaledLongs() {
    Decimal64ColumnVector scaled = Decimals.newScaled(2, DataType.decimal(38, 2));
    assertFalse(Decimals.set(scaled, 0, new BigDecimal("12345678901234567890.12")));
    assertFalse(Decimals.set(scaled, 1, new BigDecimal("1.005")), "more fraction digits than the scale");
  }

  @Test
  void scaledLongsCompareExactlyWithObjectsOfOtherScalesAndSizes() {
    Decimal64ColumnVector x = one("1.00");
    String[] others = {"1.005", "0.995", "1", "1.000", "-1.00", "99999999999999999999.5", "-99999999999999999999",
        "0.001"};
    for (String o : others) {
      DecimalColumnVector y = new DecimalColumnVector(1, 38, 3);
      y.set(0, HiveDecimal.create(new BigDecimal(o)));
      int want = Integer.signum(new BigDecimal("1.00").compareTo(new BigDecimal(o)));
      assertEquals(want, Integer.signum(Decimals.compare(x, 0, y, 0)), "1.00 vs " + o);
      assertEquals(-want, Integer.signum(Decimals.compare(y, 0, x, 0)), o + " vs 1.00");
    }
  }

  private static Decimal64ColumnVector one(String x) {
    Decimal64ColumnVector v = Decimals.newScaled(1, TYPE);
    assertTrue(Decimals.set(v, 0, new BigDecimal(x)));
    return v;
  }
}
