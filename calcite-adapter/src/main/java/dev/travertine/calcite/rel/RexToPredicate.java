package dev.travertine.calcite.rel;

import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Predicate;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;

/**
 * Translates Calcite conditions into engine {@link Predicate}s: comparisons of a column with a
 * literal, IS [NOT] NULL, SEARCH (IN, BETWEEN, ranges) and AND/OR of those. Anything else is
 * left to Calcite, so the translation never changes a query's result.
 */
public final class RexToPredicate {
  private final TableSchema schema;
  private final int[] projection;
  private final RexBuilder rexBuilder;

  public RexToPredicate(TableSchema schema, int[] projection, RexBuilder rexBuilder) {
    this.schema = schema;
    this.projection = projection;
    this.rexBuilder = rexBuilder;
  }

  /** Translates a node, or returns null when the engine can't evaluate it exactly. */
  public Predicate translate(RexNode node) {
    try {
      Predicate p = doTranslate(node);
      return p == null ? null : p.bind(schema);
    } catch (RuntimeException e) {
      return null; // e.g. a constant that does not fit the column's type: leave it to Calcite
    }
  }

  private Predicate doTranslate(RexNode node) {
    if (!(node instanceof RexCall call)) {
      return null;
    }
    switch (call.getKind()) {
      case AND, OR -> {
        List<Predicate> children = new ArrayList<>();
        for (RexNode o : call.getOperands()) {
          Predicate c = doTranslate(o);
          if (c == null) {
            return null;
          }
          children.add(c);
        }
        return call.getKind() == SqlKind.AND ? new Predicate.And(children) : new Predicate.Or(children);
      }
      case SEARCH -> {
        return doTranslate(RexUtil.expandSearch(rexBuilder, null, call));
      }
      case IS_NULL, IS_NOT_NULL -> {
        int col = column(call.getOperands().get(0));
        return col < 0 ? null : new Predicate.IsNull(col, call.getKind() == SqlKind.IS_NOT_NULL);
      }
      case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        SqlKind kind = call.getKind();
        if (!(b instanceof RexLiteral) && a instanceof RexLiteral) {
          RexNode t = a;
          a = b;
          b = t;
          kind = kind.reverse();
        }
        int col = column(a);
        if (col < 0 || !(b instanceof RexLiteral lit)) {
          return null;
        }
        Object v = value(schema.column(col).type(), lit);
        if (v == null) {
          return null;
        }
        Predicate.Op op = switch (kind) {
          case EQUALS -> Predicate.Op.EQ;
          case NOT_EQUALS -> Predicate.Op.NE;
          case LESS_THAN -> Predicate.Op.LT;
          case LESS_THAN_OR_EQUAL -> Predicate.Op.LE;
          case GREATER_THAN -> Predicate.Op.GT;
          default -> Predicate.Op.GE;
        };
        return new Predicate.Compare(col, op, v);
      }
      default -> {
        return null;
      }
    }
  }

  /** The table column a node reads directly, or -1. */
  private int column(RexNode n) {
    if (n instanceof RexInputRef ref) {
      return projection[ref.getIndex()];
    }
    return -1;
  }

  /** A literal in the column's storage representation, or null if it can't be compared exactly. */
  private static Object value(DataType t, RexLiteral lit) {
    if (lit.isNull()) {
      return null;
    }
    SqlTypeFamily fam = lit.getType().getSqlTypeName().getFamily();
    switch (t.kind()) {
      case BOOLEAN:
        return fam == SqlTypeFamily.BOOLEAN ? (Boolean.TRUE.equals(lit.getValueAs(Boolean.class)) ? 1L : 0L) : null;
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT: {
        if (fam != SqlTypeFamily.NUMERIC) {
          return null;
        }
        BigDecimal bd = lit.getValueAs(BigDecimal.class);
        if (bd == null) {
          return null;
        }
        try {
          return bd.longValueExact();
        } catch (ArithmeticException e) {
          return null;
        }
      }
      case REAL:
      case DOUBLE:
        return fam == SqlTypeFamily.NUMERIC ? lit.getValueAs(Double.class) : null;
      case DECIMAL:
        return fam == SqlTypeFamily.NUMERIC ? lit.getValueAs(BigDecimal.class) : null;
      case VARCHAR:
        return fam == SqlTypeFamily.CHARACTER ? lit.getValueAs(String.class) : null;
      case DATE:
        return fam == SqlTypeFamily.DATE ? lit.getValueAs(Integer.class).longValue() : null;
      case TIMESTAMP:
        return fam == SqlTypeFamily.TIMESTAMP ? lit.getValueAs(Long.class) : null;
      default:
        return null; // CHAR(n) compares with padding rules; leave it to Calcite
    }
  }
}
