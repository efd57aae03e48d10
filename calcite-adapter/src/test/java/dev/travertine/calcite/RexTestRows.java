package dev.travertine.calcite;

import dev.travertine.mergetree.block.OrcBatches;
import dev.travertine.mergetree.schema.OrcTypes;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Vectors;
import java.math.BigDecimal;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.TypeDescription;

/**
 * Random rows over {@link RexFixture}'s columns (NULLs, edge values, repeating columns, selections
 * with gaps), both as Calcite's Object[] rows and as ORC vectors, and the value comparison the
 * differential test uses.
 */
final class RexTestRows {
  private RexTestRows() {}


  /** One batch: rows for Calcite, the same values in ORC vectors, a selection with gaps. */
  static final class Chunk {
    Object[][] rows;
    ColumnVector[] vectors;
    int[] sel;
    int size;
    String repeating;

    String describe() {
      return size + " selected of " + rows.length + " rows, repeating columns " + repeating;
    }
  }

  static Chunk chunk(Random rnd, List<DataType> types) {
    int n = 1 + rnd.nextInt(48);
    Chunk c = new Chunk();
    c.rows = new Object[n][RexFixture.NAMES.length];
    TypeDescription schema = TypeDescription.createStruct();
    for (int k = 0; k < RexFixture.NAMES.length; k++) {
      schema.addField(RexFixture.NAMES[k], OrcTypes.of(types.get(k)));
    }
    VectorizedRowBatch vb = OrcBatches.newBatch(schema, n);
    c.vectors = vb.cols;
    StringBuilder rep = new StringBuilder();
    for (int col = 0; col < RexFixture.NAMES.length; col++) {
      boolean repeating = rnd.nextInt(7) == 0;
      Object same = value(rnd, col);
      for (int r = 0; r < n; r++) {
        c.rows[r][col] = repeating ? same : value(rnd, col);
      }
      ColumnVector v = c.vectors[col];
      if (repeating) {
        rep.append(RexFixture.NAMES[col]).append(' ');
        Vectors.set(v, types.get(col), 0, same);
        v.isRepeating = true;
      } else {
        for (int r = 0; r < n; r++) {
          Vectors.set(v, types.get(col), r, c.rows[r][col]);
        }
      }
    }
    c.repeating = rep.toString();
    int[] sel = new int[n];
    int m = 0;
    for (int r = 0; r < n; r++) {
      if (rnd.nextInt(10) < 7) {
        sel[m++] = r;
      }
    }
    c.sel = sel;
    c.size = m;
    return c;
  }

  private static final String[] ALPHABET = {"a", "b", "c", "A", "B", "%", "_", "\\", "é", "中", "😀", " ", "1", "x"};
  private static final String[] NUMERIC_STRINGS = {" 12 ", "-7", "+4", "3.5", "abc", "1e3", "", "0", "127", "128",
      "-129", "99999", "2147483648", " true", "FALSE", "1.25e1", "-0", "007", " 5"};

