package dev.travertine.mergetree.part;

import dev.travertine.mergetree.block.OrcBatches;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.StatsView;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.junit.jupiter.api.Test;

/**
 * {@link GranuleIndex} built batch by batch over rows sorted by a key, checked against statistics
 * computed row by row: granule layout, per-granule min/max/NULL counts, the part summary, the
 * granules {@link Predicate#mayMatch} keeps, and the serialized form.
 */
class GranuleIndexTest {
  private static final TableSchema SCHEMA = new TableSchema(List.of(
      new Column("k", DataType.of(TypeKind.BIGINT), false),
      new Column("b", DataType.of(TypeKind.BOOLEAN), true),
      new Column("ti", DataType.of(TypeKind.TINYINT), true),
      new Column("si", DataType.of(TypeKind.SMALLINT), true),
      new Column("i", DataType.of(TypeKind.INTEGER), true),
      new Column("l", DataType.of(TypeKind.BIGINT), true),
      new Column("r", DataType.of(TypeKind.REAL), true),
      new Column("d", DataType.of(TypeKind.DOUBLE), true),
      new Column("dec", DataType.decimal(12, 3), true),
      new Column("ch", new DataType(TypeKind.CHAR, 8, -1), true),
      new Column("vc", DataType.varchar(-1), true),
      new Column("dt", DataType.of(TypeKind.DATE), true),
      new Column("ts", DataType.of(TypeKind.TIMESTAMP), true)));

  private static final int[] CODE_POINTS = {'a', 'b', 'z', 'A', '0', ' ', 0xE9, 0x3A9, 0x4E2D, 0xFFFD, 0x1F600};

  /** A random non-null value (storage representation) from a small domain, so that values repeat. */
  private static Object randomValue(Random rnd, DataType t) {
    return switch (t.kind()) {
      case BOOLEAN -> rnd.nextBoolean();
      case TINYINT -> (byte) (rnd.nextInt(256) - 128);
      case SMALLINT -> (short) (rnd.nextInt(2000) - 1000);
      case INTEGER -> rnd.nextInt(5) == 0 ? (rnd.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE)
          : rnd.nextInt(1000) - 500;
      case BIGINT -> rnd.nextInt(5) == 0 ? rnd.nextLong() : (long) rnd.nextInt(1000) - 500;
      case REAL -> switch (rnd.nextInt(15)) {
        case 0 -> Float.NaN;
        case 1 -> Float.NEGATIVE_INFINITY;
        case 2 -> -0.0f;
        case 3 -> 0.0f;
        default -> (float) (rnd.nextInt(2000) - 1000) / 8;
      };
      case DOUBLE -> switch (rnd.nextInt(15)) {
        case 0 -> Double.NaN;
        case 1 -> Double.POSITIVE_INFINITY;
        case 2 -> -0.0;
        case 3 -> 0.0;
        default -> (rnd.nextInt(2000) - 1000) / 16.0;
      };
      case DECIMAL -> new BigDecimal(BigInteger.valueOf(rnd.nextLong() % 1_000_000_000L), t.scale());
      case CHAR -> randomString(rnd, t.precision());
      case VARCHAR -> rnd.nextInt(40) == 0 ? "x".repeat(200 + rnd.nextInt(120)) + rnd.nextInt(10) // may be > 256 bytes
          : randomString(rnd, 6);
      case DATE -> rnd.nextInt(40_000) - 20_000;
      case TIMESTAMP -> (rnd.nextLong() % 4_000_000_000_000L);
    };
  }

  private static String randomString(Random rnd, int maxCodePoints) {
    StringBuilder sb = new StringBuilder();
    for (int n = rnd.nextInt(maxCodePoints + 1); n > 0; n--) {
      sb.appendCodePoint(CODE_POINTS[rnd.nextInt(CODE_POINTS.length)]);
    }
    return sb.toString();
  }

  // ------------------------------------------------------------------ the model

  private static TypeKind kind(int c) {
    return SCHEMA.column(c).type().kind();
  }

  /** A stored value as statistics and predicate constants represent it (see {@link ValueCodec}). */
  private static Object statValue(TypeKind k, Object v) {
    if (v == null) {
      return null;
    }
    return switch (k) {
      case BOOLEAN -> (Boolean) v ? 1L : 0L;
      case TINYINT, SMALLINT, INTEGER, BIGINT, DATE, TIMESTAMP -> ((Number) v).longValue();
      case REAL, DOUBLE -> ((Number) v).doubleValue();
      case DECIMAL, CHAR, VARCHAR -> v;
    };
  }

