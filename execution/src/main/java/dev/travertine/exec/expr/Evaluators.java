package dev.travertine.exec.expr;

import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * Compiles {@link Expr} trees into {@link VectorExpression}s. Operands whose representation does
 * not match what an operator computes in get an implicit CAST (an INTEGER operand of a DOUBLE
 * addition, a DATE compared with a TIMESTAMP, the THEN branches of a CASE of another type).
 *
 * <p>Results follow {@link VectorExpression}: a new vector per call; string results may reference
 * the input's byte buffers (SUBSTRING, CASE branches), so they are valid as long as the batch is.
 * A column by itself is copied.
 */
public final class Evaluators {
  private Evaluators() {}

  /** Compiles an expression; throws {@code IllegalArgumentException} for malformed calls. */
  public static VectorExpression compile(Expr expr) {
    return build(expr);
  }

  /**
   * Evaluates an expression that reads no column (a constant sub-expression) once, returning its
   * value in the engine representation (see {@link Expr}), or null for SQL NULL. Errors of the
   * evaluation (division by zero, a failing CAST) propagate.
   */
  public static Object evaluateConstant(Expr expr) {
    VecExpr e = build(expr);
    Batch one = new Batch(new ColumnVector[0], new int[] {0}, 1);
    ColumnVector v = e.eval(one);
    Object o = Vectors.get(v, expr.type().kind(), 0);
    if (o instanceof java.math.BigDecimal b) {
      o = b.setScale(expr.type().scale(), java.math.RoundingMode.UNNECESSARY);
    }
    return o;
  }

  /** Whether CAST between the two types is supported. */
  public static boolean supportsCast(DataType from, DataType to) {
    return CastExpr.supports(from.kind(), to.kind());
  }

