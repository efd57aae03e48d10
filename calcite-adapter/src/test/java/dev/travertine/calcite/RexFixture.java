package dev.travertine.calcite;

import dev.travertine.calcite.schema.TravertineTypeSystem;
import dev.travertine.calcite.schema.TypeMapping;
import dev.travertine.vector.DataType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

/**
 * Input row type, random data and the RexNodes {@link RexToExprDifferentialTest} compares, one
 * list per operator family.
 */
final class RexFixture {
  final JavaTypeFactoryImpl tf = new JavaTypeFactoryImpl(TravertineTypeSystem.INSTANCE);
  final RexBuilder rexBuilder = new RexBuilder(tf);
  final RelDataType rowType;
  private final List<DataType> types = new ArrayList<>();

  static final String[] NAMES = {"b", "ti", "si", "i", "i2", "bi", "bi2", "r", "d", "d2", "dec", "dec2",
      "s", "s2", "ns", "ch", "dt", "ts", "b2", "small", "dec3"};

  RexFixture() {
    RelDataType[] ts = {
        t(SqlTypeName.BOOLEAN), t(SqlTypeName.TINYINT), t(SqlTypeName.SMALLINT), t(SqlTypeName.INTEGER),
        t(SqlTypeName.INTEGER), t(SqlTypeName.BIGINT), t(SqlTypeName.BIGINT), t(SqlTypeName.REAL),
        t(SqlTypeName.DOUBLE), t(SqlTypeName.DOUBLE), t(SqlTypeName.DECIMAL, 10, 2), t(SqlTypeName.DECIMAL, 5, 3),
        t(SqlTypeName.VARCHAR, 20), t(SqlTypeName.VARCHAR, 20), t(SqlTypeName.VARCHAR, 20), t(SqlTypeName.CHAR, 5),
        t(SqlTypeName.DATE), t(SqlTypeName.TIMESTAMP, 3), t(SqlTypeName.BOOLEAN), t(SqlTypeName.INTEGER),
        t(SqlTypeName.DECIMAL, 20, 9)};
    RelDataTypeFactoryBuilder b = new RelDataTypeFactoryBuilder();
    for (int k = 0; k < NAMES.length; k++) {
      b.add(NAMES[k], ts[k]);
      types.add(TypeMapping.fromRelType(ts[k]));
    }
    rowType = b.build();
  }

  private final class RelDataTypeFactoryBuilder {
    private final org.apache.calcite.rel.type.RelDataTypeFactory.Builder b = tf.builder();

    void add(String n, RelDataType t) {
      b.add(n, t);
    }

    RelDataType build() {
      return b.build();
    }
  }

  RelDataType t(SqlTypeName n) {
    return tf.createTypeWithNullability(tf.createSqlType(n), true);
  }

  RelDataType t(SqlTypeName n, int p) {
    return tf.createTypeWithNullability(tf.createSqlType(n, p), true);
  }

  RelDataType t(SqlTypeName n, int p, int s) {
    return tf.createTypeWithNullability(tf.createSqlType(n, p, s), true);
  }

  List<DataType> engineTypes() {
    return types;
  }

  List<Boolean> nullability() {
    List<Boolean> out = new ArrayList<>();
    for (RelDataTypeField fd : rowType.getFieldList()) {
      out.add(fd.getType().isNullable());
    }
    return out;
  }

  /** A random batch over this fixture's columns. */
  RexTestRows.Chunk chunk(Random rnd) {
    return RexTestRows.chunk(rnd, types);
  }

  // ---- expressions ----

