package dev.travertine.exec.jmh;

import dev.travertine.exec.agg.HashAggregator;
import dev.travertine.vector.Batch;
import java.util.concurrent.TimeUnit;
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
 * {@code SELECT key, COUNT(*), SUM(v) GROUP BY key} through {@link HashAggregator} over 4 Mi
 * rows (64 MiB and more of input per invocation), from an empty aggregator each time, as one
 * worker's partial aggregate does. Score: input rows per second. The subclasses choose the key
 * type and the numbers of groups.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public abstract class HashAggBench {
  static final int ROWS = 4 * 1024 * 1024;

  Batch[] batches;

  abstract String key();

  abstract int groups();

  @Setup
  public void setup() {
    batches = AggInput.batches(key(), groups(), ROWS, 11);
    AggInput.check(key(), aggregate(), groups(), ROWS);
  }

  /** One aggregator over every batch. */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public HashAggregator aggregate() {
    return AggInput.partial(key(), batches, 0, batches.length);
  }

  /** Two partials (two workers' halves, run one after the other) and the merge of the second into the first. */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public HashAggregator twoPartialsMerged() {
    int half = batches.length / 2;
    HashAggregator a = AggInput.partial(key(), batches, 0, half);
    HashAggregator b = AggInput.partial(key(), batches, half, batches.length);
    a.merge(b);
    return a;
  }
}
