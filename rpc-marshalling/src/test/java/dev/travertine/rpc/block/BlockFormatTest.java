package dev.travertine.rpc.block;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.travertine.exec.Columns;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.junit.jupiter.api.Test;

/**
 * The block wire format: every type with and without NULLs, repeating vectors, selections with
 * gaps, empty blocks, each codec; and damaged blocks (flipped, truncated, forged) refused with
 * {@link CorruptBlockException}, never another exception or a wrong block.
 */
class BlockFormatTest {
  static final List<DataType> TYPES = List.of(DataType.of(TypeKind.BOOLEAN), DataType.of(TypeKind.TINYINT),
      DataType.of(TypeKind.SMALLINT), DataType.of(TypeKind.INTEGER), DataType.of(TypeKind.BIGINT),
      DataType.of(TypeKind.REAL), DataType.of(TypeKind.DOUBLE), DataType.decimal(10, 2), DataType.decimal(38, 6),
      new DataType(TypeKind.CHAR, 3, -1), DataType.varchar(-1), DataType.of(TypeKind.DATE),
      DataType.of(TypeKind.TIMESTAMP));

  private static List<String> names(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add("c" + i + (i % 3 == 0 ? "_ünï" : ""));
    }
    return out;
  }

  /** A random value of the type (as Vectors.set takes it), or null. */
  private static Object value(Random rnd, DataType t, double nullRate) {
    if (rnd.nextDouble() < nullRate) {
      return null;
    }
    return switch (t.kind()) {
      case BOOLEAN -> rnd.nextBoolean();
      case TINYINT -> (byte) rnd.nextInt();
      case SMALLINT -> (short) rnd.nextInt();
      case INTEGER -> rnd.nextInt(5) == 0 ? Integer.MIN_VALUE : rnd.nextInt();
      case BIGINT -> rnd.nextInt(5) == 0 ? Long.MAX_VALUE : rnd.nextLong();
      case REAL -> (float) rnd.nextGaussian();
      case DOUBLE -> rnd.nextInt(7) == 0 ? Double.NaN : rnd.nextInt(7) == 0 ? -0.0 : rnd.nextGaussian() * 1e10;
      case DECIMAL -> t.precision() <= 18 ? BigDecimal.valueOf(rnd.nextInt(2_000_000_000) - 1_000_000_000L, 2)
          : new BigDecimal(new java.math.BigInteger(100, rnd)).movePointLeft(6).negate();
      case CHAR -> "" + (char) ('a' + rnd.nextInt(3)) + (char) ('a' + rnd.nextInt(3)) + "z";
      case VARCHAR -> rnd.nextInt(6) == 0 ? "" : "s" + rnd.nextInt(1000) + "ü".repeat(rnd.nextInt(3));
      case DATE -> rnd.nextInt(40000) - 20000;
      case TIMESTAMP -> rnd.nextLong() % 4_000_000_000_000L;
    };
  }

  private record Batch(ColumnVector[] cols, int[] sel, int n, List<List<Object>> rows) {}

  /** Vectors of {@code cap} rows; a selection of some of them; the selected rows' values. */
  private static Batch batch(Random rnd, List<DataType> types, int cap, double nullRate) {
    ColumnVector[] cols = new ColumnVector[types.size()];
    boolean[] repeating = new boolean[types.size()];
    for (int c = 0; c < cols.length; c++) {
      cols[c] = Columns.newVector(types.get(c), cap);
      repeating[c] = rnd.nextInt(6) == 0;
      for (int r = 0; r < cap; r++) {
        Vectors.set(cols[c], types.get(c), r, value(rnd, types.get(c), nullRate));
      }
      cols[c].isRepeating = repeating[c];
      if (rnd.nextInt(3) == 0 && nullRate == 0) {
        cols[c].noNulls = true;
      }
    }
    int[] all = new int[cap];
    int n = 0;
    boolean dense = rnd.nextBoolean();
    for (int r = 0; r < cap; r++) {
      if (dense || rnd.nextInt(3) > 0) {
        all[n++] = r;
      }
    }
    int[] sel = Arrays.copyOf(all, n);
    List<List<Object>> rows = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      List<Object> row = new ArrayList<>();
      for (int c = 0; c < cols.length; c++) {
        row.add(Vectors.get(cols[c], types.get(c).kind(), repeating[c] ? 0 : sel[k]));
      }
      rows.add(row);
    }
    return new Batch(cols, sel, n, rows);
  }

  private static List<List<Object>> rows(WireBlock b) {
    List<List<Object>> out = new ArrayList<>();
    for (int r = 0; r < b.rows(); r++) {
      List<Object> row = new ArrayList<>();
      for (int c = 0; c < b.columns().length; c++) {
        row.add(Vectors.get(b.columns()[c], b.types().get(c).kind(), r));
      }
      out.add(row);
    }
    return out;
  }

  private static void assertSameRows(List<List<Object>> want, List<List<Object>> got, String what) {
    assertEquals(want.size(), got.size(), what + ": rows");
    for (int r = 0; r < want.size(); r++) {
      for (int c = 0; c < want.get(r).size(); c++) {
        Object a = want.get(r).get(c);
        Object b = got.get(r).get(c);
        boolean same = a instanceof BigDecimal x && b instanceof BigDecimal y ? x.compareTo(y) == 0
            : a instanceof Double x && b instanceof Double y ? Double.compare(x, y) == 0 : java.util.Objects.equals(a, b);
        if (!same) {
          fail(what + ": row " + r + " column " + c + ": " + a + " became " + b);
        }
      }
    }
  }

  @Test
  void everyTypeRoundTripsWithEveryCodec() {
    Random rnd = new Random(16);
    for (Codec codec : Codec.values()) {
      BlockWriter w = new BlockWriter(codec, 1);
      for (int round = 0; round < 40; round++) {
        double nullRate = round % 3 == 0 ? 0 : round % 3 == 1 ? 0.2 : 1;
        Batch b = batch(rnd, TYPES, 1 + rnd.nextInt(round % 5 == 0 ? 5000 : 300), nullRate);
        byte[] bytes = w.marshal(round, names(TYPES.size()), TYPES, b.cols(), b.sel(), b.n());
        WireBlock got = BlockReader.unmarshal(bytes);
        String what = codec + " round " + round;
        assertEquals(round, got.sequence(), what);
        assertEquals(names(TYPES.size()), got.names(), what);
        assertEquals(TYPES, got.types(), what);
        assertSameRows(b.rows(), rows(got), what);
      }
    }
  }

  /**
   * A reader decompresses into a buffer of its thread that the next block overwrites, and reads
   * uncompressed frames where they lie in the block: what it returned must not change when the
   * same thread reads further blocks.
   */
  @Test
  void blocksStayIntactWhileTheThreadReadsMore() {
    Random rnd = new Random(78694);
    for (Codec codec : Codec.values()) {
      BlockWriter w = new BlockWriter(codec, 1);
      List<Batch> sent = new ArrayList<>();
      List<WireBlock> got = new ArrayList<>();
      for (int round = 0; round < 12; round++) {
        Batch b = batch(rnd, TYPES, 1 + rnd.nextInt(2000), round % 2 == 0 ? 0 : 0.2);
        sent.add(b);
        byte[] bytes = w.marshal(round, names(TYPES.size()), TYPES, b.cols(), b.sel(), b.n());
        got.add(BlockReader.unmarshal(bytes));
      }
      for (int round = 0; round < sent.size(); round++) {
        assertSameRows(sent.get(round).rows(), rows(got.get(round)), codec + " block " + round + " read 11 blocks ago");
      }
    }
  }

  @Test
  void emptyBlocks() {
    BlockWriter w = new BlockWriter(Codec.LZ4, 1);
    WireBlock none = BlockReader.unmarshal(w.marshal(7, List.of(), List.of(), new ColumnVector[0], new int[0], 0));
    assertEquals(0, none.rows());
    assertEquals(0, none.columns().length);
    Batch b = batch(new Random(1), TYPES, 10, 0.3);
    WireBlock noRows = BlockReader.unmarshal(w.marshal(8, names(TYPES.size()), TYPES, b.cols(), b.sel(), 0));
    assertEquals(0, noRows.rows());
    assertEquals(TYPES, noRows.types(), "an empty block still tells its schema");
  }

  @Test
  void compressibleColumnsShrinkAndIncompressibleOnesAreStoredRaw() {
    int n = 100_000;
    List<DataType> types = List.of(DataType.of(TypeKind.BIGINT), DataType.of(TypeKind.BIGINT));
    ColumnVector small = Columns.newVector(types.get(0), n);
    ColumnVector random = Columns.newVector(types.get(1), n);
    Random rnd = new Random(3);
    for (int r = 0; r < n; r++) {
      Vectors.set(small, types.get(0), r, (long) (r % 100));
      Vectors.set(random, types.get(1), r, rnd.nextLong());
    }
    for (Codec codec : List.of(Codec.LZ4, Codec.ZSTD)) {
      byte[] block = new BlockWriter(codec, 1).marshal(0, List.of("s", "r"), types, new ColumnVector[] {small, random},
          Columns.identity(n), n);
      // header 4+1+1+8+4+2 + 2 columns of (2 + 1 name + 5 type); frames follow
      int first = 20 + 2 * 8;
      assertEquals(codec.id, block[first], codec + ": the small values are compressed");
      int stored = (int) Out.I32.get(block, first + 5);
      assertTrue(stored < 8 * n / 4, codec + ": " + stored + " bytes");
      int second = first + BlockWriter.FRAME_HEADER + stored;
      assertEquals(Codec.NONE.id, block[second], codec + ": random longs do not compress, so they travel raw");
      assertEquals(1 + 8 * n, (int) Out.I32.get(block, second + 5));
      assertEquals(n, BlockReader.unmarshal(block).rows());
    }
  }

  private static byte[] sample(Codec codec) {
    Batch b = batch(new Random(5), TYPES, 200, 0.2);
    return new BlockWriter(codec, 3).marshal(42, names(TYPES.size()), TYPES, b.cols(), b.sel(), b.n());
  }

  @Test
  void everyTruncationIsRefused() {
    for (Codec codec : Codec.values()) {
      byte[] block = sample(codec);
      for (int len = 0; len < block.length; len++) {
        byte[] cut = Arrays.copyOf(block, len);
        CorruptBlockException e = assertThrows(CorruptBlockException.class, () -> BlockReader.unmarshal(cut),
            codec + ", cut at " + len);
        assertTrue(e.getMessage().startsWith("Corrupt block"), e.getMessage());
      }
      byte[] longer = Arrays.copyOf(block, block.length + 1);
      assertThrows(CorruptBlockException.class, () -> BlockReader.unmarshal(longer), "a byte too many");
    }
  }

  @Test
  void everyFlippedByteIsRefusedOrHarmless() {
    for (Codec codec : Codec.values()) {
      byte[] block = sample(codec);
      List<List<Object>> want = rows(BlockReader.unmarshal(block));
      int header = 20;
      for (int i = 0; i < block.length; i++) {
        byte[] bad = block.clone();
        bad[i] ^= (byte) (1 << (i % 8));
        try {
          WireBlock got = BlockReader.unmarshal(bad);
          // Only header bytes outside the checksums may change and still read: the sequence
          // number, the flags, a name or a type's precision/scale. Never the values.
          assertTrue(i < header || got.sequence() != 42 || !got.names().equals(names(TYPES.size()))
              || !got.types().equals(TYPES), codec + ": byte " + i + " flipped and nothing noticed");
          if (got.types().equals(TYPES)) {
            assertSameRows(want, rows(got), codec + ", byte " + i);
          }
        } catch (CorruptBlockException expected) {
          // refused: fine
        }
      }
    }
  }

  @Test
  void forgedHeadersAreNamed() {
    byte[] block = sample(Codec.LZ4);
    byte[] magic = block.clone();
    magic[0] = 'X';
    assertTrue(assertThrows(CorruptBlockException.class, () -> BlockReader.unmarshal(magic)).getMessage()
        .contains("wrong magic"));
    byte[] version = block.clone();
    version[4] = 9;
    assertTrue(assertThrows(CorruptBlockException.class, () -> BlockReader.unmarshal(version)).getMessage()
        .contains("format version 9"));
    byte[] garbage = "definitely not a block".getBytes(StandardCharsets.UTF_8);
    assertThrows(CorruptBlockException.class, () -> BlockReader.unmarshal(garbage));
    Random rnd = new Random(9);
    for (int i = 0; i < 2000; i++) { // random bytes after a valid magic and version
      byte[] b = new byte[rnd.nextInt(200)];
      rnd.nextBytes(b);
      if (b.length >= 5) {
        System.arraycopy(BlockWriter.MAGIC, 0, b, 0, 4);
        b[4] = 1;
      }
      try {
        BlockReader.unmarshal(b);
      } catch (CorruptBlockException expected) {
        // the only way to fail
      }
    }
  }

  /** Sizes outside the checksums that would make a reader allocate gigabytes are refused first. */
  @Test
  void forgedSizesAreRefusedBeforeAllocating() {
    for (Codec codec : Codec.values()) {
      byte[] block = sample(codec);
      int names = 20;
      int at = names;
      for (int c = 0; c < TYPES.size(); c++) {
        at += 2 + ((int) Out.I16.get(block, at) & 0xffff) + 5;
      }
      byte[] raw = block.clone();
      Out.I32.set(raw, at + 1, Integer.MAX_VALUE - 100); // the first frame's raw size
      assertThrows(CorruptBlockException.class, () -> BlockReader.unmarshal(raw), codec + ": raw size");
      byte[] rows = block.clone();
      Out.I32.set(rows, 14, 1 << 30); // the row count
      assertThrows(CorruptBlockException.class, () -> BlockReader.unmarshal(rows), codec + ": row count");
    }
  }

  @Test
  void theSameBatchMarshalsToTheSameBytes() {
    byte[] a = sample(Codec.ZSTD);
    byte[] b = sample(Codec.ZSTD);
    assertArrayEquals(a, b);
  }

  @Test
  void codecNames() {
    assertEquals(Codec.LZ4, Codec.parse("LZ4"));
    assertEquals(Codec.ZSTD, Codec.parse("zstd"));
    assertEquals(Codec.NONE, Codec.parse("none"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Codec.parse("gzip"));
    assertTrue(e.getMessage().contains("gzip"), e.getMessage());
  }
}