  private static Object value(Random rnd, int col) {
    if (rnd.nextInt(100) < 12) {
      return null;
    }
    switch (RexFixture.NAMES[col]) {
      case "b", "b2":
        return rnd.nextBoolean();
      case "ti":
        return (byte) pick(rnd, new long[] {-128, 127, 0, 1, -1, 100, -100}, rnd.nextInt(41) - 20);
      case "si":
        return (short) pick(rnd, new long[] {Short.MIN_VALUE, Short.MAX_VALUE, 0, 1, -1, 300}, rnd.nextInt(2001) - 1000);
      case "i":
        return (int) pick(rnd, new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, 1, -1, 2, 128, -129, 40000},
            rnd.nextInt(3) == 0 ? rnd.nextInt() : rnd.nextInt(201) - 100);
      case "i2":
        return rnd.nextInt(60) == 0 ? 0 : (int) pick(rnd, new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 1, -1, 2, 7},
            rnd.nextInt(3) == 0 ? rnd.nextInt() | 1 : rnd.nextInt(50) + 1);
      case "bi":
        return pick(rnd, new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0, 1, -1, 1L << 40}, rnd.nextInt(3) == 0 ? rnd.nextLong()
            : rnd.nextInt(2001) - 1000);
      case "bi2":
        return rnd.nextInt(60) == 0 ? 0L : pick(rnd, new long[] {Long.MIN_VALUE, Long.MAX_VALUE, -1, 3}, rnd.nextInt(99) + 1);
      case "r":
        return (float) pickD(rnd, new double[] {0, 1.5, -2.25, 1e10, 0.1, 3.4e38}, rnd.nextGaussian() * 100);
      case "d", "d2":
        return pickD(rnd, new double[] {0, -0.0, 1, -1, 0.1, 1e20, -3.7, 2.5, 9.3e18, 1e-7, 123456789.0, 2147483647.0,
                Double.NaN, Double.POSITIVE_INFINITY, 2147483647.5, -2147483648.9},
            Math.round(rnd.nextGaussian() * 1e5) / 100.0);
      case "dec":
        return BigDecimal.valueOf(rnd.nextInt(5) == 0 ? rnd.nextLong() % 10_000_000_000L : rnd.nextInt(200_001) - 100_000, 2);
      case "dec2":
        return BigDecimal.valueOf(rnd.nextInt(10) == 0 ? 0 : rnd.nextInt(199_999) - 99_999, 3);
      case "dec3":
        return BigDecimal.valueOf(rnd.nextInt(2_000_001) - 1_000_000, 9);
      case "s", "s2": {
        int len = rnd.nextInt(9);
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < len; k++) {
          sb.append(ALPHABET[rnd.nextInt(ALPHABET.length)]);
        }
        return sb.toString();
      }
      case "ns":
        return rnd.nextInt(3) == 0 ? Integer.toString(rnd.nextInt(2001) - 1000) : NUMERIC_STRINGS[rnd.nextInt(NUMERIC_STRINGS.length)];
      case "ch": {
        int len = rnd.nextInt(6);
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < len; k++) {
          sb.append(ALPHABET[rnd.nextInt(10)]);
        }
        while (sb.length() < 5) {
          sb.append(' ');
        }
        return sb.toString();
      }
      case "dt":
        return rnd.nextInt(75_000) - 25_000;
      case "ts":
        return (rnd.nextInt(75_000) - 25_000) * 86_400_000L + rnd.nextInt(86_400_000);
      case "small":
        return rnd.nextInt(16) - 3;
      default:
        throw new AssertionError(RexFixture.NAMES[col]);
    }
  }

  private static long pick(Random rnd, long[] edges, long other) {
    return rnd.nextInt(4) == 0 ? edges[rnd.nextInt(edges.length)] : other;
  }

  private static double pickD(Random rnd, double[] edges, double other) {
    return rnd.nextInt(4) == 0 ? edges[rnd.nextInt(edges.length)] : other;
  }

  /**
   * Values as compared: DECIMAL without trailing zeros; strings through UTF-8 (a lone surrogate
   * that Calcite's UTF-16 truncation leaves becomes '?', as in the engine's UTF-8 vectors).
   */
  static Object normalize(Object o) {
    if (o instanceof String s) {
      return new String(s.getBytes(java.nio.charset.StandardCharsets.UTF_8), java.nio.charset.StandardCharsets.UTF_8);
    }
    if (o instanceof BigDecimal b) {
      return b.signum() == 0 ? BigDecimal.ZERO : b.stripTrailingZeros();
    }
    return o;
  }

  static boolean same(Object a, Object b) {
    if (a instanceof Float x && b instanceof Float y) {
      return Float.compare(x, y) == 0 || x.floatValue() == y.floatValue();
    }
    if (a instanceof Double x && b instanceof Double y) {
      return Double.compare(x, y) == 0 || x.doubleValue() == y.doubleValue();
    }
    return java.util.Objects.equals(a, b);
  }

}
