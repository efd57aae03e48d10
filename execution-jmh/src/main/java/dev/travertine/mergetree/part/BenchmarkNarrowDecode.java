package dev.travertine.mergetree.part;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.OrcProto;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
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
 * Decoding a SMALLINT column's ORC stream (run-length encoding v2, as ORC's writer encodes it)
 * into Hive's 8-byte {@code long[]} ({@code longs}) or straight into a {@code short[]} at the
 * column's width ({@code shorts}: {@link RleV2Reader#readShorts}, what parts decode into our
 * narrow vectors with), then filtering {@code <> 0} over the batch into a selection in either of
 * the engine's loop forms ({@code branching}); and each alone ({@code …DecodeOnly}, {@code
 * filterOnly…} over one decoded batch). 1 Mi values in batches of 4,096. {@code shape}:
 * {@code flags} (95 % zeros, the rest small values here and there, as ClickBench's AdvEngineID:
 * runs of one value between direct runs of one or two), {@code small} (random 0..1999 as
 * ResolutionWidth: direct runs of 11 bits), {@code steps} (long runs of one value, as a sorted
 * key's). In package {@code part} for the package-private decoder. Score: values per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BenchmarkNarrowDecode {
  static final int ROWS = 1 << 20;
  static final int BATCH = 4096;

  @Param({"flags", "small", "steps"})
  public String shape;

  /**
   * The filter's loop form, as the engine picks it: a branch per row ({@code true}) for
   * selections that keep almost all rows or almost none (all three shapes here: 5 %, 99.95 %,
   * 99.5 % pass), or branch-free ({@code false}) for the others.
   */
  @Param({"true", "false"})
  public boolean branching;

  /** The column's decompressed DATA stream of each stripe, padded as the reader pads it. */
  private final List<byte[]> streams = new ArrayList<>();
  private final List<Integer> lengths = new ArrayList<>();
  private final List<Long> rows = new ArrayList<>();
  private final long[] longs = new long[BATCH];
  private final short[] shorts = new short[BATCH];
  private final int[] sel = new int[BATCH];

  @Setup
  public void write() throws IOException {
    Path dir = Files.createTempDirectory("narrow-decode");
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve("t.orc").toString());
    Configuration conf = new Configuration(false);
    FileSystem fs = FileSystem.getLocal(conf);
    TypeDescription schema = TypeDescription.fromString("struct<x:smallint>");
    SplittableRandom rnd = new SplittableRandom(35);
    try (Writer w = OrcFile.createWriter(file, OrcFile.writerOptions(conf).fileSystem(fs).setSchema(schema)
        .compress(CompressionKind.NONE))) {
      VectorizedRowBatch b = schema.createRowBatch(BATCH);
      LongColumnVector x = (LongColumnVector) b.cols[0];
      for (int r = 0; r < ROWS; r++) {
        x.vector[b.size++] = switch (shape) {
          case "flags" -> rnd.nextInt(20) == 0 ? 1 + rnd.nextInt(30) : 0;
          case "small" -> rnd.nextInt(2000);
          default -> r / 5000;
        };
        if (b.size == BATCH) {
          w.addRowBatch(b);
          b.reset();
        }
      }
    }
    try (Reader reader = OrcFile.createReader(file, OrcFile.readerOptions(conf).filesystem(fs));
        FSDataInputStream in = fs.open(file)) {
      for (StripeInformation si : reader.getStripes()) {
        byte[] footer = new byte[(int) si.getFooterLength()];
        in.readFully(si.getOffset() + si.getIndexLength() + si.getDataLength(), footer);
        OrcProto.StripeFooter f = OrcProto.StripeFooter.parseFrom(footer); // no compression
        long at = si.getOffset();
        for (OrcProto.Stream s : f.getStreamsList()) {
          if (s.getColumn() == 1 && s.getKind() == OrcProto.Stream.Kind.DATA) {
            byte[] data = new byte[(int) s.getLength() + OrcStreamReader.PADDING];
            in.readFully(at, data, 0, (int) s.getLength());
            streams.add(data);
            lengths.add((int) s.getLength());
            rows.add(si.getNumberOfRows());
          }
          at += s.getLength();
        }
      }
    }
    long sum = 0;
    long check = 0;
    for (int s = 0; s < streams.size(); s++) {
      RleV2Reader a = new RleV2Reader(streams.get(s), 0, lengths.get(s), true);
      RleV2Reader b = new RleV2Reader(streams.get(s), 0, lengths.get(s), true);
      for (long left = rows.get(s); left > 0; left -= BATCH) {
        int n = (int) Math.min(BATCH, left);
        a.read(longs, 0, n);
        b.readShorts(shorts, 0, n);
        for (int i = 0; i < n; i++) {
          sum += longs[i];
          check += shorts[i];
        }
      }
    }
    if (sum != check) {
      throw new IllegalStateException("the two decodings differ");
    }
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public int longs() {
    int kept = 0;
    for (int s = 0; s < streams.size(); s++) {
      RleV2Reader r = new RleV2Reader(streams.get(s), 0, lengths.get(s), true);
      for (long left = rows.get(s); left > 0; left -= BATCH) {
        int n = (int) Math.min(BATCH, left);
        r.read(longs, 0, n);
        kept += branching ? branchingLongs(longs, n, sel) : branchFreeLongs(longs, n, sel);
      }
    }
    return kept;
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public int shorts() {
    int kept = 0;
    for (int s = 0; s < streams.size(); s++) {
      RleV2Reader r = new RleV2Reader(streams.get(s), 0, lengths.get(s), true);
      for (long left = rows.get(s); left > 0; left -= BATCH) {
        int n = (int) Math.min(BATCH, left);
        r.readShorts(shorts, 0, n);
        kept += branching ? branchingShorts(shorts, n, sel) : branchFreeShorts(shorts, n, sel);
      }
    }
    return kept;
  }

  /** Decoding alone, into {@code long[]}. */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long longsDecodeOnly() {
    long last = 0;
    for (int s = 0; s < streams.size(); s++) {
      RleV2Reader r = new RleV2Reader(streams.get(s), 0, lengths.get(s), true);
      for (long left = rows.get(s); left > 0; left -= BATCH) {
        int n = (int) Math.min(BATCH, left);
        r.read(longs, 0, n);
        last += longs[n - 1];
      }
    }
    return last;
  }

  /** Decoding alone, into {@code short[]}. */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long shortsDecodeOnly() {
    long last = 0;
    for (int s = 0; s < streams.size(); s++) {
      RleV2Reader r = new RleV2Reader(streams.get(s), 0, lengths.get(s), true);
      for (long left = rows.get(s); left > 0; left -= BATCH) {
        int n = (int) Math.min(BATCH, left);
        r.readShorts(shorts, 0, n);
        last += shorts[n - 1];
      }
    }
    return last;
  }

  /** The filter alone over one decoded batch, {@code long[]}. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int filterOnlyLongs() {
    return branching ? branchingLongs(longs, BATCH, sel) : branchFreeLongs(longs, BATCH, sel);
  }

  /** The filter alone over one decoded batch, {@code short[]}. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int filterOnlyShorts() {
    return branching ? branchingShorts(shorts, BATCH, sel) : branchFreeShorts(shorts, BATCH, sel);
  }

  // The engine's two loop forms (Comparison's dense loops, Int16Vector's selectEq), for x <> 0.

  private static int branchingLongs(long[] x, int n, int[] out) {
    int c = 0;
    for (int i = 0; i < n; i++) {
      if (x[i] != 0) {
        out[c++] = i;
      }
    }
    return c;
  }

  private static int branchFreeLongs(long[] x, int n, int[] out) {
    int c = 0;
    for (int i = 0; i < n; i++) {
      out[c] = i;
      c += x[i] != 0 ? 1 : 0;
    }
    return c;
  }

  private static int branchingShorts(short[] x, int n, int[] out) {
    int c = 0;
    for (int i = 0; i < n; i++) {
      if (x[i] != 0) {
        out[c++] = i;
      }
    }
    return c;
  }

  private static int branchFreeShorts(short[] x, int n, int[] out) {
    int c = 0;
    for (int i = 0; i < n; i++) {
      out[c] = i;
      c += x[i] != 0 ? 1 : 0;
    }
    return c;
  }

}