  static VecExpr build(Expr expr) {
    if (expr instanceof Expr.Column c) {
      return new ColumnExpr(c.index(), c.type());
    }
    if (expr instanceof Expr.Constant c) {
      return new ConstantExpr(c.value(), c.type());
    }
    Expr.Call call = (Expr.Call) expr;
    List<Expr> a = call.args();
    DataType t = call.type();
    Op op = call.op();
    switch (op) {
      case PLUS, MINUS, TIMES, DIVIDE, MOD -> {
        arity(call, 2, 2);
        return arithmetic(op, a.get(0), a.get(1), t);
      }
      case NEGATE -> {
        arity(call, 1, 1);
        VecExpr x = coerceNumeric(a.get(0), t);
        if (isIntegral(t.kind())) {
          return new LongArithmetic.Negate(x, t);
        }
        if (t.kind().isDoubleBacked()) {
          return new DoubleArithmetic(Op.NEGATE, x, null, t);
        }
        requireKind(call, t, TypeKind.DECIMAL);
        return new DecimalArithmetic(Op.NEGATE, x, null, t);
      }
      case CAST -> {
        arity(call, 1, 1);
        return cast(build(a.get(0)), t);
      }
      case EQ, NE, LT, LE, GT, GE, IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM -> {
        arity(call, 2, 2);
        VecExpr[] ab = common(call, a.get(0), a.get(1));
        return new Comparison(op, ab[0], ab[1]);
      }
      case AND, OR -> {
        if (a.size() < 2) {
          throw new IllegalArgumentException(op + " takes two or more operands: " + call);
        }
        List<VecExpr> xs = new ArrayList<>();
        for (Expr x : a) {
          xs.add(bool(call, x));
        }
        return new Logic(op == Op.AND, xs);
      }
      case NOT -> {
        arity(call, 1, 1);
        return new Logic.Not(bool(call, a.get(0)));
      }
      case IS_NULL, IS_NOT_NULL -> {
        arity(call, 1, 1);
        return new Logic.Test(op, build(a.get(0)));
      }
      case IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE -> {
        arity(call, 1, 1);
        return new Logic.Test(op, bool(call, a.get(0)));
      }
      case CASE -> {
        if (a.size() < 3 || a.size() % 2 == 0) {
          throw new IllegalArgumentException("CASE takes when/then pairs and an ELSE (an odd count >= 3): " + call);
        }
        List<VecExpr> whens = new ArrayList<>();
        List<VecExpr> thens = new ArrayList<>();
        for (int k = 0; k + 1 < a.size(); k += 2) {
          whens.add(bool(call, a.get(k)));
          thens.add(coerce(build(a.get(k + 1)), t));
        }
        return new Conditionals.Case(whens, thens, coerce(build(a.get(a.size() - 1)), t), t);
      }
      case COALESCE -> {
        if (a.isEmpty()) {
          throw new IllegalArgumentException("COALESCE needs an operand: " + call);
        }
        List<VecExpr> xs = new ArrayList<>();
        for (Expr x : a) {
          xs.add(coerce(build(x), t));
        }
        return new Conditionals.Coalesce(xs, t);
      }
      case NULLIF -> {
        arity(call, 2, 2);
        VecExpr[] ab = common(call, a.get(0), a.get(1));
        return new Conditionals.NullIf(coerce(build(a.get(0)), t), new Comparison(Op.EQ, ab[0], ab[1]), t);
      }
      case IN, NOT_IN -> {
        if (a.size() < 2) {
          throw new IllegalArgumentException(op + " needs a value and at least one constant: " + call);
        }
        return in(call, a, op == Op.NOT_IN);
      }
      case LIKE, NOT_LIKE -> {
        arity(call, 2, 3);
        VecExpr s = string(a.get(0));
        String pattern = constantString(call, a.get(1));
        String escape = a.size() > 2 ? constantString(call, a.get(2)) : null;
        if (pattern == null || (a.size() > 2 && escape == null)) {
          return new ConstantExpr(null, DataType.of(TypeKind.BOOLEAN));
        }
        return new LikeExpr(s, LikePattern.compile(pattern, escape), op == Op.NOT_LIKE);
      }
      case CHAR_LENGTH, LOWER, UPPER -> {
        arity(call, 1, 1);
        return new StringFunctions(op, List.of(string(a.get(0))), t);
      }
      case CONCAT, POSITION -> {
        arity(call, 2, 2);
        return new StringFunctions(op, List.of(string(a.get(0)), string(a.get(1))), t);
      }
      case SUBSTRING -> {
        arity(call, 2, 3);
        List<VecExpr> xs = new ArrayList<>();
        xs.add(string(a.get(0)));
        for (int k = 1; k < a.size(); k++) {
          xs.add(integral(a.get(k)));
        }
        return new StringFunctions(op, xs, t);
      }
      case EXTRACT -> {
        arity(call, 2, 2);
        String unit = constantString(call, a.get(0));
        if (unit == null) {
          throw new IllegalArgumentException("EXTRACT needs a unit: " + call);
        }
        VecExpr x = build(a.get(1));
        TypeKind k = x.type.kind();
        if (k != TypeKind.DATE && k != TypeKind.TIMESTAMP) {
          throw new IllegalArgumentException("EXTRACT needs a DATE or TIMESTAMP: " + call);
        }
        return new DateTimeFunctions.Extract(DateTimeFunctions.unit(unit), x, t);
      }
      case DATETIME_PLUS_MILLIS, DATETIME_MINUS_MILLIS, DATETIME_PLUS_MONTHS, DATETIME_MINUS_MONTHS -> {
        arity(call, 2, 2);
        VecExpr base = coerce(build(a.get(0)), t);
        if (t.kind() != TypeKind.DATE && t.kind() != TypeKind.TIMESTAMP) {
          throw new IllegalArgumentException(op + " needs a DATE or TIMESTAMP result: " + call);
        }
        boolean months = op == Op.DATETIME_PLUS_MONTHS || op == Op.DATETIME_MINUS_MONTHS;
        boolean minus = op == Op.DATETIME_MINUS_MILLIS || op == Op.DATETIME_MINUS_MONTHS;
        return new DateTimeFunctions.Plus(base, integral(a.get(1)), months, minus, t);
      }
      default -> throw new IllegalArgumentException("Unsupported operator " + op);
    }
  }

  private static void arity(Expr.Call call, int min, int max) {
    int n = call.args().size();
    if (n < min || n > max) {
      throw new IllegalArgumentException(call.op() + " takes " + (min == max ? "" + min : min + ".." + max)
          + " operands, got " + n + ": " + call);
    }
  }

  private static void requireKind(Expr.Call call, DataType t, TypeKind k) {
    if (t.kind() != k) {
      throw new IllegalArgumentException(call.op() + " cannot produce " + t + ": " + call);
    }
  }

  /** Whether the kind is TINYINT, SMALLINT, INTEGER or BIGINT. */
  public static boolean isIntegralKind(TypeKind k) {
    return isIntegral(k);
  }

