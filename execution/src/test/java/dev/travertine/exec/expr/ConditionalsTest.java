package dev.travertine.exec.expr;

import static dev.travertine.exec.expr.ExprTestSupport.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.junit.jupiter.api.Test;

class ConditionalsTest {
  @Test void caseEvaluatesEachBranchOnlyForItsRows() {
    ColumnVector x = vector(INT, 0, 4, null, -2, 0);
    // CASE WHEN x = 0 THEN -1 WHEN x > 0 THEN 100 / x ELSE 100 / x END: no row divides by zero
    Expr e = call(Op.CASE, INT,
        call(Op.EQ, BOOL, col(0, INT), lit(0, INT)), lit(-1, INT),
        call(Op.GT, BOOL, col(0, INT), lit(0, INT)), call(Op.DIVIDE, INT, lit(100, INT), col(0, INT)),
        call(Op.DIVIDE, INT, lit(100, INT), col(0, INT)));
    assertEquals(list(-1, 25, null, -50, -1), eval(e, all(x)));
    assertEquals(list(25, -1), eval(e, batch(new ColumnVector[] {x}, 1, 4)));
    // a DOUBLE CASE over an INTEGER branch, strings, a NULL else
    Expr d = call(Op.CASE, DBL, call(Op.GT, BOOL, col(0, INT), lit(0, INT)), col(0, INT), lit(null, DBL));
    assertEquals(list(null, 4.0, null, null, null), eval(d, all(x)));
    Expr s = call(Op.CASE, STR, call(Op.IS_NULL, BOOL, col(0, INT)), lit("none", STR), lit("some", STR));
    assertEquals(list("some", "some", "none", "some", "some"), eval(s, all(x)));
  }

  @Test void coalesceAndNullIf() {
    ColumnVector a = vector(INT, null, 1, null, null);
    ColumnVector b = vector(INT, 2, 3, null, 0);
    Expr c = call(Op.COALESCE, INT, col(0, INT), col(1, INT), lit(9, INT));
    assertEquals(list(2, 1, 9, 0), eval(c, all(a, b)));
    // COALESCE evaluates later operands only where earlier ones are NULL
    Expr guarded = call(Op.COALESCE, INT, col(1, INT), call(Op.DIVIDE, INT, lit(1, INT), col(1, INT)));
    // row 3 holds 0 but is not NULL, so 1 / b is never evaluated for it
    assertEquals(list(2, 3, null, 0), eval(guarded, all(a, b)));
    assertEquals(list(null, 1, null, null), eval(call(Op.NULLIF, INT, col(0, INT), col(1, INT)), all(a, b)));
    assertEquals(list(2, 3, null, null), eval(call(Op.NULLIF, INT, col(1, INT), lit(0, INT)), all(a, b)));
    ColumnVector s = vector(STR, "x", null, "y");
    assertEquals(list("x", "-", "y"), eval(call(Op.COALESCE, STR, col(0, STR), lit("-", STR)), all(s)));
  }

  @Test void inLists() {
    ColumnVector x = vector(BIG, 1L, 2L, null, 50L, 7L);
    Expr small = call(Op.IN, BOOL, col(0, BIG), lit(1L, BIG), lit(7L, BIG));
    assertEquals(list(true, false, null, false, true), eval(small, all(x)));
    assertEquals(List.of(0, 4), filter(small, all(x)));
    List<Expr> args = new ArrayList<>();
    args.add(col(0, BIG));
    for (long v = 0; v < 100; v += 2) {
      args.add(lit(v, BIG));
    }
    Expr large = new Expr.Call(Op.IN, args, BOOL, true);
    assertEquals(List.of(1, 3), filter(large, all(x)));
    Expr notIn = new Expr.Call(Op.NOT_IN, args, BOOL, true);
    assertEquals(List.of(0, 4), filter(notIn, all(x)));
    // a NULL in the list: not found is NULL, NOT IN never TRUE
    Expr withNull = call(Op.IN, BOOL, col(0, BIG), lit(1L, BIG), lit(null, BIG));
    assertEquals(list(true, null, null, null, null), eval(withNull, all(x)));
    assertEquals(List.of(), filter(call(Op.NOT_IN, BOOL, col(0, BIG), lit(1L, BIG), lit(null, BIG)), all(x)));
    ColumnVector s = vector(STR, "a", "é", "b", null);
    assertEquals(List.of(1, 2), filter(call(Op.IN, BOOL, col(0, STR), lit("é", STR), lit("b", STR)), all(s)));
    // INTEGER values against BIGINT/DOUBLE constants
    ColumnVector i = vector(INT, 1, 2, 3);
    assertEquals(List.of(1), filter(call(Op.IN, BOOL, col(0, INT), lit(2.0, DBL), lit(2.5, DBL)), all(i)));
  }
}
