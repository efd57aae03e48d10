package dev.travertine.exec.jmh;

import dev.travertine.exec.join.JoinTable;
import dev.travertine.exec.op.Workers;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A hash join's build: copying 4 Mi rows (BIGINT key, INTEGER) out of 1,024-row batches, hashing
 * and chaining them, on the caller's thread alone ({@code threads = 1}) or split over the query's
 * workers. Score: milliseconds per table.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BenchmarkJoinBuild {
  static final int ROWS = 4 << 20;
  static final List<DataType> TYPES = List.of(DataType.of(TypeKind.BIGINT), DataType.of(TypeKind.INTEGER));

  @Param({"1", "2"})
  public int threads;

  private List<Batch> batches;
  private ExecutorService pool;
  private JoinTable.Parallel parallel;

  @Setup
  public void data() {
    batches = new ArrayList<>();
    for (int i = 0; i < ROWS / 1024; i++) {
      LongColumnVector k = new LongColumnVector(1024);
      LongColumnVector v = new LongColumnVector(1024);
      for (int j = 0; j < 1024; j++) {
        k.vector[j] = (i * 1024L + j) * 2;
        v.vector[j] = j % 7;
      }
      batches.add(new Batch(new ColumnVector[] {k, v}, Batch.identity(1024), 1024));
    }
    pool = Executors.newCachedThreadPool();
    parallel = threads == 1 ? null : new Workers(pool, threads).forJoinBuild(() -> { });
  }

  @TearDown
  public void stop() {
    pool.shutdownNow();
  }

  @Benchmark
  public JoinTable build() {
    return JoinTable.build(TYPES, new int[] {0}, batches, parallel);
  }
}
