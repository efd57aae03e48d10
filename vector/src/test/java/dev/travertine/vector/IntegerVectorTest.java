package dev.travertine.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DateColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.junit.jupiter.api.Test;

class IntegerVectorTest {
  private static long value(Random rnd, TypeKind kind) {
    return switch (kind) {
      case BOOLEAN -> rnd.nextInt(2);
      case TINYINT -> rnd.nextInt(8) == 0 ? (rnd.nextBoolean() ? Byte.MIN_VALUE : Byte.MAX_VALUE) : rnd.nextInt(256) - 128;
      case SMALLINT -> rnd.nextInt(8) == 0 ? (rnd.nextBoolean() ? Short.MIN_VALUE : Short.MAX_VALUE)
          : rnd.nextInt(65536) - 32768;
      case INTEGER, DATE -> rnd.nextInt(8) == 0 ? (rnd.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE)
          : rnd.nextInt();
      default -> throw new AssertionError(kind);
    };
  }

  private static LongColumnVector random(Random rnd, TypeKind kind, int n, boolean nulls) {
    LongColumnVector v = kind == TypeKind.DATE ? new DateColumnVector(n) : new LongColumnVector(n);
    v.noNulls = !nulls;
    for (int i = 0; i < n; i++) {
      v.vector[i] = value(rnd, kind);
      if (nulls && rnd.nextInt(5) == 0) {
        v.isNull[i] = true;
      }
    }
    return v;
  }

  @Test
  void everyNarrowKindKeepsItsValuesAndNullsAndWidensBack() {
    Random rnd = new Random(35);
    for (TypeKind kind : new TypeKind[] {TypeKind.BOOLEAN, TypeKind.TINYINT, TypeKind.SMALLINT, TypeKind.INTEGER,
        TypeKind.DATE}) {
      for (boolean nulls : new boolean[] {false, true}) {
        int rows = 1000 + rnd.nextInt(100);
        LongColumnVector src = random(rnd, kind, 1200, nulls);
        IntegerVector n = IntegerVector.narrow(src, kind, rows);
        assertEquals(kind, n.kind());
        assertEquals(rows, n.length());
        assertEquals(switch (kind) { case BOOLEAN, TINYINT -> 1; case SMALLINT -> 2; default -> 4; }, n.width());
        assertEquals(!nulls, n.noNulls);
        LongColumnVector w = n.widen();
        assertEquals(kind == TypeKind.DATE, w instanceof DateColumnVector, "DATE widens to Hive's date vector");
        for (int i = 0; i < rows; i++) {
          boolean isNull = nulls && src.isNull[i];
          assertEquals(isNull, Vectors.isNull(n, i), kind + " null flag at " + i);
          assertEquals(isNull, Vectors.isNull(w, i));
          if (!isNull) {
            assertEquals(src.vector[i], n.get(i), kind + " at " + i);
            assertEquals(src.vector[i], w.vector[i]);
            assertEquals(Vectors.get(src, kind, i), Vectors.get(n, kind, i));
            assertEquals(0, Vectors.compare(src, i, n, i, kind));
          }
        }
      }
    }
  }

  @Test
  void repeatingVectorsHoldOneValue() {
    LongColumnVector src = new LongColumnVector(1024);
    src.isRepeating = true;
    src.vector[0] = -7;
    IntegerVector n = IntegerVector.narrow(src, TypeKind.SMALLINT, 1024);
    assertInstanceOf(Int16Vector.class, n);
    assertTrue(n.isRepeating);
    assertEquals(1, n.length());
    assertEquals(-7L, Vectors.get(n, TypeKind.SMALLINT, 500) instanceof Short s ? (long) s : 0L);
    LongColumnVector w = n.widen();
    assertTrue(w.isRepeating);
    assertEquals(-7, w.vector[0]);

    src.noNulls = false;
    src.isNull[0] = true;
    IntegerVector nul = IntegerVector.narrow(src, TypeKind.INTEGER, 1024);
    assertTrue(Vectors.isNull(nul, 900));
    assertTrue(Vectors.isNull(nul.widen(), 900));
  }

  @Test
  void onlyTypesNarrowerThanALongNarrow() {
    LongColumnVector src = new LongColumnVector(4);
    assertNull(IntegerVector.narrow(src, TypeKind.BIGINT, 4));
    assertNull(IntegerVector.narrow(src, TypeKind.TIMESTAMP, 4));
  }

  @Test
  void vectorsWithoutNullsShareOneFalseNullArrayAndCountOnlyTheirValues() {
    LongColumnVector a = new LongColumnVector(65536);
    LongColumnVector b = new LongColumnVector(65536);
    IntegerVector x = IntegerVector.narrow(a, TypeKind.SMALLINT, 65536);
    IntegerVector y = IntegerVector.narrow(b, TypeKind.INTEGER, 40000);
    assertSame(x.isNull, y.isNull);
    assertTrue(x.isNull.length >= 65536);
    for (boolean f : x.isNull) {
      assertFalse(f);
    }
    assertEquals(32 + 2L * 65536, x.bytes(), "2 bytes a value against Hive's 8 + 1");
    assertEquals(32 + 4L * 40000, y.bytes());
  }

