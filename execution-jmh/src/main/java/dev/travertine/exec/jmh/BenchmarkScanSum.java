package dev.travertine.exec.jmh;

import dev.travertine.exec.agg.AggCall;
import dev.travertine.exec.agg.AggCall.AggFunction;
import dev.travertine.exec.agg.HashAggregator;
import dev.travertine.mergetree.Database;
import dev.travertine.mergetree.Inserter;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.scan.ReadSettings;
import dev.travertine.mergetree.scan.ScanRequest;
import dev.travertine.mergetree.scan.TableScanner;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code SELECT SUM(v) FROM t} on one thread, from a real part on local disk: the table scan
 * (ORC decoding, or the decoded-column cache with {@code cached = true}) feeding a no-key
 * {@link HashAggregator}, as a vectorized fragment runs it. 4 Mi BIGINT values in one part:
 * {@code small} values (0..999, ORC's run-length encoding packs them in 10 bits) or
 * {@code random} 64-bit ones (no packing). The file is in the OS page cache after the first
 * read, so "cold" means decoding, not disk. Targets: at least 100 M values/s decoding, 500 M/s
 * from the cache. Score: values per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BenchmarkScanSum {
  static final int ROWS = 4 * 1024 * 1024;
  private static final DataType BIGINT = DataType.of(TypeKind.BIGINT);
  /** SUM of table column 1 (a scan's batches hold every table column, unread ones empty). */
  private static final AggCall SUM = new AggCall(AggFunction.SUM, 1, false, -1, BIGINT);

  @Param({"small", "random"})
  public String values;

  @Param({"false", "true"})
  public boolean cached;

  private Path dir;
  private Database db;
  private MergeTreeTable table;
  private long expected;

  @Setup(Level.Trial)
  public void load() throws IOException {
    dir = Files.createTempDirectory("travertine-jmh-scan");
    db = Database.open(dir);
    TableSchema schema = new TableSchema(List.of(new Column("k", BIGINT, false), new Column("v", BIGINT, false)));
    db.createTable(new TableDefinition("t", schema, List.of("k"), null, List.of(),
        Map.of("min_insert_rows_for_direct_part", "1"), List.of()), false);
    table = db.table("t");
    SplittableRandom rnd = new SplittableRandom(7);
    try (Inserter ins = table.newInserter(ROWS + 1)) {
      for (int k = 0; k < ROWS; k++) {
        long v = values.equals("small") ? rnd.nextInt(1000) : rnd.nextLong();
        expected += v;
        ins.add(new Object[] {(long) k, v});
      }
      ins.commit();
    }
    if (sum() != expected) {
      throw new IllegalStateException("SUM differs from the values inserted");
    }
  }

  @TearDown(Level.Trial)
  public void drop() throws IOException {
    db.close();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long sum() throws IOException {
    HashAggregator a = new HashAggregator(List.of(BIGINT, BIGINT), new int[0], List.of(SUM));
    ScanRequest req = new ScanRequest(new int[] {1}, null, -1, false, 1, 4096, true,
        ReadSettings.DEFAULT.withUncompressedCache(cached));
    try (TableScanner s = TableScanner.open(table.snapshot(), req, table.context())) {
      Batch b;
      while ((b = s.next()) != null) {
        a.add(b);
      }
    }
    return ((LongColumnVector) a.result(1).get(0).cols()[0]).vector[0];
  }
}
