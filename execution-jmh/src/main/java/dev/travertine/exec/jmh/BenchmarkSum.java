package dev.travertine.exec.jmh;

import dev.travertine.exec.agg.AggCall;
import dev.travertine.exec.agg.AggCall.AggFunction;
import dev.travertine.exec.agg.HashAggregator;
import dev.travertine.vector.Batch;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code SELECT SUM(x)} (no GROUP BY) over decoded BIGINT vectors, 4 Mi rows (32 MiB) per
 * invocation: what a scan + SUM does per batch, through {@link HashAggregator} with no keys, next
 * to the bare loops it could be. The target is at least 500 M values/s. Score: values per second.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BenchmarkSum {
  static final int ROWS = 4 * 1024 * 1024;
  private static final AggCall SUM = new AggCall(AggFunction.SUM, 0, false, -1, AggInput.BIGINT);
  private static final AggCall COUNT = new AggCall(AggFunction.COUNT, -1, false, -1, AggInput.BIGINT);

  private Batch[] batches;
  private long expected;

  @Setup
  public void setup() {
    long[] x = Data.uniform(ROWS, 1_000_000, 31);
    for (long v : x) {
      expected += v;
    }
    batches = Data.longBatches(x);
    HashAggregator a = run(List.of(SUM));
    long got = ((LongColumnVector) a.result(1).get(0).cols()[0]).vector[0];
    if (got != expected || rawLoop() != expected || denseLoop() != expected) {
      throw new IllegalStateException("SUM " + got + ", expected " + expected);
    }
  }

  private HashAggregator run(List<AggCall> calls) {
    HashAggregator a = new HashAggregator(List.of(AggInput.BIGINT), new int[0], calls);
    for (Batch b : batches) {
      a.add(b);
    }
    return a;
  }

  /** SUM(x) through the aggregator. */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public HashAggregator sum() {
    return run(List.of(SUM));
  }

  /** COUNT(*), SUM(x): two states per row. */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public HashAggregator countAndSum() {
    return run(List.of(COUNT, SUM));
  }

  /** The bare loop over the selection: sum += x[sel[k]]. */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long rawLoop() {
    long s = 0;
    for (Batch b : batches) {
      long[] x = ((LongColumnVector) b.cols()[0]).vector;
      int[] sel = b.sel();
      int n = b.size();
      for (int k = 0; k < n; k++) {
        s += x[sel[k]];
      }
    }
    return s;
  }

  /** The bare loop when every row is selected (no selection vector): sum += x[i]. */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long denseLoop() {
    long s = 0;
    for (Batch b : batches) {
      long[] x = ((LongColumnVector) b.cols()[0]).vector;
      int n = b.size();
      for (int i = 0; i < n; i++) {
        s += x[i];
      }
    }
    return s;
  }
}
