package dev.travertine.exec.jmh;

import dev.travertine.exec.Columns;
import dev.travertine.mergetree.block.Vectors;
import dev.travertine.mergetree.schema.DataType;
import dev.travertine.mergetree.schema.TypeKind;
import dev.travertine.rpc.block.BlockReader;
import dev.travertine.rpc.block.BlockWriter;
import dev.travertine.rpc.block.Codec;
import dev.travertine.rpc.block.WireBlock;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Marshalling a block of the exchange (rpc-marshalling's wire format, LZ4) against compressing the
 * same bytes with lz4-java alone, one thread: 65,536 rows of a hits-like batch (a small BIGINT
 * key, a random BIGINT, an INTEGER, a URL-like VARCHAR with NULLs). The target: marshalling
 * (and unmarshalling) at 70 % or more of raw LZ4's speed. Score: rows per second.
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

  private ColumnVector[] cols;
  private int[] sel;
  private final BlockWriter writer = new BlockWriter(Codec.LZ4, 1);
  private byte[] block;
  private byte[] rawBlock;
  private byte[] packed;
  private int packedLength;
  private byte[] unpacked;

  @Setup
  public void data() {
    SplittableRandom rnd = new SplittableRandom(78694);
    cols = new ColumnVector[TYPES.size()];
    for (int c = 0; c < cols.length; c++) {
      cols[c] = Columns.newVector(TYPES.get(c), ROWS);
    }
    for (int r = 0; r < ROWS; r++) {
      Vectors.set(cols[0], TYPES.get(0), r, (long) (r / 300));
      Vectors.set(cols[1], TYPES.get(1), r, rnd.nextLong());
      Vectors.set(cols[2], TYPES.get(2), r, rnd.nextInt(500));
      Vectors.set(cols[3], TYPES.get(3), r, rnd.nextInt(20) == 0 ? null
          : "http://site" + rnd.nextInt(3000) + ".example/path/" + rnd.nextInt(100000) + "?q=" + rnd.nextInt(50));
    }
    sel = Columns.identity(ROWS);
    block = writer.marshal(0, NAMES, TYPES, cols, sel, ROWS);
    rawBlock = new BlockWriter(Codec.NONE, 1).marshal(0, NAMES, TYPES, cols, sel, ROWS);
    packed = new byte[LZ4.maxCompressedLength(rawBlock.length)];
    packedLength = LZ4.compress(rawBlock, 0, rawBlock.length, packed, 0, packed.length);
    unpacked = new byte[rawBlock.length];
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public byte[] marshal() {
    return writer.marshal(0, NAMES, TYPES, cols, sel, ROWS);
  }

  /** lz4-java over the bytes marshal compresses (the block as marshalled without compression). */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public int rawLz4Compress() {
    return LZ4.compress(rawBlock, 0, rawBlock.length, packed, 0, packed.length);
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public WireBlock unmarshal() {
    return BlockReader.unmarshal(block);
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public int rawLz4Decompress() {
    return UNLZ4.decompress(packed, 0, packedLength, unpacked, 0, unpacked.length);
  }
}
