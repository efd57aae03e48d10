package dev.travertine.calcite.vectorized;

import dev.travertine.calcite.schema.TravertineTypeSystem;
import dev.travertine.calcite.schema.TypeMapping;
import dev.travertine.exec.expr.Evaluators;
import dev.travertine.exec.expr.Expr;
import dev.travertine.exec.expr.Op;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Translates a Calcite {@link RexNode} over an input row into an engine {@link Expr} for the
 * vectorized evaluator, or returns null when any part has no exact engine equivalent (the caller
 * then leaves the whole operator to Calcite, so a translation never changes a result).
 *
 * <p>Translated: input refs, literals of engine types, + - * / MOD (integer, floating point, and
 * DECIMAL except division), unary minus, CAST between engine types, comparisons, IS [NOT] DISTINCT
 * FROM, AND/OR/NOT (OR of equalities with constants becomes IN, AND of inequalities NOT IN),
 * IS [NOT] NULL/TRUE/FALSE, CASE, COALESCE, NULLIF, SEARCH (expanded), IN, [NOT] LIKE,
 * CHAR_LENGTH/CHARACTER_LENGTH, SUBSTRING, LOWER, UPPER, ||, EXTRACT, datetime +/- interval
 * literal. Calls of constants are folded by evaluating them once.
 *
 * <p>Not translated (null): intervals as values, DECIMAL division (Calcite's value carries 16
 * significant digits whatever the type's scale), DECIMAL arithmetic whose exact scale differs
 * from the type Calcite derived, casts from strings to DATE/TIMESTAMP of non-constants (Calcite's
 * lenient parser), TIMESTAMP precisions other than 3, ILIKE/SIMILAR/RLIKE, any other operator.
 */
public final class RexToExpr {
  private final RexBuilder rexBuilder;
  private final List<DataType> inputTypes;
  private final List<Boolean> inputNullable;

  private RexToExpr(RexBuilder rexBuilder, List<DataType> inputTypes, List<Boolean> inputNullable) {
    this.rexBuilder = rexBuilder;
    this.inputTypes = inputTypes;
    this.inputNullable = inputNullable;
  }

  /**
   * Translates {@code node} whose input refs index a batch with columns of {@code inputTypes}
   * (their engine types) and {@code inputNullable}; null if not supported.
   */
  public static Expr translate(RexNode node, List<DataType> inputTypes, List<Boolean> inputNullable) {
    return translate(new RexBuilder(new JavaTypeFactoryImpl(TravertineTypeSystem.INSTANCE)), node,
        inputTypes, inputNullable);
  }

  /**
   * Translates {@code node} over an input of row type {@code inputRowType}: column types and
   * nullability come from its fields (through {@link TypeMapping}); null if not supported.
   */
  public static Expr translate(RexNode node, RelDataType inputRowType) {
    List<DataType> types = new ArrayList<>();
    List<Boolean> nullable = new ArrayList<>();
    for (var f : inputRowType.getFieldList()) {
      try {
        types.add(type(f.getType()));
      } catch (IllegalArgumentException e) {
        types.add(null); // a column the engine cannot hold: any reference to it fails translation
      }
      nullable.add(f.getType().isNullable());
    }
    return translate(node, types, nullable);
  }

  /** As {@link #translate(RexNode, List, List)}, with the planner's RexBuilder (to expand SEARCH). */
  public static Expr translate(RexBuilder rexBuilder, RexNode node, List<DataType> inputTypes,
      List<Boolean> inputNullable) {
    try {
      return new RexToExpr(rexBuilder, inputTypes, inputNullable).tr(node);
    } catch (RuntimeException e) {
      return null; // an unsupported type or a shape the evaluator refuses: leave it to Calcite
    }
  }

  private static DataType type(RelDataType t) {
    SqlTypeName n = t.getSqlTypeName();
    if (n == SqlTypeName.TIMESTAMP && t.getPrecision() != TypeMapping.TIMESTAMP_PRECISION) {
      throw new IllegalArgumentException("TIMESTAMP(" + t.getPrecision() + ")");
    }
    return TypeMapping.fromRelType(t);
  }

  private Expr tr(RexNode node) {
    if (node instanceof RexInputRef ref) {
      int i = ref.getIndex();
      DataType t = inputTypes.get(i);
      if (t == null || t.kind() != type(ref.getType()).kind()) {
        return null;
      }
      return new Expr.Column(i, t, inputNullable.get(i));
    }
    if (node instanceof RexLiteral lit) {
      return literal(lit);
    }
    if (node instanceof RexCall call) {
      Expr e = call(call);
      return e instanceof Expr.Call c ? fold(c) : e;
    }
    return null;
  }

  /** A call of constants only becomes a constant; an evaluation error leaves it to Calcite. */
  private static Expr fold(Expr.Call c) {
    for (Expr a : c.args()) {
      if (!(a instanceof Expr.Constant)) {
        return c;
      }
    }
    return new Expr.Constant(Evaluators.evaluateConstant(c), c.type());
  }

  static Expr.Constant literal(RexLiteral lit) {
    // a TIMESTAMP literal of any precision holds exact milliseconds
    DataType t = TypeMapping.fromRelType(lit.getType());
    if (lit.isNull()) {
      return new Expr.Constant(null, t);
    }
    Object v = switch (t.kind()) {
      case BOOLEAN -> lit.getValueAs(Boolean.class);
      case TINYINT -> lit.getValueAs(BigDecimal.class).byteValueExact();
      case SMALLINT -> lit.getValueAs(BigDecimal.class).shortValueExact();
      case INTEGER -> lit.getValueAs(BigDecimal.class).intValueExact();
      case BIGINT -> lit.getValueAs(BigDecimal.class).longValueExact();
      case REAL -> lit.getValueAs(Double.class).floatValue();
      case DOUBLE -> lit.getValueAs(Double.class);
      case DECIMAL -> lit.getValueAs(BigDecimal.class).setScale(t.scale(), RoundingMode.UNNECESSARY);
      case CHAR, VARCHAR -> lit.getValueAs(String.class);
      case DATE -> lit.getValueAs(Integer.class);
      case TIMESTAMP -> lit.getValueAs(Long.class);
    };
    return new Expr.Constant(v, t);
  }

  private List<Expr> args(RexCall call) {
    List<Expr> out = new ArrayList<>();
    for (RexNode o : call.getOperands()) {
      Expr e = tr(o);
      if (e == null) {
        return null;
      }
      out.add(e);
    }
    return out;
  }

  private Expr call(RexCall call) {
    SqlKind kind = call.getKind();
    RelDataType rt = call.getType();
    String name = call.getOperator().getName();
    if (kind == SqlKind.SEARCH) {
      return tr(RexUtil.expandSearch(rexBuilder, null, call));
    }
    if (rt.getSqlTypeName() == SqlTypeName.DATE || rt.getSqlTypeName() == SqlTypeName.TIMESTAMP) {
      // datetime +/- interval as the validator builds it; a plain PLUS/MINUS over a datetime and an
      // interval (which Calcite evaluates as raw integer arithmetic) is left alone
      if (call.getOperator() == SqlStdOperatorTable.DATETIME_PLUS) {
        return datetimePlus(call, false);
      }
      if (call.getOperator() == SqlStdOperatorTable.MINUS_DATE) {
        return datetimePlus(call, true);
      }
      if (kind == SqlKind.PLUS || kind == SqlKind.MINUS) {
        return null;
      }
    }
    if (rt.getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME
        || rt.getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH) {
      return null;
    }
    if (kind == SqlKind.EXTRACT) {
      return extract(call);
    }
    if (kind == SqlKind.LIKE) {
      return like(call);
    }
    if (kind == SqlKind.PLUS_PREFIX) {
      return tr(call.getOperands().get(0));
    }
    Op op = operator(kind, name);
    if (op == null) {
      return null;
    }
    List<Expr> a = args(call);
    if (a == null) {
      return null;
    }
    DataType t = type(rt);
    boolean nullable = rt.isNullable();
    switch (op) {
      case PLUS, MINUS, TIMES, DIVIDE, MOD -> {
        if (!arithmeticOk(op, a, t, call)) {
          return null;
        }
      }
      case CAST -> {
        DataType from = a.get(0).type();
        if (from.equals(t)) {
          return a.get(0);
        }
        if (!Evaluators.supportsCast(from, t)) {
          return null;
        }
        if (from.kind().isString() && (t.kind() == TypeKind.DATE || t.kind() == TypeKind.TIMESTAMP)
            && !(a.get(0) instanceof Expr.Constant)) {
          return null;
        }
      }
      case EQ, NE, LT, LE, GT, GE, IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM, NULLIF -> {
        if (!comparable(a.get(0).type(), a.get(1).type())) {
          return null;
        }
      }
      case IN, NOT_IN -> {
        for (int k = 1; k < a.size(); k++) {
          if (!(a.get(k) instanceof Expr.Constant) || !comparable(a.get(0).type(), a.get(k).type())) {
            return null;
          }
        }
      }
      case OR -> {
        List<Expr> g = inList(a, Op.EQ, Op.IN);
        return g.size() == 1 ? g.get(0) : new Expr.Call(Op.OR, g, t, nullable);
      }
      case AND -> {
        List<Expr> g = inList(a, Op.NE, Op.NOT_IN);
        return g.size() == 1 ? g.get(0) : new Expr.Call(Op.AND, g, t, nullable);
      }
      case SUBSTRING -> {
        if (!a.get(0).type().kind().isString()) {
          return null;
        }
      }
      case CHAR_LENGTH, LOWER, UPPER, CONCAT, POSITION -> {
        if (op == Op.POSITION && a.size() != 2) {
          return null; // POSITION(x IN s FROM n)
        }
        for (Expr x : a) {
          if (!x.type().kind().isString()) {
            return null;
          }
        }
      }
      default -> { }
    }
    return new Expr.Call(op, a, t, nullable);
  }

  private static Op operator(SqlKind kind, String name) {
    switch (kind) {
      case PLUS: return Op.PLUS;
      case MINUS: return Op.MINUS;
      case TIMES: return Op.TIMES;
      case DIVIDE: return Op.DIVIDE;
      case MOD: return Op.MOD;
      case MINUS_PREFIX: return Op.NEGATE;
      case CAST: return Op.CAST;
      case EQUALS: return Op.EQ;
      case NOT_EQUALS: return Op.NE;
      case LESS_THAN: return Op.LT;
      case LESS_THAN_OR_EQUAL: return Op.LE;
      case GREATER_THAN: return Op.GT;
      case GREATER_THAN_OR_EQUAL: return Op.GE;
      case IS_DISTINCT_FROM: return Op.IS_DISTINCT_FROM;
      case IS_NOT_DISTINCT_FROM: return Op.IS_NOT_DISTINCT_FROM;
      case AND: return Op.AND;
      case OR: return Op.OR;
      case NOT: return Op.NOT;
      case IS_NULL: return Op.IS_NULL;
      case IS_NOT_NULL: return Op.IS_NOT_NULL;
      case IS_TRUE: return Op.IS_TRUE;
      case IS_NOT_TRUE: return Op.IS_NOT_TRUE;
      case IS_FALSE: return Op.IS_FALSE;
      case IS_NOT_FALSE: return Op.IS_NOT_FALSE;
      case CASE: return Op.CASE;
      case COALESCE: return Op.COALESCE;
      case NULLIF: return Op.NULLIF;
      case IN: return Op.IN;
      case NOT_IN: return Op.NOT_IN;
      default: break;
    }
    return switch (name) {
      case "CHAR_LENGTH", "CHARACTER_LENGTH" -> Op.CHAR_LENGTH;
      case "POSITION" -> Op.POSITION;
      case "SUBSTRING" -> Op.SUBSTRING;
      case "LOWER" -> Op.LOWER;
      case "UPPER" -> Op.UPPER;
      case "||" -> Op.CONCAT;
      default -> null;
    };
  }

  private static boolean numeric(TypeKind k) {
    return switch (k) {
      case TINYINT, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, DECIMAL -> true;
      default -> false;
    };
  }

  private static boolean comparable(DataType a, DataType b) {
    TypeKind x = a.kind();
    TypeKind y = b.kind();
    if (numeric(x) && numeric(y) || x.isString() && y.isString() || x == y) {
      return true;
    }
    return false;
  }

  /** Exact arithmetic only where the engine reproduces Calcite's value in the derived type. */
  private static boolean arithmeticOk(Op op, List<Expr> a, DataType t, RexCall call) {
    for (Expr x : a) {
      if (!numeric(x.type().kind())) {
        return false;
      }
    }
    if (t.kind() != TypeKind.DECIMAL) {
      return numeric(t.kind());
    }
    int s1 = scale(a.get(0).type());
    int s2 = scale(a.get(1).type());
    int p2 = precision(a.get(1).type());
    // Where the derived precision was capped at 38 digits the scale is still exact; a value
    // past 38 digits fails the query with an overflow error, as in DuckDB.
    return switch (op) {
      case PLUS, MINUS -> Math.max(s1, s2) == t.scale();
      case TIMES -> s1 + s2 == t.scale();
      case MOD -> Math.max(s1, s2) == t.scale() && p2 <= t.precision();
      default -> false; // DIVIDE: Calcite's quotient has 16 significant digits, not the type's scale
    };
  }

  private static int scale(DataType t) {
    return t.kind() == TypeKind.DECIMAL ? t.scale() : 0;
  }

  private static int precision(DataType t) {
    return switch (t.kind()) {
      case DECIMAL -> t.precision();
      case TINYINT -> 3;
      case SMALLINT -> 5;
      case INTEGER -> 10;
      case BIGINT -> 19;
      default -> 38;
    };
  }

  /**
   * Groups disjuncts {@code x = c} (or conjuncts {@code x <> c}) on the same operand into one
   * IN (NOT IN) call; other operands stay as they are.
   */
  private static List<Expr> inList(List<Expr> args, Op cmp, Op in) {
    Map<Expr, List<Expr>> groups = new LinkedHashMap<>();
    for (Expr e : args) {
      Expr.Constant k = groupedConstant(e, cmp);
      if (k != null) {
        groups.computeIfAbsent(((Expr.Call) e).args().get(0), x -> new ArrayList<>()).add(k);
      }
    }
    // Each group takes the place of its first member: AND's operands are evaluated in order, and
    // a guard such as i <> 0 must stay before 1000 / i.
    List<Expr> out = new ArrayList<>();
    for (Expr e : args) {
      if (groupedConstant(e, cmp) == null) {
        out.add(e);
        continue;
      }
      Expr key = ((Expr.Call) e).args().get(0);
      List<Expr> g = groups.remove(key);
      if (g != null) {
        List<Expr> xs = new ArrayList<>();
        xs.add(key);
        xs.addAll(g);
        out.add(new Expr.Call(g.size() == 1 ? cmp : in, xs, DataType.of(TypeKind.BOOLEAN), key.nullable()));
      }
    }
    return out;
  }

  /** The constant of {@code x cmp c} (x not a constant, c non-NULL and of x's kind), or null. */
  private static Expr.Constant groupedConstant(Expr e, Op cmp) {
    return e instanceof Expr.Call c && c.op() == cmp && c.args().get(1) instanceof Expr.Constant k
        && !(c.args().get(0) instanceof Expr.Constant) && k.value() != null
        && c.args().get(0).type().kind() == k.type().kind() ? k : null;
  }

  private Expr like(RexCall call) {
    String name = call.getOperator().getName();
    boolean negated;
    if (name.equals("LIKE")) {
      negated = false;
    } else if (name.equals("NOT LIKE")) {
      negated = true;
    } else {
      return null; // ILIKE, RLIKE, ...
    }
    List<Expr> a = args(call);
    if (a == null || !a.get(0).type().kind().isString()) {
      return null;
    }
    for (int k = 1; k < a.size(); k++) {
      if (!(a.get(k) instanceof Expr.Constant c) || !c.type().kind().isString()) {
        return null;
      }
    }
    Expr.Call c = new Expr.Call(negated ? Op.NOT_LIKE : Op.LIKE, a, type(call.getType()), call.getType().isNullable());
    Evaluators.compile(c); // an invalid pattern or escape throws here: leave it to Calcite
    return c;
  }

  private Expr extract(RexCall call) {
    RexNode flag = call.getOperands().get(0);
    if (!(flag instanceof RexLiteral lit) || !(lit.getValue() instanceof TimeUnitRange unit)) {
      return null;
    }
    Expr x = tr(call.getOperands().get(1));
    if (x == null) {
      return null;
    }
    TypeKind k = x.type().kind();
    boolean timeUnit = switch (unit) {
      case HOUR, MINUTE, SECOND, MILLISECOND -> true;
      default -> false;
    };
    boolean ok = switch (unit) {
      case YEAR, QUARTER, MONTH, WEEK, DAY, DOW, DOY, ISODOW, EPOCH -> k == TypeKind.DATE || k == TypeKind.TIMESTAMP;
      case HOUR, MINUTE, SECOND, MILLISECOND -> k == TypeKind.TIMESTAMP;
      default -> false;
    };
    if (!ok || timeUnit && k != TypeKind.TIMESTAMP) {
      return null;
    }
    DataType t = type(call.getType());
    if (!Evaluators.isIntegralKind(t.kind())) {
      return null;
    }
    Expr.Call c = new Expr.Call(Op.EXTRACT, List.of(new Expr.Constant(unit.name(), DataType.varchar(-1)), x),
        t, call.getType().isNullable());
    return fold(c);
  }

  private Expr datetimePlus(RexCall call, boolean minus) {
    if (call.getOperands().size() != 2) {
      return null;
    }
    RexNode l = call.getOperands().get(0);
    RexNode r = call.getOperands().get(1);
    if (isInterval(l) && !minus) {
      RexNode t = l;
      l = r;
      r = t;
    }
    if (!(r instanceof RexLiteral lit) || !isInterval(r) || lit.isNull()) {
      return null;
    }
    Expr base = tr(l);
    if (base == null) {
      return null;
    }
    DataType t = type(call.getType());
    if (base.type().kind() != t.kind()) {
      return null;
    }
    boolean months = lit.getType().getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH;
    BigDecimal v = lit.getValueAs(BigDecimal.class);
    Expr amount;
    if (months) {
      amount = new Expr.Constant(v.intValueExact(), DataType.of(TypeKind.INTEGER));
    } else {
      long ms = v.longValueExact();
      if (t.kind() == TypeKind.DATE && ms % 86_400_000L != 0) {
        return null;
      }
      amount = new Expr.Constant(ms, DataType.of(TypeKind.BIGINT));
    }
    Op op = months ? (minus ? Op.DATETIME_MINUS_MONTHS : Op.DATETIME_PLUS_MONTHS)
        : (minus ? Op.DATETIME_MINUS_MILLIS : Op.DATETIME_PLUS_MILLIS);
    return fold(new Expr.Call(op, List.of(base, amount), t, call.getType().isNullable()));
  }

  private static boolean isInterval(RexNode n) {
    SqlTypeFamily f = n.getType().getSqlTypeName().getFamily();
    return f == SqlTypeFamily.INTERVAL_DAY_TIME || f == SqlTypeFamily.INTERVAL_YEAR_MONTH;
  }
}
