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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code SELECT COUNT(DISTINCT x)} (no GROUP BY) over 10 Mi BIGINT values (80 MiB) with 1 Mi
 * distinct ones in random order, from an empty aggregator each time. Score: input rows per
 * second.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BenchmarkCountDistinct {
  static final int ROWS = 10 * 1024 * 1024;
  private static final List<AggCall> CALLS =
      List.of(new AggCall(AggFunction.COUNT, 0, true, -1, AggInput.BIGINT));

  @Param({"1048576"})
  public int distinct;

  private Batch[] batches;

  @Setup
  public void setup() {
    batches = Data.longBatches(Data.scatterAll(Data.ids(ROWS, distinct, 21)));
    long got = ((LongColumnVector) countDistinct().result(1).get(0).cols()[0]).vector[0];
    if (got != distinct) {
      throw new IllegalStateException("COUNT(DISTINCT) " + got + ", expected " + distinct);
    }
  }

  private static HashAggregator partial(Batch[] batches, int from, int to) {
    HashAggregator a = new HashAggregator(List.of(AggInput.BIGINT), new int[0], CALLS);
    for (int b = from; b < to; b++) {
      a.add(batches[b]);
    }
    return a;
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public HashAggregator countDistinct() {
    return partial(batches, 0, batches.length);
  }

  /** Two halves as two workers' partials, then the merge. */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public HashAggregator twoPartialsMerged() {
    int half = batches.length / 2;
    HashAggregator a = partial(batches, 0, half);
    a.merge(partial(batches, half, batches.length));
    return a;
  }
}
