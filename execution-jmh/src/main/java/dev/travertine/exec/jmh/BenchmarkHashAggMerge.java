package dev.travertine.exec.jmh;

import dev.travertine.exec.agg.HashAggregator;
import dev.travertine.vector.Batch;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The merge alone of two partial GROUP BY aggregates ({@link HashAggBench}'s halves, 2 Mi rows
 * each, built before every invocation): what the caller's thread does when the scan ends.
 * Score: milliseconds per merge; groups per second is {@code groups / time}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BenchmarkHashAggMerge {
  @Param({"BIGINT", "VARCHAR"})
  public String key;

  @Param({"100000", "2000000"})
  public int groups;

  private Batch[] batches;
  private HashAggregator a;
  private HashAggregator b;

  @Setup(Level.Trial)
  public void data() {
    batches = AggInput.batches(key, groups, HashAggBench.ROWS, 11);
  }

  @Setup(Level.Invocation)
  public void partials() {
    int half = batches.length / 2;
    a = AggInput.partial(key, batches, 0, half);
    b = AggInput.partial(key, batches, half, batches.length);
  }

  @Benchmark
  public HashAggregator merge() {
    a.merge(b);
    return a;
  }
}