  static boolean isIntegral(TypeKind k) {
    return k == TypeKind.TINYINT || k == TypeKind.SMALLINT || k == TypeKind.INTEGER || k == TypeKind.BIGINT;
  }

  private static VecExpr arithmetic(Op op, Expr x, Expr y, DataType t) {
    VecExpr a = coerceNumeric(x, t);
    VecExpr b = coerceNumeric(y, t);
    if (isIntegral(t.kind())) {
      return new LongArithmetic(op, a, b, t);
    }
    if (t.kind().isDoubleBacked()) {
      return new DoubleArithmetic(op, a, b, t);
    }
    if (t.kind() == TypeKind.DECIMAL) {
      return new DecimalArithmetic(op, a, b, t);
    }
    throw new IllegalArgumentException(op + " cannot produce " + t);
  }

  /** An arithmetic operand in the representation of result type {@code t}. */
  private static VecExpr coerceNumeric(Expr x, DataType t) {
    VecExpr e = build(x);
    TypeKind k = e.type.kind();
    if (isIntegral(t.kind())) {
      return isIntegral(k) ? e : cast(e, DataType.of(TypeKind.BIGINT));
    }
    if (t.kind().isDoubleBacked()) {
      return k.isDoubleBacked() ? e : cast(e, DataType.of(TypeKind.DOUBLE));
    }
    if (k == TypeKind.DECIMAL) {
      return e;
    }
    return cast(e, decimalFor(k));
  }

  private static DataType decimalFor(TypeKind k) {
    return switch (k) {
      case TINYINT -> DataType.decimal(3, 0);
      case SMALLINT -> DataType.decimal(5, 0);
      case INTEGER -> DataType.decimal(10, 0);
      default -> DataType.decimal(19, 0);
    };
  }

  /** {@code e} as type {@code t}: unchanged when the representation already matches. */
  static VecExpr coerce(VecExpr e, DataType t) {
    if (e.type.equals(t)) {
      return e;
    }
    TypeKind from = e.type.kind();
    TypeKind to = t.kind();
    if (from == to && from != TypeKind.DECIMAL) {
      return e; // VARCHAR(n) vs VARCHAR(m), CHAR lengths: same bytes
    }
    if (from.isString() && to.isString()) {
      return e;
    }
    if (isIntegral(from) && isIntegral(to) && rankOf(from) <= rankOf(to)) {
      return e;
    }
    if (from == TypeKind.DECIMAL && to == TypeKind.DECIMAL && e.type.scale() == t.scale()) {
      return e;
    }
    return cast(e, t);
  }

  private static int rankOf(TypeKind k) {
    return switch (k) {
      case TINYINT -> 1;
      case SMALLINT -> 2;
      case INTEGER -> 3;
      default -> 4;
    };
  }

  static VecExpr cast(VecExpr e, DataType t) {
    if (e.type.equals(t)) {
      return e;
    }
    TypeKind from = e.type.kind();
    if (isIntegral(from) && isIntegral(t.kind()) && rankOf(from) <= rankOf(t.kind())
        || from == TypeKind.REAL && t.kind() == TypeKind.DOUBLE) {
      return e; // widening: the vector already holds the value (a long; a float as a double)
    }
    if (!CastExpr.supports(e.type.kind(), t.kind())) {
      throw new IllegalArgumentException("CAST from " + e.type + " to " + t + " is not supported");
    }
    if (e instanceof ConstantExpr c && c.isNull()) {
      return new ConstantExpr(null, t);
    }
    if (e instanceof ConstantExpr && (isIntegral(t.kind()) || t.kind() == TypeKind.DECIMAL || t.kind().isDoubleBacked())) {
      return foldCast(e, t); // 1 - l_discount: the 1 is cast once, not per batch
    }
    return new CastExpr(e, t);
  }

  /** A cast of a constant evaluated once; one that fails stays a cast, to fail where it runs. */
  private static VecExpr foldCast(VecExpr constant, DataType t) {
    CastExpr cast = new CastExpr(constant, t);
    try {
      ColumnVector v = cast.eval(new Batch(new ColumnVector[0], new int[] {0}, 1));
      return new ConstantExpr(Vectors.get(v, t.kind(), 0), t);
    } catch (RuntimeException e) {
      return cast;
    }
  }

