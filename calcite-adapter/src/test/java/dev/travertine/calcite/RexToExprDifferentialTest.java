package dev.travertine.calcite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.travertine.calcite.vectorized.RexToExpr;
import dev.travertine.exec.expr.Evaluators;
import dev.travertine.exec.expr.Expr;
import dev.travertine.exec.expr.VectorExpression;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.calcite.DataContexts;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexExecutable;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.rex.RexNode;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.junit.jupiter.api.Test;

/**
 * Differential test of {@link RexToExpr} + {@code Evaluators}: each RexNode is evaluated row by row
 * by Calcite ({@link RexExecutorImpl}, reading the row from DataContext variable "inputRecord")
 * and, translated, by the vectorized evaluator over the same rows in ORC vectors (random data with
 * NULLs and edge values, selections with gaps, some columns repeating). Values must be equal, and
 * a batch must fail exactly when Calcite fails on one of its selected rows. Seeded: a failure
 * names the seed, the expression and the row.
 */
class RexToExprDifferentialTest {
  private static final long SEED = Long.getLong("rex.seed", 20261201L);
  private final RexFixture f = new RexFixture();

  @Test void arithmetic() {
    check(f.arithmetic());
  }

  @Test void casts() {
    check(f.casts());
  }

  @Test void comparisons() {
    check(f.comparisons());
  }

  @Test void logic() {
    check(f.logic());
  }

  @Test void conditionals() {
    check(f.conditionals());
  }

  @Test void inAndSearch() {
    check(f.inAndSearch());
  }

  @Test void like() {
    check(f.like());
  }

  @Test void strings() {
    check(f.strings());
  }

  @Test void dateTime() {
    check(f.dateTime());
  }

  /** What the engine cannot reproduce exactly is left to Calcite. */
  @Test void unsupportedTranslatesToNull() {
    for (RexNode rex : f.unsupported()) {
      assertNull(RexToExpr.translate(f.rexBuilder, rex, f.engineTypes(), f.nullability()),
          "expected no translation for " + rex);
    }
  }

  /** Constant calls fold into one constant; a failing constant leaves the node to Calcite. */
  @Test void constantsFold() {
    for (RexNode rex : f.constantCalls()) {
      Expr e = RexToExpr.translate(f.rexBuilder, rex, f.engineTypes(), f.nullability());
      assertNotNull(e, "no translation for " + rex);
      assertTrue(e instanceof Expr.Constant, "not folded: " + rex + " -> " + e);
      Object calcite = calcite(rex, new Object[f.rowType.getFieldCount()]);
      assertEquals(RexTestRows.normalize(calcite), RexTestRows.normalize(((Expr.Constant) e).value()), rex.toString());
    }
    assertNull(RexToExpr.translate(f.rexBuilder, f.divideByZeroConstant(), f.engineTypes(), f.nullability()));
  }

  /** The translation also accepts the input's row type directly. */
  @Test void translatesFromRowType() {
    RexNode rex = f.arithmetic().get(0);
    assertEquals(RexToExpr.translate(f.rexBuilder, rex, f.engineTypes(), f.nullability()),
        RexToExpr.translate(rex, f.rowType));
  }

  private Object calcite(RexNode rex, Object[] row) {
    RexExecutable ex = RexExecutorImpl.getExecutable(f.rexBuilder, List.of(rex), f.rowType);
    ex.setDataContext(DataContexts.of(Map.of("inputRecord", row)));
    return ex.execute()[0];
  }

  private void check(List<RexNode> exprs) {
    int compared = 0;
    for (RexNode rex : exprs) {
      compared += checkOne(rex);
    }
    assertTrue(compared > 0, "nothing compared");
  }

  /** Returns the number of row values compared. */
  private int checkOne(RexNode rex) {
    Expr expr = RexToExpr.translate(f.rexBuilder, rex, f.engineTypes(), f.nullability());
    assertNotNull(expr, "no translation for " + rex);
    RexExecutable ex = RexExecutorImpl.getExecutable(f.rexBuilder, List.of(f.reference(rex)), f.rowType);
    VectorExpression vx = Evaluators.compile(expr);
    DataType type = expr.type();
    boolean bool = type.kind() == TypeKind.BOOLEAN;
    Random rnd = new Random(SEED ^ rex.toString().hashCode());
    int compared = 0;
    for (int chunk = 0; chunk < 40; chunk++) {
      RexTestRows.Chunk c = f.chunk(rnd);
      // Calcite, row by row, over the selected rows
      Object[] expected = new Object[c.rows.length];
      boolean[] threw = new boolean[c.rows.length];
      Throwable calciteError = null;
      for (int k = 0; k < c.size; k++) {
        int i = c.sel[k];
        try {
          ex.setDataContext(DataContexts.of(Map.of("inputRecord", c.rows[i])));
          expected[i] = ex.execute()[0];
        } catch (RuntimeException e) {
          calciteError = e;
          threw[i] = true;
        }
      }
      Batch batch = new Batch(c.vectors, c.sel, c.size);
      ColumnVector got;
      int[] out = new int[c.size];
      int filtered = -1;
      try {
        got = vx.evaluate(batch);
        if (bool) {
          filtered = vx.filter(batch, out);
        }
      } catch (RuntimeException e) {
        if (calciteError == null) {
          fail("seed " + SEED + ": " + rex + " threw " + e + " where Calcite did not; " + c.describe(), e);
        }
        continue;
      }
      // Calcite's generated code evaluates every operand of AND and OR; ours skips the rows an
      // earlier operand has decided (a guard such as x <> 0 before y / x), so it may not throw at
      // all: the rows where Calcite threw are then left out, the others compared as usual.
      if (calciteError != null && !rex.toString().startsWith("AND(") && !rex.toString().startsWith("OR(")) {
        fail("seed " + SEED + ": " + rex + " did not throw where Calcite threw " + calciteError + "; " + c.describe());
      }
      List<Integer> trueRows = new ArrayList<>();
      for (int k = 0; k < c.size; k++) {
        int i = c.sel[k];
        if (threw[i]) {
          continue;
        }
        Object want = RexTestRows.normalize(expected[i]);
        Object have = RexTestRows.normalize(Vectors.get(got, type.kind(), i));
        if (!RexTestRows.same(want, have)) {
          fail("seed " + SEED + ": " + rex + " -> " + expr + " on row " + java.util.Arrays.toString(c.rows[i])
              + ": Calcite " + want + ", engine " + have);
        }
        if (Boolean.TRUE.equals(want)) {
          trueRows.add(i);
        }
        compared++;
      }
      if (bool) {
        List<Integer> fr = new ArrayList<>();
        for (int k = 0; k < filtered; k++) {
          if (!threw[out[k]]) {
            fr.add(out[k]);
          }
        }
        assertEquals(trueRows, fr, "filter() of " + rex + " on " + c.describe());
      }
    }
    return compared;
  }
}
