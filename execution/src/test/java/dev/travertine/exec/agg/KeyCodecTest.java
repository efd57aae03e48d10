package dev.travertine.exec.agg;

import static dev.travertine.exec.op.VectorFixtures.BIG;
import static dev.travertine.exec.op.VectorFixtures.BOOL;
import static dev.travertine.exec.op.VectorFixtures.CHR;
import static dev.travertine.exec.op.VectorFixtures.DATE;
import static dev.travertine.exec.op.VectorFixtures.DBL;
import static dev.travertine.exec.op.VectorFixtures.DEC;
import static dev.travertine.exec.op.VectorFixtures.INT;
import static dev.travertine.exec.op.VectorFixtures.REAL;
import static dev.travertine.exec.op.VectorFixtures.SMALL;
import static dev.travertine.exec.op.VectorFixtures.STR;
import static dev.travertine.exec.op.VectorFixtures.TINY;
import static dev.travertine.exec.op.VectorFixtures.TS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.travertine.exec.Columns;
import dev.travertine.exec.op.VectorFixtures;
import dev.travertine.exec.op.VectorFixtures.Col;
import dev.travertine.exec.op.VectorFixtures.Generated;
import dev.travertine.exec.op.VectorFixtures.Shape;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.junit.jupiter.api.Test;

/** KeyCodec: decode(encode(row)) is the row; equal keys exactly for equal rows. */
class KeyCodecTest {
  static final List<DataType> TYPES = List.of(BOOL, TINY, SMALL, INT, BIG, REAL, DBL, DEC, STR, CHR, DATE, TS,
      DataType.decimal(38, 10), DataType.decimal(20, 3));

  private static byte[] encode(KeyCodec codec, Batch b, int row, int header) {
    codec.reset();
    if (header >= 0) {
      codec.putInt(header);
    }
    for (int c = 0; c < b.cols().length; c++) {
      codec.put(c, b.cols()[c], row);
    }
    return Arrays.copyOf(codec.buffer(), codec.length());
  }

  @Test void roundTripAndEquality() {
    Random rnd = new Random(1);
    List<Col> cols = new ArrayList<>();
    for (DataType t : TYPES) {
      cols.add(Col.of(rnd, t, 4, 0.2)); // few values: many equal rows
    }
    KeyCodec codec = new KeyCodec(TYPES);
    Map<List<Object>, byte[]> keyOfRow = new HashMap<>();
    Map<String, List<Object>> rowOfKey = new HashMap<>();
    for (int i = 0; i < 60; i++) {
      Generated g = VectorFixtures.batch(rnd, cols, new Shape(300, 0.2, 0.2));
      Batch b = g.batch();
      ColumnVector[] out = new ColumnVector[TYPES.size()];
      for (int c = 0; c < out.length; c++) {
        out[c] = Columns.newVector(TYPES.get(c), b.size());
      }
      int header = rnd.nextInt(3) - 1;
      for (int k = 0; k < b.size(); k++) {
        byte[] key = encode(codec, b, b.sel()[k], header);
        // decode into a fresh row, skipping the 4-byte header
        byte[] padded = new byte[key.length + 3];
        System.arraycopy(key, 0, padded, 3, key.length);
        codec.decode(padded, 3, header >= 0 ? 4 : 0, out, k);
        List<Object> row = Arrays.asList(g.rows().get(k));
        List<Object> back = new ArrayList<>();
        for (int c = 0; c < out.length; c++) {
          back.add(VectorFixtures.get(out[c], TYPES.get(c), k));
        }
        assertEquals(row, back, "round trip of row " + k);
        if (header == -1) {
          byte[] prev = keyOfRow.putIfAbsent(row, key);
          if (prev != null) {
            assertArrayEquals(prev, key, "equal rows, different keys: " + row);
          }
          List<Object> prevRow = rowOfKey.putIfAbsent(Arrays.toString(key), row);
          if (prevRow != null) {
            assertEquals(prevRow, row, "different rows, one key");
          }
        }
      }
    }
    assertFalse(keyOfRow.isEmpty());
  }

  @Test void stringsAreLengthPrefixed() {
    // ("a", "bc") and ("ab", "c"), ("", x) and (NULL, x) are different keys
    KeyCodec codec = new KeyCodec(List.of(STR, STR));
    List<byte[]> keys = new ArrayList<>();
    String[][] rows = {{"a", "bc"}, {"ab", "c"}, {"", "abc"}, {null, "abc"}, {"abc", ""}, {"abc", null}, {"", ""},
        {null, null}, {"\u0000", ""}, {"", "\u0000"}};
    for (String[] r : rows) {
      ColumnVector x = VectorFixtures.vector(STR, (Object) r[0]);
      ColumnVector y = VectorFixtures.vector(STR, (Object) r[1]);
      codec.reset();
      codec.put(0, x, 0);
      codec.put(1, y, 0);
      keys.add(Arrays.copyOf(codec.buffer(), codec.length()));
    }
    for (int i = 0; i < keys.size(); i++) {
      for (int j = i + 1; j < keys.size(); j++) {
        assertFalse(Arrays.equals(keys.get(i), keys.get(j)), Arrays.toString(rows[i]) + " vs " + Arrays.toString(rows[j]));
      }
    }
  }

  @Test void decimalsOfOneValueAreOneKey() {
    // 1.5 and 1.500 in a DECIMAL(12, 3): one key; NaN payloads: one key; -0.0 and 0.0: two
    KeyCodec codec = new KeyCodec(List.of(DEC, DBL));
    ColumnVector d = VectorFixtures.vector(DEC, new BigDecimal("1.5"), new BigDecimal("1.500"), new BigDecimal("1.50"));
    ColumnVector x = VectorFixtures.vector(DBL, Double.NaN, Double.longBitsToDouble(0x7ff80000000000ffL),
        Double.longBitsToDouble(0xfff8000000000000L));
    byte[] first = null;
    for (int r = 0; r < 3; r++) {
      codec.reset();
      codec.put(0, d, r);
      codec.put(1, x, r);
      byte[] k = Arrays.copyOf(codec.buffer(), codec.length());
      if (first == null) {
        first = k;
      }
      assertArrayEquals(first, k, "row " + r);
    }
    ColumnVector z = VectorFixtures.vector(DBL, 0.0, -0.0);
    KeyCodec one = new KeyCodec(List.of(DBL));
    one.reset().put(0, z, 0);
    byte[] pos = Arrays.copyOf(one.buffer(), one.length());
    one.reset().put(0, z, 1);
    assertFalse(Arrays.equals(pos, Arrays.copyOf(one.buffer(), one.length())));
  }

  @Test void longStringsGrowTheBuffer() {
    KeyCodec codec = new KeyCodec(List.of(STR, BIG, STR));
    String big = "ü".repeat(5000);
    ColumnVector s = VectorFixtures.vector(STR, big);
    ColumnVector l = VectorFixtures.vector(BIG, 42L);
    codec.reset();
    codec.put(0, s, 0);
    codec.put(1, l, 0);
    codec.put(2, s, 0);
    ColumnVector[] out = {Columns.newVector(STR, 1), Columns.newVector(BIG, 1), Columns.newVector(STR, 1)};
    codec.decode(codec.buffer(), 0, 0, out, 0);
    assertEquals(big, VectorFixtures.get(out[0], STR, 0));
    assertEquals(42L, VectorFixtures.get(out[1], BIG, 0));
    assertEquals(big, VectorFixtures.get(out[2], STR, 0));
  }
}
