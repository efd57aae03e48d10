package dev.travertine.exec.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.travertine.exec.expr.Expr;
import dev.travertine.exec.expr.Op;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.junit.jupiter.api.Test;

/** ComputeStage's filters narrow a selection of their own: a shared input selection stays as it was. */
class ComputeStageTest {
  private static final DataType BIG = DataType.of(TypeKind.BIGINT);
  private static final DataType BOOL = DataType.of(TypeKind.BOOLEAN);

  private static Expr cmp(Op op, long c) {
    return new Expr.Call(op, List.of(new Expr.Column(0, BIG, false), new Expr.Constant(c, BIG)), BOOL, false);
  }

  @Test void filtersLeaveTheSharedIdentitySelectionAlone() {
    int n = 1000;
    LongColumnVector v = new LongColumnVector(n);
    for (int i = 0; i < n; i++) {
      v.vector[i] = i % 10;
    }
    int[] shared = Batch.identity(n);
    int[] before = Arrays.copyOf(shared, n);
    ComputeStage stage = new ComputeStage(null,
        List.of(new Step.Filter(cmp(Op.GE, 3)), new Step.Filter(cmp(Op.NE, 5))), () -> { });
    Batch out = stage.apply(new Batch(new ColumnVector[] {v}, shared, n));
    assertEquals(n * 6 / 10, out.size());
    for (int k = 0; k < out.size(); k++) {
      long x = v.vector[out.sel()[k]];
      assertEquals(true, x >= 3 && x != 5, "row " + out.sel()[k]);
    }
    assertArrayEquals(before, Arrays.copyOf(Batch.identity(n), n), "the shared identity selection was written");
  }
}