  /** Both operands of a comparison in one representation. */
  private static VecExpr[] common(Expr.Call call, Expr x, Expr y) {
    VecExpr a = build(x);
    VecExpr b = build(y);
    DataType t = commonType(a.type, b.type);
    if (t == null) {
      throw new IllegalArgumentException("Cannot compare " + a.type + " with " + b.type + ": " + call);
    }
    return new VecExpr[] {coerceTo(a, t), coerceTo(b, t)};
  }

  private static VecExpr coerceTo(VecExpr e, DataType t) {
    return Comparison.reprOf(e.type.kind()) == Comparison.reprOf(t.kind())
        && (e.type.kind() == TypeKind.DATE) == (t.kind() == TypeKind.DATE) ? e : cast(e, t);
  }

  /** The type two compared values meet in, or null. */
  static DataType commonType(DataType a, DataType b) {
    TypeKind x = a.kind();
    TypeKind y = b.kind();
    if (x == y || x.isString() && y.isString()) {
      return a;
    }
    boolean nx = isIntegral(x) || x.isDoubleBacked() || x == TypeKind.DECIMAL;
    boolean ny = isIntegral(y) || y.isDoubleBacked() || y == TypeKind.DECIMAL;
    if (nx && ny) {
      if (x.isDoubleBacked() || y.isDoubleBacked()) {
        return DataType.of(TypeKind.DOUBLE);
      }
      if (x == TypeKind.DECIMAL && y == TypeKind.DECIMAL) {
        return a; // compared by value whatever the scales
      }
      if (x == TypeKind.DECIMAL || y == TypeKind.DECIMAL) {
        DataType d = x == TypeKind.DECIMAL ? a : b;
        DataType i = decimalFor(x == TypeKind.DECIMAL ? y : x);
        int p = Math.min(38, Math.max(d.precision() - d.scale(), i.precision()) + d.scale());
        return DataType.decimal(p, d.scale());
      }
      return DataType.of(TypeKind.BIGINT);
    }
    if ((x == TypeKind.DATE || x == TypeKind.TIMESTAMP) && (y == TypeKind.DATE || y == TypeKind.TIMESTAMP)) {
      return DataType.of(TypeKind.TIMESTAMP);
    }
    return null;
  }

  private static VecExpr bool(Expr.Call call, Expr x) {
    VecExpr e = build(x);
    if (e.type.kind() != TypeKind.BOOLEAN) {
      throw new IllegalArgumentException(call.op() + " needs BOOLEAN operands, got " + e.type + ": " + call);
    }
    return e;
  }

  private static VecExpr string(Expr x) {
    VecExpr e = build(x);
    return e.type.kind().isString() ? e : cast(e, DataType.varchar(-1));
  }

  private static VecExpr integral(Expr x) {
    VecExpr e = build(x);
    return isIntegral(e.type.kind()) ? e : cast(e, DataType.of(TypeKind.BIGINT));
  }

  private static String constantString(Expr.Call call, Expr x) {
    if (!(x instanceof Expr.Constant c)) {
      throw new IllegalArgumentException(call.op() + " needs a constant operand, got " + x + ": " + call);
    }
    return c.value() == null ? null : c.value().toString();
  }

  private static VecExpr in(Expr.Call call, List<Expr> a, boolean negated) {
    VecExpr value = build(a.get(0));
    DataType t = value.type;
    for (int k = 1; k < a.size(); k++) {
      if (!(a.get(k) instanceof Expr.Constant)) {
        throw new IllegalArgumentException(call.op() + " takes constants after the value: " + call);
      }
      DataType ct = a.get(k).type();
      DataType common = commonType(t, ct);
      if (common == null) {
        throw new IllegalArgumentException("Cannot compare " + t + " with " + ct + ": " + call);
      }
      t = common;
    }
    List<ConstantExpr> values = new ArrayList<>();
    for (int k = 1; k < a.size(); k++) {
      Expr.Constant c = (Expr.Constant) a.get(k);
      Object v = c.value();
      if (v != null && t.kind() == TypeKind.DECIMAL && c.type().kind() == TypeKind.DECIMAL) {
        values.add(new ConstantExpr(v, c.type())); // decimals are matched by value
        continue;
      }
      if (v != null && !c.type().equals(t)) {
        v = evaluateConstant(new Expr.Call(Op.CAST, List.of(c), t, false));
      }
      values.add(new ConstantExpr(v, t));
    }
    return new InExpr(coerceTo(value, t), values, negated);
  }
}