  /** The order of statistics values, written independently of the engine's comparators. */
  private static int compare(TypeKind k, Object a, Object b) {
    return switch (k) {
      case REAL, DOUBLE -> Double.compare((Double) a, (Double) b);
      case DECIMAL -> ((BigDecimal) a).compareTo((BigDecimal) b);
      case CHAR, VARCHAR -> Arrays.compareUnsigned(utf8((String) a), utf8((String) b));
      default -> Long.compare((Long) a, (Long) b);
    };
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static final int MAX_STRING_STAT = 256;

  /** Brute-force statistics of rows [from, to) of one column: {min, max, nullCount}. */
  private static Object[] stats(List<Object[]> rows, int from, int to, int c) {
    TypeKind k = kind(c);
    Object min = null;
    Object max = null;
    boolean longString = false;
    long nulls = 0;
    for (int r = from; r < to; r++) {
      Object v = statValue(k, rows.get(r)[c]);
      if (v == null) {
        nulls++;
        continue;
      }
      if (min == null || compare(k, v, min) < 0) {
        min = v;
      }
      if (max == null || compare(k, v, max) > 0) {
        max = v;
      }
      longString |= k.isString() && utf8((String) v).length > MAX_STRING_STAT;
    }
    if (min != null && k.isString() && utf8((String) min).length > MAX_STRING_STAT) {
      // Long strings are ASCII here: the kept prefix of the minimum is its first characters.
      min = ((String) min).substring(0, MAX_STRING_STAT);
    }
    return new Object[] {min, longString ? null : max, nulls};
  }

  /** Whether a row passes a predicate: SQL WHERE semantics (a comparison with NULL fails). */
  private static boolean passes(Predicate p, Object[] row) {
    if (p instanceof Predicate.Compare cmp) {
      Object v = statValue(kind(cmp.column()), row[cmp.column()]);
      if (v == null) {
        return false;
      }
      int x = compare(kind(cmp.column()), v, cmp.value());
      return switch (cmp.op()) {
        case EQ -> x == 0;
        case NE -> x != 0;
        case LT -> x < 0;
        case LE -> x <= 0;
        case GT -> x > 0;
        case GE -> x >= 0;
      };
    } else if (p instanceof Predicate.In in) {
      return in.values().stream().anyMatch(v -> passes(new Predicate.Compare(in.column(), Predicate.Op.EQ, v), row));
    } else if (p instanceof Predicate.IsNull n) {
      return (row[n.column()] == null) != n.negated();
    } else if (p instanceof Predicate.And a) {
      return a.children().stream().allMatch(q -> passes(q, row));
    } else {
      return ((Predicate.Or) p).children().stream().anyMatch(q -> passes(q, row));
    }
  }

  // ------------------------------------------------------------------ building

  /**
   * Rows sorted by the key {@code k}; in some stretches every nullable column is NULL (so some
   * granules are all NULL), elsewhere about one value in six is.
   */
  private static List<Object[]> sortedRows(Random rnd, int n) {
    List<Object[]> rows = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      boolean nullStretch = (r / 300) % 5 == 3;
      Object[] row = new Object[SCHEMA.size()];
      for (int c = 0; c < row.length; c++) {
        Column col = SCHEMA.column(c);
        row[c] = col.nullable() && (nullStretch || rnd.nextInt(6) == 0) ? null : randomValue(rnd, col.type());
      }
      rows.add(row);
    }
    rows.sort(Comparator.comparingLong(row -> (Long) row[0]));
    return rows;
  }

  /**
   * Feeds the rows to a builder in batches of random sizes (crossing granule boundaries); in some
   * batches a column is a repeating vector (one value or NULL for all rows, stale values behind
   * it), and the model rows are changed to match.
   */
  private static GranuleIndex build(Random rnd, List<Object[]> rows, int granularity) {
    GranuleIndex.Builder builder = new GranuleIndex.Builder(SCHEMA, granularity);
    int r = 0;
    while (r < rows.size()) {
      int size = Math.min(rows.size() - r, 1 + rnd.nextInt(rnd.nextBoolean() ? 1024 : 50));
      VectorizedRowBatch batch = OrcBatches.newBatch(SCHEMA.orcSchema(), 1024);
      for (int c = 0; c < SCHEMA.size(); c++) {
        DataType t = SCHEMA.column(c).type();
        if (c > 0 && rnd.nextInt(8) == 0) {
          Object v = rnd.nextInt(3) == 0 ? null : randomValue(rnd, t);
          for (int j = 0; j < size; j++) {
            rows.get(r + j)[c] = v;
            Vectors.set(batch.cols[c], t, j, randomValue(rnd, t));
          }
          Vectors.set(batch.cols[c], t, 0, v);
          batch.cols[c].isRepeating = true;
        } else {
          for (int j = 0; j < size; j++) {
            Vectors.set(batch.cols[c], t, j, rows.get(r + j)[c]);
          }
        }
      }
      batch.size = size;
      builder.add(batch);
      r += size;
    }
    return builder.build();
  }

