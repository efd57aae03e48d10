package dev.travertine.exec.jmh;

import dev.travertine.exec.expr.Evaluators;
import dev.travertine.exec.expr.Expr;
import dev.travertine.exec.expr.Op;
import dev.travertine.exec.expr.VectorExpression;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * WHERE on BIGINT vectors through {@code Evaluators.compile(...).filter(...)}: {@code x > c}, and
 * {@code x > c1 AND y < c2} (each conjunct keeps the square root of the selectivity, so both
 * keep {@code selectivity} % of the rows). Score: input rows per second. 4 Mi rows per
 * invocation, 32 MiB per column (more than the last-level cache).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BenchmarkFilter {
  static final int ROWS = 4 * 1024 * 1024;
  private static final long RANGE = 1_000_000_000L;
  private static final DataType BIGINT = DataType.of(TypeKind.BIGINT);
  private static final DataType BOOLEAN = DataType.of(TypeKind.BOOLEAN);

  /** Percentage of rows that pass. */
  @Param({"1", "4", "50", "96"})
  public double selectivity;

  private Batch[] batches;
  private VectorExpression gt;
  private VectorExpression and;
  private long c;
  private final int[] out = new int[Data.BATCH];

  @Setup
  public void setup() {
    batches = Data.longBatches(Data.uniform(ROWS, RANGE, 1), Data.uniform(ROWS, RANGE, 2));
    c = cut(selectivity / 100);
    gt = Evaluators.compile(cmp(Op.GT, 0, c));
    double each = Math.sqrt(selectivity / 100);
    Expr and2 = new Expr.Call(Op.AND, List.of(cmp(Op.GT, 0, cut(each)), cmp(Op.LT, 1, RANGE - cut(each))), BOOLEAN, false);
    and = Evaluators.compile(and2);
  }

  /** The constant c for which {@code x > c} keeps the fraction {@code keep} of uniform values. */
  private static long cut(double keep) {
    return (long) (RANGE * (1 - keep));
  }

  private static Expr cmp(Op op, int col, long value) {
    return new Expr.Call(op, List.of(new Expr.Column(col, BIGINT, false), new Expr.Constant(value, BIGINT)), BOOLEAN, false);
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long greaterThan() {
    long kept = 0;
    for (Batch b : batches) {
      kept += gt.filter(b, out);
    }
    return kept;
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long and2() {
    long kept = 0;
    for (Batch b : batches) {
      kept += and.filter(b, out);
    }
    return kept;
  }

  /** The bare loop {@code greaterThan} runs per batch (selection in, selection out): the ceiling. */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long greaterThanBaseline() {
    long kept = 0;
    long v = c;
    int[] o = out;
    for (Batch b : batches) {
      long[] x = ((LongColumnVector) b.cols()[0]).vector;
      int[] sel = b.sel();
      int n = b.size();
      int m = 0;
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        if (x[i] > v) {
          o[m++] = i;
        }
      }
      kept += m;
    }
    return kept;
  }

  /**
   * The same loop without a data-dependent branch (store every position, advance by the
   * comparison): what a 50 % selectivity costs without branch mispredictions.
   */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long greaterThanBranchFreeBaseline() {
    long kept = 0;
    long v = c;
    int[] o = out;
    for (Batch b : batches) {
      long[] x = ((LongColumnVector) b.cols()[0]).vector;
      int[] sel = b.sel();
      int n = b.size();
      int m = 0;
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        o[m] = i;
        m += x[i] > v ? 1 : 0;
      }
      kept += m;
    }
    return kept;
  }
}