  /**
   * The node Calcite evaluates for {@code rex}: its executor cannot run IS [NOT] DISTINCT FROM or
   * NULLIF, which SqlToRel expands before they reach it, so those are expanded the same way.
   */
  RexNode reference(RexNode rex) {
    return rex.accept(new org.apache.calcite.rex.RexShuttle() {
      @Override public RexNode visitCall(org.apache.calcite.rex.RexCall call) {
        org.apache.calcite.rex.RexCall c = (org.apache.calcite.rex.RexCall) super.visitCall(call);
        List<RexNode> o = c.getOperands();
        switch (c.getKind()) {
          case IS_DISTINCT_FROM:
            return org.apache.calcite.plan.RelOptUtil.isDistinctFrom(rexBuilder, o.get(0), o.get(1), false);
          case IS_NOT_DISTINCT_FROM:
            return org.apache.calcite.plan.RelOptUtil.isDistinctFrom(rexBuilder, o.get(0), o.get(1), true);
          case NULLIF:
            return rexBuilder.makeCall(c.getType(), SqlStdOperatorTable.CASE,
                List.of(rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, o.get(0), o.get(1)),
                    rexBuilder.makeNullLiteral(c.getType()), rexBuilder.makeCast(c.getType(), o.get(0), true, false)));
          default:
            return c;
        }
      }
    });
  }

  RexNode ref(String name) {
    int i = Arrays.asList(NAMES).indexOf(name);
    return rexBuilder.makeInputRef(rowType.getFieldList().get(i).getType(), i);
  }

  RexNode call(SqlOperator op, RexNode... args) {
    return rexBuilder.makeCall(op, args);
  }

  RexNode lit(long v) {
    return rexBuilder.makeExactLiteral(BigDecimal.valueOf(v));
  }

  RexNode lit(String dec) {
    return rexBuilder.makeExactLiteral(new BigDecimal(dec));
  }

  RexNode dbl(double v) {
    return rexBuilder.makeApproxLiteral(new BigDecimal(Double.toString(v)));
  }

  /** A CHAR literal: Latin-1 like the columns, or UTF-16LE for other characters. */
  RexNode str(String s) {
    if (s.chars().allMatch(ch -> ch < 256)) {
      return rexBuilder.makeLiteral(s);
    }
    return rexBuilder.makeCharLiteral(new org.apache.calcite.util.NlsString(s, "UTF-16LE",
        org.apache.calcite.sql.SqlCollation.IMPLICIT));
  }

  RexNode cast(RelDataType t, RexNode e) {
    return rexBuilder.makeCast(t, e);
  }

  RexNode interval(long value, TimeUnit unit) {
    return rexBuilder.makeIntervalLiteral(BigDecimal.valueOf(value),
        new SqlIntervalQualifier(unit, null, SqlParserPos.ZERO));
  }

  List<RexNode> arithmetic() {
    List<RexNode> l = new ArrayList<>();
    SqlOperator[] ops = {SqlStdOperatorTable.PLUS, SqlStdOperatorTable.MINUS, SqlStdOperatorTable.MULTIPLY,
        SqlStdOperatorTable.DIVIDE, SqlStdOperatorTable.MOD};
    String[][] pairs = {{"i", "i2"}, {"ti", "ti"}, {"si", "si"}, {"bi", "bi2"}, {"i", "bi2"}, {"ti", "i2"},
        {"d", "d2"}, {"r", "r"}, {"r", "d"}, {"i", "d"}, {"si", "r"}};
    for (String[] p : pairs) {
      for (SqlOperator op : ops) {
        l.add(call(op, ref(p[0]), ref(p[1])));
      }
    }
    for (SqlOperator op : new SqlOperator[] {SqlStdOperatorTable.PLUS, SqlStdOperatorTable.MINUS,
        SqlStdOperatorTable.MULTIPLY, SqlStdOperatorTable.MOD}) {
      l.add(call(op, ref("dec"), ref("dec2")));
    }
    l.add(call(SqlStdOperatorTable.PLUS, ref("dec"), ref("i2")));
    l.add(call(SqlStdOperatorTable.MINUS, ref("i2"), ref("dec")));
    l.add(call(SqlStdOperatorTable.MOD, ref("dec"), ref("i2")));
    l.add(call(SqlStdOperatorTable.MULTIPLY, ref("dec2"), ref("si")));
    // DECIMAL(10, 2) * INTEGER is DECIMAL(20, 2): past 18 digits, exact with 38 as the maximum
    l.add(call(SqlStdOperatorTable.MULTIPLY, ref("dec"), ref("i2")));
    l.add(call(SqlStdOperatorTable.MULTIPLY, call(SqlStdOperatorTable.MULTIPLY, ref("dec"), ref("dec2")),
        call(SqlStdOperatorTable.MINUS, lit(1), ref("dec2"))));
    l.add(call(SqlStdOperatorTable.PLUS, ref("dec"), ref("d")));
    l.add(call(SqlStdOperatorTable.PLUS, ref("i"), lit(1)));
    l.add(call(SqlStdOperatorTable.MULTIPLY, lit(3), ref("bi")));
    l.add(call(SqlStdOperatorTable.DIVIDE, ref("i"), lit(7)));
    l.add(call(SqlStdOperatorTable.DIVIDE, lit(1000), ref("i2")));
    l.add(call(SqlStdOperatorTable.MOD, ref("bi"), lit(-3)));
    l.add(call(SqlStdOperatorTable.MINUS, ref("d"), dbl(0.5)));
    l.add(call(SqlStdOperatorTable.DIVIDE, ref("d"), dbl(0)));
    l.add(call(SqlStdOperatorTable.PLUS, ref("dec"), lit("1.25")));
    l.add(call(SqlStdOperatorTable.DIVIDE_INTEGER, ref("i"), ref("i2")));
    for (String c : new String[] {"ti", "si", "i", "bi", "r", "d", "dec"}) {
      l.add(call(SqlStdOperatorTable.UNARY_MINUS, ref(c)));
    }
    l.add(call(SqlStdOperatorTable.UNARY_PLUS, ref("i")));
    return l;
  }

  List<RexNode> casts() {
    List<RexNode> l = new ArrayList<>();
    SqlTypeName[] numeric = {SqlTypeName.TINYINT, SqlTypeName.SMALLINT, SqlTypeName.INTEGER, SqlTypeName.BIGINT,
        SqlTypeName.REAL, SqlTypeName.DOUBLE};
    for (String c : new String[] {"ti", "si", "i", "bi", "r", "d", "dec", "dec3"}) {
      for (SqlTypeName n : numeric) {
        l.add(cast(t(n), ref(c)));
      }
      l.add(cast(t(SqlTypeName.DECIMAL, 10, 2), ref(c)));
      l.add(cast(t(SqlTypeName.DECIMAL, 4, 1), ref(c)));
      l.add(cast(t(SqlTypeName.DECIMAL, 19, 0), ref(c)));
      l.add(cast(t(SqlTypeName.VARCHAR, 40), ref(c)));
      l.add(cast(t(SqlTypeName.VARCHAR, 4), ref(c)));
    }
    for (SqlTypeName n : numeric) {
      l.add(cast(t(n), ref("ns")));
    }
    l.add(cast(t(SqlTypeName.DECIMAL, 10, 2), ref("ns")));
    l.add(cast(t(SqlTypeName.BOOLEAN), ref("ns")));
    for (String c : new String[] {"b", "dt", "ts", "s", "ch"}) {
      l.add(cast(t(SqlTypeName.VARCHAR, 40), ref(c)));
      l.add(cast(t(SqlTypeName.VARCHAR, 3), ref(c)));
      l.add(cast(t(SqlTypeName.CHAR, 6), ref(c)));
    }
    l.add(cast(t(SqlTypeName.DATE), ref("ts")));
    l.add(cast(t(SqlTypeName.TIMESTAMP, 3), ref("dt")));
    l.add(cast(t(SqlTypeName.BIGINT), ref("dt")));
    l.add(cast(t(SqlTypeName.INTEGER), ref("dt")));
    l.add(cast(t(SqlTypeName.BIGINT), ref("ts")));
    l.add(cast(t(SqlTypeName.INTEGER), ref("b")));
    l.add(cast(t(SqlTypeName.BOOLEAN), ref("i")));
    l.add(cast(t(SqlTypeName.DATE), str("2020-02-29")));
    l.add(cast(t(SqlTypeName.TIMESTAMP, 3), str("2020-01-02 03:04:05.678")));
    l.add(call(SqlStdOperatorTable.LESS_THAN, ref("dt"), cast(t(SqlTypeName.DATE), str("2000-01-01"))));
    return l;
  }

  List<RexNode> comparisons() {
    List<RexNode> l = new ArrayList<>();
    SqlOperator[] ops = {SqlStdOperatorTable.EQUALS, SqlStdOperatorTable.NOT_EQUALS, SqlStdOperatorTable.LESS_THAN,
        SqlStdOperatorTable.LESS_THAN_OR_EQUAL, SqlStdOperatorTable.GREATER_THAN,
        SqlStdOperatorTable.GREATER_THAN_OR_EQUAL, SqlStdOperatorTable.IS_DISTINCT_FROM,
        SqlStdOperatorTable.IS_NOT_DISTINCT_FROM};
    String[][] pairs = {{"i", "i2"}, {"ti", "si"}, {"bi", "bi2"}, {"i", "bi"}, {"d", "d2"}, {"r", "d"}, {"i", "d"},
        {"dec", "dec2"}, {"dec", "i"}, {"dec", "d"}, {"s", "s2"}, {"ch", "s"}, {"b", "b2"}, {"dt", "dt"}, {"ts", "ts"}};
    for (String[] p : pairs) {
      for (SqlOperator op : ops) {
        l.add(call(op, ref(p[0]), ref(p[1])));
      }
    }
    RexNode[][] constants = {{ref("i"), lit(5)}, {lit(5), ref("i")}, {ref("bi"), lit(-1)}, {ref("ti"), lit(100)},
        {ref("d"), dbl(2.5)}, {dbl(1.5), ref("r")}, {ref("dec"), lit("12.50")}, {ref("s"), str("ab")},
        {str("b"), ref("s")}, {ref("s"), str("é")}, {ref("b"), rexBuilder.makeLiteral(true)},
        {ref("dt"), rexBuilder.makeDateLiteral(new DateString("2000-01-01"))},
        {ref("ts"), rexBuilder.makeTimestampLiteral(new TimestampString("1999-12-31 23:59:59.999"), 3)},
        {ref("ts"), rexBuilder.makeTimestampLiteral(new TimestampString("2001-02-03 04:05:06"), 0)},
        {cast(t(SqlTypeName.INTEGER), ref("si")), lit(0)}, {cast(t(SqlTypeName.DOUBLE), ref("r")), dbl(1.5)},
        {ref("i"), rexBuilder.makeNullLiteral(t(SqlTypeName.INTEGER))}};
    for (RexNode[] p : constants) {
      for (SqlOperator op : ops) {
        l.add(call(op, p[0], p[1]));
      }
    }
    return l;
  }

  List<RexNode> logic() {
    List<RexNode> l = new ArrayList<>();
    RexNode p = call(SqlStdOperatorTable.GREATER_THAN, ref("i"), lit(0));
    RexNode q = call(SqlStdOperatorTable.LESS_THAN, ref("d"), dbl(10));
    RexNode r = ref("b");
    l.add(call(SqlStdOperatorTable.AND, p, q));
    l.add(call(SqlStdOperatorTable.OR, p, q));
    l.add(call(SqlStdOperatorTable.AND, p, q, r));
    l.add(call(SqlStdOperatorTable.OR, r, ref("b2"), p));
    l.add(call(SqlStdOperatorTable.AND, r, call(SqlStdOperatorTable.OR, ref("b2"), q)));
    l.add(call(SqlStdOperatorTable.NOT, r));
    l.add(call(SqlStdOperatorTable.NOT, call(SqlStdOperatorTable.AND, r, ref("b2"))));
    l.add(call(SqlStdOperatorTable.AND, r, rexBuilder.makeNullLiteral(t(SqlTypeName.BOOLEAN))));
    // guarded division: the right side must not run where the left is FALSE
    l.add(call(SqlStdOperatorTable.AND, call(SqlStdOperatorTable.NOT_EQUALS, ref("i2"), lit(0)),
        call(SqlStdOperatorTable.GREATER_THAN, call(SqlStdOperatorTable.DIVIDE, ref("i"), ref("i2")), lit(1))));
    l.add(call(SqlStdOperatorTable.OR, call(SqlStdOperatorTable.EQUALS, ref("i2"), lit(0)),
        call(SqlStdOperatorTable.GREATER_THAN, call(SqlStdOperatorTable.DIVIDE, ref("i"), ref("i2")), lit(1))));
    for (SqlOperator op : new SqlOperator[] {SqlStdOperatorTable.IS_NULL, SqlStdOperatorTable.IS_NOT_NULL}) {
      for (String c : new String[] {"b", "i", "d", "dec", "s", "dt", "ts"}) {
        l.add(call(op, ref(c)));
      }
    }
    for (SqlOperator op : new SqlOperator[] {SqlStdOperatorTable.IS_TRUE, SqlStdOperatorTable.IS_NOT_TRUE,
        SqlStdOperatorTable.IS_FALSE, SqlStdOperatorTable.IS_NOT_FALSE}) {
      l.add(call(op, r));
      l.add(call(op, p));
    }
    return l;
  }

  List<RexNode> conditionals() {
    List<RexNode> l = new ArrayList<>();
    RexNode pos = call(SqlStdOperatorTable.GREATER_THAN, ref("i"), lit(0));
    l.add(call(SqlStdOperatorTable.CASE, pos, ref("i"), call(SqlStdOperatorTable.UNARY_MINUS, ref("i"))));
    l.add(call(SqlStdOperatorTable.CASE, call(SqlStdOperatorTable.EQUALS, ref("i2"), lit(0)),
        rexBuilder.makeNullLiteral(t(SqlTypeName.INTEGER)), call(SqlStdOperatorTable.DIVIDE, ref("i"), ref("i2"))));
    l.add(call(SqlStdOperatorTable.CASE, ref("b"), ref("s"), ref("b2"), ref("s2"), str("none")));
    l.add(call(SqlStdOperatorTable.CASE, pos, ref("dec"), ref("b"), ref("dec2"),
        rexBuilder.makeNullLiteral(t(SqlTypeName.DECIMAL, 10, 2))));
    l.add(call(SqlStdOperatorTable.CASE, pos, ref("d"), ref("b"), ref("i2"), ref("r")));
    l.add(call(SqlStdOperatorTable.CASE, pos, ref("ts"), ref("b"), cast(t(SqlTypeName.TIMESTAMP, 3), ref("dt")),
        ref("ts")));
    l.add(call(SqlStdOperatorTable.COALESCE, ref("i"), ref("i2"), lit(0)));
    l.add(call(SqlStdOperatorTable.COALESCE, ref("s"), ref("s2")));
    // COALESCE(d, i) without the cast SqlToRel adds: Calcite's own code throws an NPE for a NULL i
    l.add(call(SqlStdOperatorTable.COALESCE, ref("d"), cast(t(SqlTypeName.DOUBLE), ref("i"))));
    l.add(call(SqlStdOperatorTable.NULLIF, ref("i"), ref("i2")));
    l.add(call(SqlStdOperatorTable.NULLIF, ref("s"), str("a")));
    l.add(call(SqlStdOperatorTable.NULLIF, ref("ti"), lit(0)));
    return l;
  }

  List<RexNode> inAndSearch() {
    List<RexNode> l = new ArrayList<>();
    l.add(rexBuilder.makeIn(ref("i"), List.of(lit(1), lit(2), lit(-1), lit(Integer.MAX_VALUE))));
    List<RexNode> many = new ArrayList<>();
    for (int k = -30; k < 30; k += 3) {
      many.add(lit(k));
    }
    l.add(rexBuilder.makeIn(ref("i"), many));
    l.add(call(SqlStdOperatorTable.NOT, rexBuilder.makeIn(ref("bi"), many)));
    l.add(rexBuilder.makeIn(ref("s"), List.of(str("a"), str("b"), str("é"), str(""))));
    l.add(call(SqlStdOperatorTable.NOT, rexBuilder.makeIn(ref("s"), List.of(str("a"), str("ab")))));
    l.add(rexBuilder.makeIn(ref("d"), List.of(dbl(0), dbl(1), dbl(2.5))));
    l.add(rexBuilder.makeIn(ref("dec"), List.of(lit("0.00"), lit("12.50"), lit("-1.00"))));
    l.add(rexBuilder.makeIn(ref("dt"), List.of(rexBuilder.makeDateLiteral(new DateString("2000-01-01")),
        rexBuilder.makeDateLiteral(new DateString("1970-01-01")))));
    l.add(rexBuilder.makeBetween(ref("i"), lit(-10), lit(10)));
    l.add(rexBuilder.makeBetween(ref("d"), dbl(-10), dbl(10)));
    l.add(call(SqlStdOperatorTable.OR, call(SqlStdOperatorTable.EQUALS, ref("i"), lit(1)),
        call(SqlStdOperatorTable.EQUALS, ref("i"), lit(2)), call(SqlStdOperatorTable.EQUALS, ref("i"),
            rexBuilder.makeNullLiteral(t(SqlTypeName.INTEGER)))));
    l.add(call(SqlStdOperatorTable.AND, call(SqlStdOperatorTable.NOT_EQUALS, ref("i"), lit(1)),
        call(SqlStdOperatorTable.NOT_EQUALS, ref("i"), lit(2)), call(SqlStdOperatorTable.NOT_EQUALS, ref("i"), lit(3))));
    l.add(call(SqlStdOperatorTable.OR, call(SqlStdOperatorTable.IS_NULL, ref("i")),
        rexBuilder.makeIn(ref("i"), List.of(lit(1), lit(5)))));
    return l;
  }

  List<RexNode> like() {
    List<RexNode> l = new ArrayList<>();
    String[] patterns = {"a%", "%a", "%a%", "a", "", "%", "%%", "_", "__", "a_b", "%a%b%", "a%b", "é%", "%中_",
        "_%_", "%😀%", "%\\%", "%_a", "A%c"};
    for (String p : patterns) {
      l.add(call(SqlStdOperatorTable.LIKE, ref("s"), str(p)));
      // Calcite implements NOT LIKE as NOT(LIKE) (its executor refuses the NOT LIKE operator)
      l.add(call(SqlStdOperatorTable.NOT, call(SqlStdOperatorTable.LIKE, ref("s"), str(p))));
    }
    l.add(call(SqlStdOperatorTable.LIKE, ref("s"), str("%!%%"), str("!")));
    l.add(call(SqlStdOperatorTable.LIKE, ref("s"), str("!_%"), str("!")));
    l.add(call(SqlStdOperatorTable.LIKE, ref("s"), str("%\\_%"), str("\\")));
    l.add(call(SqlStdOperatorTable.LIKE, ref("s"), str("a!!%"), str("!")));
    l.add(call(SqlStdOperatorTable.LIKE, ref("ch"), str("a%")));
    l.add(call(SqlStdOperatorTable.LIKE, ref("ch"), str("%  ")));
    return l;
  }

  List<RexNode> strings() {
    List<RexNode> l = new ArrayList<>();
    for (String c : new String[] {"s", "ch"}) {
      l.add(call(SqlStdOperatorTable.CHAR_LENGTH, ref(c)));
      l.add(call(SqlStdOperatorTable.CHARACTER_LENGTH, ref(c)));
      l.add(call(SqlStdOperatorTable.LOWER, ref(c)));
      l.add(call(SqlStdOperatorTable.UPPER, ref(c)));
      l.add(call(SqlStdOperatorTable.SUBSTRING, ref(c), lit(2)));
      l.add(call(SqlStdOperatorTable.SUBSTRING, ref(c), lit(2), lit(3)));
      l.add(call(SqlStdOperatorTable.SUBSTRING, ref(c), lit(-1), lit(3)));
      l.add(call(SqlStdOperatorTable.SUBSTRING, ref(c), lit(0)));
      l.add(call(SqlStdOperatorTable.SUBSTRING, ref(c), ref("small")));
      l.add(call(SqlStdOperatorTable.SUBSTRING, ref(c), ref("small"), ref("small")));
    }
    l.add(call(SqlStdOperatorTable.CONCAT, ref("s"), ref("s2")));
    l.add(call(SqlStdOperatorTable.CONCAT, ref("s"), str("-x")));
    l.add(call(SqlStdOperatorTable.CONCAT, ref("ch"), ref("s")));
    l.add(call(SqlStdOperatorTable.EQUALS, call(SqlStdOperatorTable.LOWER, ref("s")), str("ab")));
    return l;
  }

  List<RexNode> dateTime() {
    List<RexNode> l = new ArrayList<>();
    TimeUnitRange[] dateUnits = {TimeUnitRange.YEAR, TimeUnitRange.QUARTER, TimeUnitRange.MONTH, TimeUnitRange.WEEK,
        TimeUnitRange.DAY, TimeUnitRange.DOW, TimeUnitRange.DOY, TimeUnitRange.ISODOW, TimeUnitRange.EPOCH};
    for (TimeUnitRange u : dateUnits) {
      l.add(call(SqlStdOperatorTable.EXTRACT, rexBuilder.makeFlag(u), ref("dt")));
      l.add(call(SqlStdOperatorTable.EXTRACT, rexBuilder.makeFlag(u), ref("ts")));
    }
    for (TimeUnitRange u : new TimeUnitRange[] {TimeUnitRange.HOUR, TimeUnitRange.MINUTE, TimeUnitRange.SECOND,
        TimeUnitRange.MILLISECOND}) {
      l.add(call(SqlStdOperatorTable.EXTRACT, rexBuilder.makeFlag(u), ref("ts")));
    }
    l.add(call(SqlStdOperatorTable.DATETIME_PLUS, ref("dt"), interval(3 * 86_400_000L, TimeUnit.DAY)));
    l.add(call(SqlStdOperatorTable.DATETIME_PLUS, ref("ts"), interval(5 * 3_600_000L, TimeUnit.HOUR)));
    l.add(call(SqlStdOperatorTable.DATETIME_PLUS, ref("dt"), interval(2, TimeUnit.MONTH)));
    l.add(call(SqlStdOperatorTable.DATETIME_PLUS, ref("ts"), interval(-13, TimeUnit.MONTH)));
    l.add(call(SqlStdOperatorTable.DATETIME_PLUS, ref("ts"), interval(24, TimeUnit.YEAR)));
    // the validator's datetime - interval (a plain MINUS would be raw integer arithmetic in Calcite)
    l.add(minusDate(ref("ts"), interval(90 * 60_000L, TimeUnit.MINUTE)));
    l.add(minusDate(ref("dt"), interval(12, TimeUnit.YEAR)));
    l.add(minusDate(ref("dt"), interval(7 * 86_400_000L, TimeUnit.DAY)));
    return l;
  }

  /** datetime - interval, typed as the datetime (as the validator builds it). */
  RexNode minusDate(RexNode datetime, RexNode interval) {
    return rexBuilder.makeCall(datetime.getType(), SqlStdOperatorTable.MINUS_DATE, List.of(datetime, interval));
  }

  List<RexNode> unsupported() {
    List<RexNode> l = new ArrayList<>();
    l.add(call(SqlStdOperatorTable.DIVIDE, ref("dec"), ref("dec2")));
    l.add(call(SqlLibraryOperators.ILIKE, ref("s"), str("a%")));
    l.add(call(SqlStdOperatorTable.MINUS, ref("dt"), interval(12, TimeUnit.YEAR)));
    l.add(cast(t(SqlTypeName.DATE), ref("s")));
    l.add(cast(t(SqlTypeName.TIMESTAMP, 3), ref("s")));
    l.add(cast(t(SqlTypeName.TIMESTAMP, 0), ref("ts")));
    l.add(rexBuilder.makeCall(tf.createSqlIntervalType(new SqlIntervalQualifier(TimeUnit.DAY, null,
        SqlParserPos.ZERO)), SqlStdOperatorTable.MINUS_DATE, List.of(ref("ts"), ref("ts"))));
    l.add(call(SqlStdOperatorTable.LIKE, ref("s"), ref("s2")));
    l.add(call(SqlStdOperatorTable.LIKE, ref("s"), str("a!x"), str("!")));
    l.add(call(SqlStdOperatorTable.DATETIME_PLUS, ref("dt"), interval(5 * 3_600_000L, TimeUnit.HOUR)));
    return l;
  }

  List<RexNode> constantCalls() {
    List<RexNode> l = new ArrayList<>();
    l.add(call(SqlStdOperatorTable.PLUS, lit(2), lit(3)));
    l.add(call(SqlStdOperatorTable.MULTIPLY, lit(Integer.MAX_VALUE), lit(2)));
    l.add(cast(t(SqlTypeName.VARCHAR, 10), dbl(2.5)));
    l.add(call(SqlStdOperatorTable.UPPER, str("abc")));
    l.add(call(SqlStdOperatorTable.EXTRACT, rexBuilder.makeFlag(TimeUnitRange.YEAR),
        rexBuilder.makeDateLiteral(new DateString("2024-02-29"))));
    l.add(call(SqlStdOperatorTable.DATETIME_PLUS, rexBuilder.makeDateLiteral(new DateString("2024-01-31")),
        interval(1, TimeUnit.MONTH)));
    return l;
  }

  RexNode divideByZeroConstant() {
    return call(SqlStdOperatorTable.DIVIDE, lit(1), lit(0));
  }
}