  // ------------------------------------------------------------------ checks

  private static void assertIndexMatches(List<Object[]> rows, int granularity, GranuleIndex gi, String what) {
    int n = rows.size();
    int granules = (n + granularity - 1) / granularity;
    assertEquals(granularity, gi.granularity(), what);
    assertEquals(n, gi.rows(), what + ": rows");
    assertEquals(granules, gi.granules(), what + ": granules");
    for (int g = 0; g < granules; g++) {
      int from = g * granularity;
      int to = Math.min(n, from + granularity);
      assertEquals(to - from, gi.granuleRows(g), what + ": rows of granule " + g);
      StatsView s = gi.granule(g);
      for (int c = 0; c < SCHEMA.size(); c++) {
        Object[] expected = stats(rows, from, to, c);
        String where = what + ": granule " + g + " column " + SCHEMA.column(c).name();
        assertEquals(expected[0], s.min(c), where + " min");
        assertEquals(expected[1], s.max(c), where + " max");
        assertEquals((Long) expected[2] > 0, s.hasNull(c), where + " hasNull");
        assertEquals((Long) expected[2] == to - from, s.allNull(c), where + " allNull");
      }
    }
    for (int c = 0; c < SCHEMA.size(); c++) {
      assertArrayEquals(stats(rows, 0, n, c), gi.columnSummary(c), what + ": summary of " + SCHEMA.column(c).name());
    }
  }

  private static final int[][] SHAPES = { // {granularity, rows}
      {1, 0}, {1, 1}, {1, 700}, {3, 1000}, {64, 64}, {64, 65}, {64, 4000}, {1000, 5000}, {1024, 1023},
      {1024, 6000}, {8192, 6000}, {8192, 20_000}};

  /**
   * Granule count and sizes, min/max/NULL statistics of every granule and column, and the whole
   * part's summary equal brute force, for granularities from 1 row to more than a batch.
   */
  @Test
  void statisticsEqualBruteForce() {
    Random rnd = new Random(31);
    for (int[] shape : SHAPES) {
      List<Object[]> rows = sortedRows(rnd, shape[1]);
      GranuleIndex gi = build(rnd, rows, shape[0]);
      assertIndexMatches(rows, shape[0], gi, "granularity " + shape[0] + ", " + shape[1] + " rows");
    }
  }

  /**
   * A string minimum longer than the kept prefix is cut on a character boundary: the prefix is a
   * prefix of the value and sorts at or below it, also when the cut falls inside a character.
   */
  @Test
  void longStringMinimumIsCutOnACharacterBoundary() {
    TableSchema one = new TableSchema(List.of(new Column("s", DataType.varchar(-1), false)));
    for (String tail : new String[] {"\u00e9zz", "\u4e2dzz", "\ud83d\ude00zz", "zz"}) {
      for (int pad = MAX_STRING_STAT - 4; pad <= MAX_STRING_STAT; pad++) {
        String value = "a".repeat(pad) + tail;
        VectorizedRowBatch batch = OrcBatches.newBatch(one.orcSchema(), 1);
        Vectors.set(batch.cols[0], one.column(0).type(), 0, value);
        batch.size = 1;
        GranuleIndex.Builder builder = new GranuleIndex.Builder(one, 8192);
        builder.add(batch);
        String min = (String) builder.build().granule(0).min(0);
        assertTrue(value.startsWith(min), pad + " + " + tail + ": kept " + min);
        assertTrue(utf8(min).length <= MAX_STRING_STAT && utf8(min).length > MAX_STRING_STAT - 4, "kept " + min);
      }
    }
  }

