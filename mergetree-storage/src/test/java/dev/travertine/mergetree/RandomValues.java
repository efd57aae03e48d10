package dev.travertine.mergetree;

import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Random;

/** Random values of every Travertine type in storage representation (see {@link TypeKind}), extremes included. */
public final class RandomValues {
  private RandomValues() {}

  /** A NOT NULL BIGINT key {@code k}, then one nullable column of every type. */
  public static final TableSchema ALL_TYPES = new TableSchema(List.of(
      new Column("k", DataType.of(TypeKind.BIGINT), false),
      new Column("b", DataType.of(TypeKind.BOOLEAN), true),
      new Column("ti", DataType.of(TypeKind.TINYINT), true),
      new Column("si", DataType.of(TypeKind.SMALLINT), true),
      new Column("i", DataType.of(TypeKind.INTEGER), true),
      new Column("l", DataType.of(TypeKind.BIGINT), true),
      new Column("r", DataType.of(TypeKind.REAL), true),
      new Column("d", DataType.of(TypeKind.DOUBLE), true),
      new Column("dec", DataType.decimal(18, 4), true),
      new Column("dec38", DataType.decimal(38, 10), true),
      new Column("ch", new DataType(TypeKind.CHAR, 10, -1), true),
      new Column("vc", DataType.varchar(-1), true),
      new Column("dt", DataType.of(TypeKind.DATE), true),
      new Column("ts", DataType.of(TypeKind.TIMESTAMP), true)));

  /** Letters, a quote, and characters of 2, 3 and 4 UTF-8 bytes (U+FFFD among them). */
  private static final int[] CODE_POINTS = {'a', 'z', 'A', '0', ' ', '\'', 0xE9, 0x3A9, 0x4E2D, 0xFFFD, 0x1F600,
      0x10348};

  /** Up to {@code maxCodePoints} characters, a third of them outside ASCII's letters. */
  public static String string(Random rnd, int maxCodePoints) {
    StringBuilder sb = new StringBuilder();
    for (int n = rnd.nextInt(maxCodePoints + 1); n > 0; n--) {
      sb.appendCodePoint(rnd.nextInt(3) == 0 ? CODE_POINTS[rnd.nextInt(CODE_POINTS.length)] : 'a' + rnd.nextInt(26));
    }
    return sb.toString();
  }

  /** A random non-null value of a type; one VARCHAR in 50 is long (up to 2,000 characters). */
  public static Object value(Random rnd, DataType t) {
    return switch (t.kind()) {
      case BOOLEAN -> rnd.nextBoolean();
      case TINYINT -> (byte) rnd.nextInt();
      case SMALLINT -> (short) rnd.nextInt();
      case INTEGER -> rnd.nextInt(10) == 0 ? (rnd.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE) : rnd.nextInt();
      case BIGINT -> rnd.nextInt(10) == 0 ? (rnd.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE) : rnd.nextLong();
      case REAL -> switch (rnd.nextInt(14)) {
        case 0 -> Float.NaN;
        case 1 -> Float.NEGATIVE_INFINITY;
        case 2 -> -0.0f;
        case 3 -> Float.MAX_VALUE;
        case 4 -> Float.MIN_VALUE;
        default -> (rnd.nextFloat() - 0.5f) * 1e6f;
      };
      case DOUBLE -> switch (rnd.nextInt(14)) {
        case 0 -> Double.NaN;
        case 1 -> Double.POSITIVE_INFINITY;
        case 2 -> -0.0;
        case 3 -> Double.MIN_VALUE;
        case 4 -> Double.MAX_VALUE;
        default -> (rnd.nextDouble() - 0.5) * 1e12;
      };
      case DECIMAL -> {
        int digits = 1 + rnd.nextInt(t.precision());
        BigInteger unscaled = new BigInteger(digits * 4, rnd).mod(BigInteger.TEN.pow(digits));
        yield new BigDecimal(rnd.nextBoolean() ? unscaled : unscaled.negate(), t.scale());
      }
      case CHAR -> string(rnd, t.precision());
      case VARCHAR -> rnd.nextInt(50) == 0 ? string(rnd, 2000) : string(rnd, 30);
      case DATE -> rnd.nextInt(2_000_000) - 700_000; // about years 0053 to 5500
      case TIMESTAMP -> rnd.nextLong() % 100_000_000_000_000L; // about years -1200 to 5100, any millisecond
    };
  }
}
