package dev.travertine.exec.expr;

import static dev.travertine.exec.expr.ExprTestSupport.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.IntegerVector;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.junit.jupiter.api.Test;

/**
 * Expressions over our narrow integer vectors ({@link IntegerVector}) give what they give over
 * Hive's wide form of the same values: comparisons with constants (the narrow loops), casts to
 * DOUBLE, and everything else (which widens).
 */
class NarrowVectorsTest {
  private static final Op[] OPS = {Op.EQ, Op.NE, Op.LT, Op.LE, Op.GT, Op.GE};

  private static long[] extremes(TypeKind k) {
    return switch (k) {
      case BOOLEAN -> new long[] {0, 1};
      case TINYINT -> new long[] {Byte.MIN_VALUE, -1, 0, 1, Byte.MAX_VALUE};
      case SMALLINT -> new long[] {Short.MIN_VALUE, -1, 0, 1, Short.MAX_VALUE};
      default -> new long[] {Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE};
    };
  }

  private static LongColumnVector column(Random rnd, TypeKind k, int n, boolean nulls) {
    LongColumnVector v = new LongColumnVector(n);
    long[] ext = extremes(k);
    v.noNulls = !nulls;
    for (int i = 0; i < n; i++) {
      v.vector[i] = rnd.nextInt(4) == 0 ? ext[rnd.nextInt(ext.length)]
          : k == TypeKind.BOOLEAN ? rnd.nextInt(2) : rnd.nextInt(21) - 10;
      v.isNull[i] = nulls && rnd.nextInt(6) == 0;
    }
    return v;
  }

  /** Constants to compare with: the type's extremes, small values, and values past the type's range. */
  private static List<Long> constants(TypeKind k) {
    List<Long> c = new ArrayList<>();
    for (long x : extremes(k)) {
      c.add(x);
      c.add(x - 1);
      c.add(x + 1);
    }
    c.add(5L);
    c.add(Long.MIN_VALUE);
    c.add(Long.MAX_VALUE);
    c.add(1L << 40);
    return c;
  }