  @Test
  void aBatchWidensOnlyItsNarrowColumns() {
    LongColumnVector wide = new LongColumnVector(8);
    LongColumnVector src = new LongColumnVector(8);
    src.vector[3] = 42;
    IntegerVector narrow = IntegerVector.narrow(src, TypeKind.INTEGER, 8);
    Batch plain = new Batch(new ColumnVector[] {wide}, Batch.identity(8), 8);
    assertSame(plain, Vectors.wide(plain));
    Batch mixed = new Batch(new ColumnVector[] {wide, narrow, null}, new int[] {3}, 1);
    Batch w = Vectors.wide(mixed);
    assertSame(wide, w.cols()[0]);
    assertEquals(42, ((LongColumnVector) w.cols()[1]).vector[3]);
    assertNull(w.cols()[2]);
    assertArrayEquals(mixed.sel(), w.sel());
    assertSame(narrow, mixed.cols()[1], "the input batch is left as it was");
  }

  @Test
  void aWidenerFillsTheSelectedRowsOfOneReusedBuffer() {
    Random rnd = new Random(36);
    Widener w = new Widener();
    LongColumnVector plain = new LongColumnVector(8);
    assertSame(plain, w.wide(plain, new int[] {1}, 1));
    ColumnVector last = null;
    for (int round = 0; round < 4; round++) {
      LongColumnVector src = random(rnd, TypeKind.SMALLINT, 2000, round % 2 == 1);
      IntegerVector n = IntegerVector.narrow(src, TypeKind.SMALLINT, 2000);
      int[] sel = java.util.stream.IntStream.range(0, 2000).filter(i -> rnd.nextInt(3) == 0).toArray();
      LongColumnVector got = (LongColumnVector) w.wide(n, sel, sel.length);
      if (last != null) {
        assertSame(last, got, "the buffer is reused");
      }
      last = got;
      assertEquals(src.noNulls, got.noNulls);
      for (int i : sel) {
        assertEquals(Vectors.isNull(src, i), Vectors.isNull(got, i), "null flag at " + i);
        if (!Vectors.isNull(src, i)) {
          assertEquals(src.vector[i], got.vector[i], "value at " + i);
        }
      }
    }
    LongColumnVector rep = new LongColumnVector(2000);
    rep.isRepeating = true;
    rep.vector[0] = 9;
    LongColumnVector got = (LongColumnVector) w.wide(IntegerVector.narrow(rep, TypeKind.INTEGER, 2000),
        new int[] {5, 1999}, 2);
    assertTrue(got.isRepeating);
    assertEquals(9, got.vector[0]);
  }

  @Test
  void pushedComparisonsKeepTheRowsTheWideFormKeeps() {
    Random rnd = new Random(37);
    for (TypeKind kind : new TypeKind[] {TypeKind.TINYINT, TypeKind.SMALLINT, TypeKind.INTEGER}) {
      for (int shape = 0; shape < 3; shape++) { // no nulls, nulls, repeating
        LongColumnVector src = random(rnd, kind, 1500, shape == 1);
        if (shape == 2) {
          src.isRepeating = true;
          src.vector[0] = 3;
        }
        IntegerVector n = IntegerVector.narrow(src, kind, 1500);
        int[] sel = java.util.stream.IntStream.range(0, 1500).filter(i -> rnd.nextInt(4) != 0).toArray();
        long[] constants = {0, 3, -1, 127, 128, -129, 32767, 32768, Integer.MAX_VALUE, Integer.MIN_VALUE,
            Long.MAX_VALUE, Long.MIN_VALUE, src.vector[7]};
        for (Predicate.Op op : Predicate.Op.values()) {
          for (long c : constants) {
            Predicate p = new Predicate.Compare(0, op, c);
            int[] a = sel.clone();
            int[] b = sel.clone();
            int ka = p.filter(new ColumnVector[] {src}, a, a.length);
            int kb = p.filter(new ColumnVector[] {n}, b, b.length);
            assertArrayEquals(java.util.Arrays.copyOf(a, ka), java.util.Arrays.copyOf(b, kb),
                kind + " shape " + shape + ": x " + op + " " + c);
          }
        }
      }
    }
  }

  @Test
  void narrowVectorsAreReadOnly() {
    IntegerVector n = IntegerVector.narrow(new LongColumnVector(8), TypeKind.INTEGER, 8);
    assertThrows(UnsupportedOperationException.class, () -> n.setElement(0, 0, new LongColumnVector(8)));
    assertThrows(UnsupportedOperationException.class, () -> n.flatten(false, null, 8));
    assertThrows(UnsupportedOperationException.class, n::reset);
    StringBuilder sb = new StringBuilder();
    n.stringifyValue(sb, 3);
    assertEquals("0", sb.toString());
  }
}
