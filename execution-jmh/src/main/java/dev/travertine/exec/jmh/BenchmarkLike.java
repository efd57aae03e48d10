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
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
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
 * {@code URL LIKE '%google%'} through {@code filter()} on URLs of about 68 bytes, 1.5 % of them
 * matching (and many near misses: "goo", "good", "goat"). Score: strings per second. 256 Ki rows
 * (about 18 MB of string bytes) per invocation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BenchmarkLike {
  static final int ROWS = 256 * 1024;
  private static final DataType VARCHAR = DataType.varchar(-1);

  /** The LIKE pattern (a constant). */
  @Param({"%google%"})
  public String pattern;

  /** Percentage of URLs that contain "google". */
  @Param({"1.5"})
  public double matchPercent;

  private Batch[] batches;
  private VectorExpression like;
  private final int[] out = new int[Data.BATCH];
  /** Average bytes per URL (printed once, to turn strings/s into bytes/s). */
  public double avgBytes;

  @Setup
  public void setup() {
    byte[][] urls = Data.urls(ROWS, matchPercent, 3);
    long bytes = 0;
    for (byte[] u : urls) {
      bytes += u.length;
    }
    avgBytes = (double) bytes / ROWS;
    batches = new Batch[ROWS / Data.BATCH];
    for (int b = 0; b < batches.length; b++) {
      batches[b] = new Batch(new ColumnVector[] {Data.strings(urls, b * Data.BATCH)}, Data.ALL, Data.BATCH);
    }
    like = Evaluators.compile(new Expr.Call(Op.LIKE,
        List.of(new Expr.Column(0, VARCHAR, false), new Expr.Constant(pattern, VARCHAR)), DataType.of(TypeKind.BOOLEAN), false));
    long kept = filterAll();
    System.out.printf("%n[setup] %d URLs, %.1f bytes on average, %.2f %% match %s%n",
        ROWS, avgBytes, 100.0 * kept / ROWS, pattern);
  }

  private long filterAll() {
    long kept = 0;
    for (Batch b : batches) {
      kept += like.filter(b, out);
    }
    return kept;
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long like() {
    return filterAll();
  }
}