  /** The serialized index reads back with the same statistics; damaged bytes fail clearly. */
  @Test
  void serializationRoundTrips() {
    Random rnd = new Random(32);
    for (int[] shape : SHAPES) {
      List<Object[]> rows = sortedRows(rnd, shape[1]);
      GranuleIndex gi = build(rnd, rows, shape[0]);
      byte[] bytes = gi.serialize();
      GranuleIndex back = GranuleIndex.deserialize(bytes);
      assertIndexMatches(rows, shape[0], back, "deserialized, granularity " + shape[0] + ", " + shape[1] + " rows");
      assertArrayEquals(bytes, back.serialize(), "serializing again gives the same bytes");
    }
    byte[] bytes = build(rnd, sortedRows(rnd, 50), 16).serialize();
    for (int len = 0; len < bytes.length; len++) {
      byte[] prefix = Arrays.copyOf(bytes, len);
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> GranuleIndex.deserialize(prefix),
          "prefix of " + len + " bytes");
      assertTrue(e.getMessage().startsWith("Corrupt granule index"), e.getMessage());
    }
    byte[] version2 = bytes.clone();
    ByteBuffer.wrap(version2).putInt(0, 2);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> GranuleIndex.deserialize(version2));
    assertTrue(e.getMessage().contains("Unsupported granule index version 2"), e.getMessage());
  }

  private static Object constant(Random rnd, List<Object[]> rows, int c) {
    if (rnd.nextBoolean()) { // a value some row holds, so that equality can match
      for (int tries = 0; tries < 20; tries++) {
        Object v = rows.get(rnd.nextInt(rows.size()))[c];
        if (v != null) {
          return statValue(kind(c), v);
        }
      }
    }
    return statValue(kind(c), randomValue(rnd, SCHEMA.column(c).type()));
  }

  private static Predicate leaf(Random rnd, List<Object[]> rows) {
    int c = rnd.nextInt(SCHEMA.size());
    return switch (rnd.nextInt(8)) {
      case 0 -> new Predicate.IsNull(c, rnd.nextBoolean());
      case 1 -> new Predicate.In(c, List.of(constant(rnd, rows, c), constant(rnd, rows, c), constant(rnd, rows, c)));
      default -> new Predicate.Compare(c, Predicate.Op.values()[rnd.nextInt(6)], constant(rnd, rows, c));
    };
  }

  /** Whether mayMatch must be exact: a range or NOT EQUAL comparison, or IS [NOT] NULL, with known statistics. */
  private static boolean exact(Predicate p, StatsView s) {
    if (p instanceof Predicate.IsNull) {
      return true;
    }
    if (p instanceof Predicate.Compare cmp && cmp.op() != Predicate.Op.EQ) {
      return s.allNull(cmp.column()) || s.min(cmp.column()) != null && s.max(cmp.column()) != null;
    }
    return false;
  }

  /**
   * For random comparisons, IN lists, IS [NOT] NULL and AND/OR of them, no granule holding a row
   * that passes is pruned; and where min/max decide the answer exactly (range and NOT EQUAL
   * comparisons, NULL tests) no granule without such a row is kept.
   */
  @Test
  void pruningKeepsEveryGranuleWithAMatchingRow() {
    Random rnd = new Random(33);
    long pruned = 0;
    long checked = 0;
    for (int[] shape : new int[][] {{1, 500}, {7, 3000}, {100, 5000}, {1024, 6000}}) {
      List<Object[]> rows = sortedRows(rnd, shape[1]);
      int granularity = shape[0];
      GranuleIndex gi = build(rnd, rows, granularity);
      for (int i = 0; i < 150; i++) {
        Predicate p = switch (rnd.nextInt(4)) {
          case 0 -> new Predicate.And(List.of(leaf(rnd, rows), leaf(rnd, rows)));
          case 1 -> new Predicate.Or(List.of(leaf(rnd, rows), leaf(rnd, rows)));
          default -> leaf(rnd, rows);
        };
        p = p.bind(SCHEMA);
        for (int g = 0; g < gi.granules(); g++) {
          boolean any = false;
          for (int r = g * granularity; r < Math.min(rows.size(), (g + 1) * granularity) && !any; r++) {
            any = passes(p, rows.get(r));
          }
          StatsView s = gi.granule(g);
          boolean kept = p.mayMatch(s);
          String what = p.describe(SCHEMA) + " on granule " + g + " of granularity " + granularity;
          if (any) {
            assertTrue(kept, what + " holds a matching row but was pruned");
          } else if (exact(p, s)) {
            assertFalse(kept, what + " holds no matching row but was kept");
          }
          pruned += kept ? 0 : 1;
          checked++;
        }
      }
    }
    assertTrue(pruned > checked / 10, "the predicates prune: " + pruned + " of " + checked);
  }
}