  private static int[] sparse(Random rnd, int n) {
    List<Integer> s = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (rnd.nextInt(3) != 0) {
        s.add(i);
      }
    }
    return s.stream().mapToInt(Integer::intValue).toArray();
  }

  @Test
  void comparisonsWithConstantsMatchTheWideForm() {
    Random rnd = new Random(3501);
    for (TypeKind k : new TypeKind[] {TypeKind.BOOLEAN, TypeKind.TINYINT, TypeKind.SMALLINT, TypeKind.INTEGER,
        TypeKind.DATE}) {
      DataType t = DataType.of(k);
      for (boolean nulls : new boolean[] {false, true}) {
        int n = 700;
        LongColumnVector wide = column(rnd, k, n, nulls);
        IntegerVector narrow = IntegerVector.narrow(wide, k, n);
        for (int[] sel : List.of(Batch.identity(n), sparse(rnd, n))) {
          int size = sel.length >= n ? n : sel.length; // the shared identity selection may be longer
          Batch w = new Batch(new ColumnVector[] {wide}, sel, size);
          Batch m = new Batch(new ColumnVector[] {narrow}, sel, size);
          for (long c : constants(k)) {
            if (k == TypeKind.DATE && (c > Integer.MAX_VALUE || c < Integer.MIN_VALUE)) {
              continue; // a DATE constant is days in an int
            }
            for (Op op : OPS) {
              for (boolean constantLeft : new boolean[] {false, true}) {
                Expr lit = k == TypeKind.BOOLEAN ? lit(c != 0, BOOL) : lit(c, k == TypeKind.DATE ? t : BIG);
                Expr e = constantLeft ? call(op, BOOL, lit, col(0, t)) : call(op, BOOL, col(0, t), lit);
                String what = k + " " + (constantLeft ? c + " " + op + " x" : "x " + op + " " + c) + " nulls=" + nulls
                    + " dense=" + (size == n);
                assertEquals(filter(e, w), filter(e, m), what);
                assertEquals(eval(e, w), eval(e, m), what);
              }
            }
          }
        }
      }
    }
  }

  /**
   * Strings as dictionary ids ({@link dev.travertine.vector.DictionaryVector}): comparisons with a
   * constant (once per dictionary entry), between two columns, casts and LIKE give what Hive's form gives.
   */
  @Test
  void dictionaryStringsMatchTheWideForm() {
    Random rnd = new Random(3503);
    String[] words = {"MAIL", "SHIP", "", "ünï", "MAILS", "AIR"};
    DataType vc = DataType.of(TypeKind.VARCHAR);
    for (boolean nulls : new boolean[] {false, true}) {
      int n = 700;
      Object[] a = new Object[n];
      Object[] b = new Object[n];
      for (int i = 0; i < n; i++) {
        a[i] = nulls && rnd.nextInt(5) == 0 ? null : words[rnd.nextInt(words.length)];
        b[i] = words[rnd.nextInt(words.length)];
      }
      org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector wa =
          (org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector) vector(vc, a);
      ColumnVector wb = vector(vc, b);
      ColumnVector da = dev.travertine.vector.DictionaryVector.encode(wa, n, new dev.travertine.vector.StringDictionary(), n);
      for (int[] sel : List.of(Batch.identity(n), sparse(rnd, n))) {
        int size = sel.length >= n ? n : sel.length;
        Batch w = new Batch(new ColumnVector[] {wa, wb}, sel, size);
        Batch m = new Batch(new ColumnVector[] {da, wb}, sel, size);
        List<Expr> exprs = new ArrayList<>();
        for (Op op : OPS) {
          for (String c : new String[] {"MAIL", "", "zzz"}) {
            exprs.add(call(op, BOOL, col(0, vc), lit(c, vc)));
            exprs.add(call(op, BOOL, lit(c, vc), col(0, vc)));
          }
          exprs.add(call(op, BOOL, col(0, vc), col(1, vc)));
        }
        for (Expr e : exprs) {
          String what = e + " nulls=" + nulls + " dense=" + (size == n);
          assertEquals(filter(e, w), filter(e, m), what);
          assertEquals(eval(e, w), eval(e, m), what);
        }
      }
    }
  }

  @Test
  void castsAndArithmeticMatchTheWideForm() {
    Random rnd = new Random(3502);
    for (TypeKind k : new TypeKind[] {TypeKind.TINYINT, TypeKind.SMALLINT, TypeKind.INTEGER}) {
      DataType t = DataType.of(k);
      for (boolean nulls : new boolean[] {false, true}) {
        int n = 500;
        LongColumnVector wide = column(rnd, k, n, nulls);
        IntegerVector narrow = IntegerVector.narrow(wide, k, n);
        for (int[] sel : List.of(Batch.identity(n), sparse(rnd, n))) {
          int size = sel.length >= n ? n : sel.length;
          Batch w = new Batch(new ColumnVector[] {wide, wide}, sel, size);
          Batch m = new Batch(new ColumnVector[] {narrow, narrow}, sel, size);
          for (Expr e : List.of(call(Op.CAST, DBL, col(0, t)), call(Op.CAST, BIG, col(0, t)),
              call(Op.PLUS, BIG, col(0, t), col(1, t)), call(Op.LT, BOOL, col(0, t), col(1, t)),
              call(Op.IS_DISTINCT_FROM, BOOL, col(0, t), lit(3L, BIG)), call(Op.IS_NULL, BOOL, col(0, t)))) {
            assertEquals(eval(e, w), eval(e, m), k + " " + e + " nulls=" + nulls);
          }
        }
      }
    }
  }

  @Test
  void repeatingNarrowVectorsCompareAsTheirOneValue() {
    LongColumnVector src = new LongColumnVector(64);
    src.isRepeating = true;
    src.vector[0] = 7;
    IntegerVector narrow = IntegerVector.narrow(src, TypeKind.SMALLINT, 64);
    Batch b = new Batch(new ColumnVector[] {narrow}, Batch.identity(64), 64);
    assertEquals(64, filter(call(Op.EQ, BOOL, col(0, SMALL), lit(7L, BIG)), b).size());
    assertEquals(0, filter(call(Op.GT, BOOL, col(0, SMALL), lit(7L, BIG)), b).size());
    assertEquals(7L, ((Number) Vectors.get(narrow, TypeKind.SMALLINT, 40)).longValue());
  }
}
