package dev.travertine.mergetree.block;

import dev.travertine.mergetree.RandomValues;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Vectors;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.junit.jupiter.api.Test;

/**
 * {@link BlockCodec}, the write-ahead log's payload format: blocks of every column type decode to
 * the values that were appended, and damaged input fails instead of decoding to other rows.
 */
class BlockCodecTest {
  private static final TableSchema SCHEMA = RandomValues.ALL_TYPES;

  private static List<Object[]> randomRows(Random rnd, int n) {
    List<Object[]> rows = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      Object[] row = new Object[SCHEMA.size()];
      for (int c = 0; c < row.length; c++) {
        Column col = SCHEMA.column(c);
        row[c] = col.nullable() && rnd.nextInt(5) == 0 ? null : RandomValues.value(rnd, col.type());
      }
      rows.add(row);
    }
    return rows;
  }

  private static Block blockOf(List<Object[]> rows) {
    Block b = new Block(SCHEMA);
    rows.forEach(b::appendRow);
    return b;
  }

  private static void assertRows(List<Object[]> expected, Block actual, String what) {
    assertEquals(expected.size(), actual.rows(), what + ": rows");
    for (int r = 0; r < expected.size(); r++) {
      for (int c = 0; c < SCHEMA.size(); c++) {
        // equals: NaN equals NaN, -0.0 differs from 0.0, BigDecimal keeps its scale
        assertEquals(expected.get(r)[c], actual.get(r, c),
            what + ": row " + r + " column " + SCHEMA.column(c).name());
      }
    }
  }

  /**
   * Blocks of every type with NULLs, of sizes around the chunk size (one partly filled chunk,
   * exactly full chunks, several chunks), decode value by value to the rows appended.
   */
  @Test
  void everyTypeWithNullsRoundTrips() {
    Random rnd = new Random(42);
    for (int n : new int[] {1, 2, Block.CHUNK - 1, Block.CHUNK, Block.CHUNK + 1, 3 * Block.CHUNK + 17}) {
      List<Object[]> rows = randomRows(rnd, n);
      Block decoded = BlockCodec.decode(SCHEMA, BlockCodec.encode(blockOf(rows)));
      assertRows(rows, decoded, n + " rows");
      assertEquals((n + Block.CHUNK - 1) / Block.CHUNK, decoded.chunks().size(), "decoded into full chunks");
    }
  }

  /** A block of no rows decodes to a block of no rows of the same schema. */
  @Test
  void emptyBlockRoundTrips() {
    Block decoded = BlockCodec.decode(SCHEMA, BlockCodec.encode(new Block(SCHEMA)));
    assertEquals(0, decoded.rows());
    assertTrue(decoded.chunks().isEmpty());
    assertEquals(SCHEMA, decoded.schema());
  }

  /**
   * Chunks handed over whole (as readers of files produce them) may have repeating vectors (one
   * value, or NULL, standing for every row) and stale values behind NULL flags: each row decodes to
   * what {@link Block#get} shows for it.
   */
  @Test
  void repeatingVectorsAndHandedOverChunksRoundTrip() {
    Random rnd = new Random(7);
    Block block = new Block(SCHEMA);
    List<Object[]> expected = new ArrayList<>();
    for (int chunk = 0; chunk < 3; chunk++) {
      int size = chunk < 2 ? Block.CHUNK : 300;
      VectorizedRowBatch batch = OrcBatches.newBatch(SCHEMA.orcSchema(), Block.CHUNK);
      List<Object[]> rows = randomRows(rnd, size);
      for (int c = 0; c < SCHEMA.size(); c++) {
        DataType t = SCHEMA.column(c).type();
        int mode = c == 0 ? 0 : rnd.nextInt(3); // 0: values, 1: one repeated value, 2: repeated NULL
        Object repeated = mode == 1 ? RandomValues.value(rnd, t) : null;
        if (mode != 0) {
          for (Object[] row : rows) {
            row[c] = repeated;
          }
        }
        if (mode == 0) {
          for (int r = 0; r < size; r++) {
            Vectors.set(batch.cols[c], t, r, rows.get(r)[c]);
          }
        } else {
          // A stale non-null value behind every row but the first: must not leak into the result.
          for (int r = 1; r < size; r++) {
            Vectors.set(batch.cols[c], t, r, RandomValues.value(rnd, t));
          }
          Vectors.set(batch.cols[c], t, 0, rows.get(0)[c]);
          batch.cols[c].isRepeating = true;
        }
      }
      batch.size = size;
      block.addChunk(batch, 0);
      expected.addAll(rows);
    }
    assertRows(expected, block, "block as built"); // the model agrees with Block#get
    assertRows(expected, BlockCodec.decode(SCHEMA, BlockCodec.encode(block)), "decoded");
  }

  /** Decoding with a schema of another column count is refused with the two counts. */
  @Test
  void otherSchemaIsRefused() {
    byte[] data = BlockCodec.encode(blockOf(randomRows(new Random(1), 10)));
    TableSchema narrower = new TableSchema(SCHEMA.columns().subList(0, 3));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> BlockCodec.decode(narrower, data));
    assertTrue(e.getMessage().contains("14 columns") && e.getMessage().contains("schema has 3"), e.getMessage());
  }

  /** Every strict prefix of an encoded block (a torn payload) fails as a corrupt block. */
  @Test
  void truncatedInputIsCorrupt() {
    byte[] data = BlockCodec.encode(blockOf(randomRows(new Random(3), 40)));
    for (int len = 0; len < data.length; len++) {
      byte[] prefix = Arrays.copyOf(data, len);
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> BlockCodec.decode(SCHEMA, prefix),
          "prefix of " + len + " of " + data.length + " bytes");
      assertTrue(e.getMessage().startsWith("Corrupt block"), e.getMessage());
    }
  }

  /**
   * A string length or row count damaged to claim more bytes than follow fails as a corrupt
   * block instead of reading the next values as the string.
   */
  @Test
  void lengthsClaimingMoreThanTheInputAreCorrupt() {
    TableSchema oneString = new TableSchema(List.of(new Column("s", DataType.varchar(-1), true)));
    Block b = new Block(oneString);
    b.appendRow(new Object[] {"abc"});
    b.appendRow(new Object[] {"defgh"});
    byte[] data = BlockCodec.encode(b);
    // layout: [int columns][int rows][int chunk rows] then per row [boolean null][int length][bytes]
    assertEquals(2, BlockCodec.decode(oneString, data).rows());
    byte[] longString = data.clone();
    ByteBuffer.wrap(longString).putInt(13, 1_000);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> BlockCodec.decode(oneString, longString));
    assertTrue(e.getMessage().startsWith("Corrupt block"), e.getMessage());
    byte[] moreRows = data.clone();
    ByteBuffer.wrap(moreRows).putInt(4, 3).putInt(8, 3);
    e = assertThrows(IllegalStateException.class, () -> BlockCodec.decode(oneString, moreRows));
    assertTrue(e.getMessage().startsWith("Corrupt block"), e.getMessage());
  }
}
