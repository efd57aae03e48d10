package dev.travertine.mergetree.part;

import dev.travertine.vector.TypeKind;
import java.math.BigDecimal;

/**
 * Text form of statistics values in part metadata. Long-backed kinds (BOOLEAN…BIGINT, DATE) and
 * TIMESTAMP are stored as Long, REAL/DOUBLE as Double, DECIMAL as BigDecimal, strings as String:
 * the representation pruning compares with.
 */
public final class ValueCodec {
  private ValueCodec() {}

  public static String encode(Object v) {
    if (v == null) {
      return null;
    }
    if (v instanceof BigDecimal bd) {
      return bd.toPlainString();
    }
    return v.toString();
  }

  public static Object decode(TypeKind kind, String s) {
    if (s == null) {
      return null;
    }
    return switch (kind) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE, TIMESTAMP -> Long.parseLong(s);
      case REAL, DOUBLE -> Double.parseDouble(s);
      case DECIMAL -> new BigDecimal(s);
      case CHAR, VARCHAR -> s;
    };
  }
}
