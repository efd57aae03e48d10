package dev.travertine.exec.jmh;

import dev.travertine.exec.Columns;
import dev.travertine.rpc.block.BlockReader;
import dev.travertine.rpc.block.BlockWriter;
import dev.travertine.rpc.block.Codec;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Marshalling a block of the exchange (rpc-marshalling's wire format, LZ4) against compressing the
 * same bytes with lz4-java alone, one thread: 65,536 rows of a hits-like batch (a small BIGINT
 * key, a random BIGINT, an INTEGER, a URL-like VARCHAR with NULLs) in blocks of {@code blockRows}
 * rows: 4,096 is what the exchange sends ({@code max_block_size}'s default: a fragment's batches
 * are its blocks), 65,536 ClickHouse's block. The target: marshalling (and unmarshalling)
 * at 70 % or more of raw LZ4's speed. Score: rows per second.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BenchmarkMarshal {
  static final int ROWS = 1 << 16;
  private static final List<DataType> TYPES = List.of(DataType.of(TypeKind.BIGINT), DataType.of(TypeKind.BIGINT),
      DataType.of(TypeKind.INTEGER), DataType.varchar(-1));
  private static final List<String> NAMES = List.of("CounterID", "WatchID", "RegionID", "URL");
  private static final LZ4Compressor LZ4 = LZ4Factory.fastestInstance().fastCompressor();
  private static final LZ4SafeDecompressor UNLZ4 = LZ4Factory.fastestInstance().safeDecompressor();

  @Param({"4096", "65536"})
  public int blockRows;

  /** The rows of each block: a batch of {@code blockRows} rows, {@code ROWS / blockRows} of them. */
  private ColumnVector[][] cols;
  private int[] sel;
  private final BlockWriter writer = new BlockWriter(Codec.LZ4, 1);
  private byte[][] blocks;
  private byte[][] rawBlocks;
  private byte[][] packed;
  private int[] packedLength;
  private byte[] unpacked;

  @Setup
  public void data() {
    SplittableRandom rnd = new SplittableRandom(78694);
    int n = ROWS / blockRows;
    cols = new ColumnVector[n][TYPES.size()];
    blocks = new byte[n][];
    rawBlocks = new byte[n][];
    packed = new byte[n][];
    packedLength = new int[n];
    sel = Columns.identity(blockRows);
    for (int b = 0; b < n; b++) {
      ColumnVector[] v = cols[b];
      for (int c = 0; c < v.length; c++) {
        v[c] = Columns.newVector(TYPES.get(c), blockRows);
      }
      for (int i = 0; i < blockRows; i++) {
        int r = b * blockRows + i;
        Vectors.set(v[0], TYPES.get(0), i, (long) (r / 300));
        Vectors.set(v[1], TYPES.get(1), i, rnd.nextLong());
        Vectors.set(v[2], TYPES.get(2), i, rnd.nextInt(500));
        Vectors.set(v[3], TYPES.get(3), i, rnd.nextInt(20) == 0 ? null
            : "http://site" + rnd.nextInt(3000) + ".example/path/" + rnd.nextInt(100000) + "?q=" + rnd.nextInt(50));
      }
      blocks[b] = writer.marshal(b, NAMES, TYPES, v, sel, blockRows);
      rawBlocks[b] = new BlockWriter(Codec.NONE, 1).marshal(b, NAMES, TYPES, v, sel, blockRows);
      packed[b] = new byte[LZ4.maxCompressedLength(rawBlocks[b].length)];
      packedLength[b] = LZ4.compress(rawBlocks[b], 0, rawBlocks[b].length, packed[b], 0, packed[b].length);
    }
    unpacked = new byte[rawBlocks[0].length * 2];
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public int marshal() {
    int bytes = 0;
    for (int b = 0; b < cols.length; b++) {
      bytes += writer.marshal(b, NAMES, TYPES, cols[b], sel, blockRows).length;
    }
    return bytes;
  }

  /** lz4-java over the bytes marshal compresses (the block as marshalled without compression). */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public int rawLz4Compress() {
    int bytes = 0;
    for (byte[] raw : rawBlocks) {
      bytes += LZ4.compress(raw, 0, raw.length, unpacked, 0, unpacked.length);
    }
    return bytes;
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public void unmarshal(Blackhole out) {
    for (byte[] block : blocks) {
      out.consume(BlockReader.unmarshal(block));
    }
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public int rawLz4Decompress() {
    int bytes = 0;
    for (int b = 0; b < packed.length; b++) {
      bytes += UNLZ4.decompress(packed[b], 0, packedLength[b], unpacked, 0, unpacked.length);
    }
    return bytes;
  }
}
