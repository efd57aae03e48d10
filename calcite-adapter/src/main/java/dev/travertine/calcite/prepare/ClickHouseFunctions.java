package dev.travertine.calcite.prepare;

import dev.travertine.calcite.schema.TravertineSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * ClickHouse's functions, written as the standard SQL that computes them, before validation:
 * {@code count()} is {@code COUNT(*)}, {@code countIf(c)} {@code COUNT(*) FILTER (WHERE c)} (any
 * aggregate with the {@code -If} combinator), {@code uniq(x)} {@code COUNT(DISTINCT x)},
 * {@code toYYYYMM(d)} {@code EXTRACT(YEAR FROM d) * 100 + EXTRACT(MONTH FROM d)}, {@code if}
 * and {@code multiIf} CASE, and so on ({@link #TEMPLATES}). The engine then runs them with the
 * kernels it has, vectorized where those are. {@code any}, {@code quantile(level)(x)} are
 * made parseable first by {@link #prepareText}, which also quotes a bare {@code value}. Functions that need arrays fail with a clear
 * message.
 */
final class ClickHouseFunctions {
  private ClickHouseFunctions() {}

  /** name (lower case) → template by argument count ("*" any count); {@code __i} is argument i. */
  private static final Map<String, Map<String, String>> TEMPLATES = Map.ofEntries(
      Map.entry("count", Map.of("0", "COUNT(*)")),
      Map.entry("uniq", Map.of("*", "COUNT(DISTINCT __ARGS)")),
      Map.entry("uniqexact", Map.of("*", "COUNT(DISTINCT __ARGS)")),
      Map.entry("uniqcombined", Map.of("*", "COUNT(DISTINCT __ARGS)")),
      Map.entry("uniqhll12", Map.of("*", "COUNT(DISTINCT __ARGS)")),
      Map.entry("any", Map.of("1", "MIN(__0)")),
      Map.entry("anylast", Map.of("1", "MAX(__0)")),
      Map.entry("argmin", Map.of("2", "ARG_MIN(__0, __1)")),
      Map.entry("argmax", Map.of("2", "ARG_MAX(__0, __1)")),
      Map.entry("median", Map.of("1", "tv_quantile(CAST(__0 AS DOUBLE), 0.5E0)")),
      Map.entry("medianexact", Map.of("1", "tv_quantile_exact(CAST(__0 AS DOUBLE), 0.5E0)")),
      Map.entry("quantile", Map.of("2", "tv_quantile(CAST(__1 AS DOUBLE), CAST(__0 AS DOUBLE))")),
      Map.entry("quantileexact", Map.of("2", "tv_quantile_exact(CAST(__1 AS DOUBLE), CAST(__0 AS DOUBLE))")),
      Map.entry("now", Map.of("0", "CURRENT_TIMESTAMP")),
      Map.entry("today", Map.of("0", "CURRENT_DATE")),
      Map.entry("yesterday", Map.of("0", "CURRENT_DATE - INTERVAL '1' DAY")),
      Map.entry("todate", Map.of("1", "CAST(__0 AS DATE)")),
      Map.entry("todatetime", Map.of("1", "CAST(__0 AS TIMESTAMP)")),
      Map.entry("tostring", Map.of("1", "CAST(__0 AS VARCHAR)")),
      Map.entry("toint8", Map.of("1", "CAST(__0 AS TINYINT)")),
      Map.entry("toint16", Map.of("1", "CAST(__0 AS SMALLINT)")),
      Map.entry("toint32", Map.of("1", "CAST(__0 AS INTEGER)")),
      Map.entry("toint64", Map.of("1", "CAST(__0 AS BIGINT)")),
      Map.entry("tofloat32", Map.of("1", "CAST(__0 AS REAL)")),
      Map.entry("tofloat64", Map.of("1", "CAST(__0 AS DOUBLE)")),
      Map.entry("toyyyymm", Map.of("1", "CAST(EXTRACT(YEAR FROM __0) * 100 + EXTRACT(MONTH FROM __0) AS INTEGER)")),
      Map.entry("toyyyymmdd", Map.of("1", "CAST(EXTRACT(YEAR FROM __0) * 10000 + EXTRACT(MONTH FROM __0) * 100"
          + " + EXTRACT(DAY FROM __0) AS INTEGER)")),
      Map.entry("toyear", Map.of("1", "CAST(EXTRACT(YEAR FROM __0) AS INTEGER)")),
      Map.entry("toquarter", Map.of("1", "CAST(EXTRACT(QUARTER FROM __0) AS INTEGER)")),
      Map.entry("tomonth", Map.of("1", "CAST(EXTRACT(MONTH FROM __0) AS INTEGER)")),
      Map.entry("todayofmonth", Map.of("1", "CAST(EXTRACT(DAY FROM __0) AS INTEGER)")),
      Map.entry("todayofyear", Map.of("1", "CAST(EXTRACT(DOY FROM __0) AS INTEGER)")),
      Map.entry("todayofweek", Map.of("1", "CAST(EXTRACT(ISODOW FROM __0) AS INTEGER)")),
      Map.entry("tohour", Map.of("1", "CAST(EXTRACT(HOUR FROM __0) AS INTEGER)")),
      Map.entry("tominute", Map.of("1", "CAST(EXTRACT(MINUTE FROM __0) AS INTEGER)")),
      Map.entry("tosecond", Map.of("1", "CAST(EXTRACT(SECOND FROM __0) AS INTEGER)")),
      Map.entry("tostartofyear", Map.of("1", "CAST(FLOOR(__0 TO YEAR) AS DATE)")),
      Map.entry("tostartofquarter", Map.of("1", "CAST(FLOOR(__0 TO QUARTER) AS DATE)")),
      Map.entry("tostartofmonth", Map.of("1", "CAST(FLOOR(__0 TO MONTH) AS DATE)")),
      Map.entry("tostartofweek", Map.of("1", "CAST(FLOOR(__0 TO WEEK) AS DATE)")),
      Map.entry("tomonday", Map.of("1", "CAST(FLOOR(CAST(__0 AS DATE) - INTERVAL '1' DAY TO WEEK) AS DATE)"
          + " + INTERVAL '1' DAY")),
      Map.entry("tostartofday", Map.of("1", "FLOOR(CAST(__0 AS TIMESTAMP) TO DAY)")),
      Map.entry("tostartofhour", Map.of("1", "FLOOR(CAST(__0 AS TIMESTAMP) TO HOUR)")),
      Map.entry("tostartofminute", Map.of("1", "FLOOR(CAST(__0 AS TIMESTAMP) TO MINUTE)")),
      Map.entry("if", Map.of("3", "CASE WHEN __0 THEN __1 ELSE __2 END")),
      Map.entry("currentdatabase", Map.of("0", "'" + TravertineSchema.NAME + "'")),
      Map.entry("database", Map.of("0", "'" + TravertineSchema.NAME + "'")),
      Map.entry("version", Map.of("0", "'" + dev.travertine.jdbc.Version.get() + "'")));

  /** Aggregates the {@code -If} combinator applies to (sumIf, countIf, uniqIf, ...). */
  private static final List<String> IF_COMBINABLE = List.of("count", "sum", "avg", "min", "max", "uniq",
      "uniqexact", "any", "anylast", "argmin", "argmax", "median", "quantile");

  /** Functions that need arrays, which Travertine does not have. */
  private static final List<String> ARRAY_FUNCTIONS = List.of("grouparray", "groupuniqarray", "arrayjoin",
      "quantiles", "topk", "grouparraysorted");

  // ---------------------------------------------------------------- text

  /** {@code quantile(level)(x)} (ClickHouse's parametric call) → {@code quantile(level, x)}. */
  private static final Pattern PARAMETRIC = Pattern.compile(
      "(?i)\\b(quantile\\w*|median\\w*)\\s*\\(([^()]*)\\)\\s*\\(");
  /** {@code any(} where it starts a call rather than follows a comparison ({@code = ANY (…)}). */
  private static final Pattern ANY = Pattern.compile("(?i)(?<![=<>!]\\s{0,8})\\bany\\s*\\(");

  /**
   * Makes ClickHouse's calls that Calcite's grammar cannot parse parseable, outside string
   * literals, quoted names and comments: {@code quantile(0.5)(x)} becomes
   * {@code quantile(0.5, x)}, {@code any(x)} (ANY is a reserved word) {@code "any"(x)}, and a
   * bare {@code value} (a system table's column; VALUE is reserved too) {@code "value"}.
   */
  static String prepareText(String sql) {
    String lower = sql.toLowerCase(Locale.ROOT);
    if (!lower.contains("any") && !lower.contains("quantile") && !lower.contains("median")
        && !lower.contains("value")) {
      return sql;
    }
    StringBuilder out = new StringBuilder(sql.length() + 8);
    int i = 0;
    int n = sql.length();
    int codeStart = 0;
    boolean afterQuote = false;
    while (i < n) {
      char c = sql.charAt(i);
      int skipTo = SqlText.skipQuotedOrComment(sql, i);
      if (skipTo >= 0) {
        out.append(rewriteCode(sql.substring(codeStart, i), afterQuote)).append(sql, i, skipTo);
        afterQuote = c != '-' && c != '/';
        i = skipTo;
        codeStart = i;
      } else {
        i++;
      }
    }
    out.append(rewriteCode(sql.substring(codeStart), afterQuote));
    return out.toString();
  }

  /** @param afterQuote whether the code follows a string literal or quoted name (not a comment) */
  private static String rewriteCode(String code, boolean afterQuote) {
    Matcher m = PARAMETRIC.matcher(code);
    code = m.replaceAll(r -> Matcher.quoteReplacement(r.group(1) + "(" + r.group(2) + ", "));
    code = ANY.matcher(code).replaceAll("\"any\"(");
    String c = code;
    return VALUE.matcher(code).replaceAll(r -> namePosition(c.substring(0, r.start()), afterQuote)
        ? "\"value\"" : Matcher.quoteReplacement(r.group()));
  }

  /**
   * A bare {@code value} (system.events', system.metrics', system.settings' column), which
   * Calcite reserves for the row constructor {@code VALUE (…)} and JSON's {@code KEY … VALUE …}.
   */
  private static final Pattern VALUE = Pattern.compile("(?i)(?<![\\w\"$])value(?![\\w\"$])(?!\\s*\\()");
  /** Words after which an expression (so a column name) comes. */
  private static final java.util.Set<String> BEFORE_EXPRESSION = java.util.Set.of("select", "where", "and", "or",
      "by", "on", "not", "when", "then", "else", "having", "is", "in", "between", "distinct", "case", "like");

  /**
   * Whether what comes before a {@code value} puts it where a column name goes: after a comma, an
   * opening parenthesis, an operator, a dot, or a word such as SELECT, WHERE, AND or BY; not after a
   * literal or a name ({@code JSON_OBJECT('a' VALUE x)}, {@code JSON_OBJECTAGG(k VALUE v)}).
   */
  private static boolean namePosition(String before, boolean afterQuote) {
    String b = before.stripTrailing();
    if (b.isEmpty()) {
      return !afterQuote;
    }
    char last = b.charAt(b.length() - 1);
    if (",(=<>!+-*/.%|".indexOf(last) >= 0) {
      return true;
    }
    int w = b.length();
    while (w > 0 && Character.isLetter(b.charAt(w - 1))) {
      w--;
    }
    return BEFORE_EXPRESSION.contains(b.substring(w).toLowerCase(Locale.ROOT));
  }

  // ---------------------------------------------------------------- nodes

  /** Rewrites the ClickHouse calls of a parsed statement in place. */
  static void rewrite(SqlNode node) {
    if (node instanceof SqlCall call) {
      List<SqlNode> operands = call.getOperandList();
      for (int i = 0; i < operands.size(); i++) {
        SqlNode o = operands.get(i);
        if (o == null) {
          continue;
        }
        rewrite(o);
        SqlNode r = replacement(o);
        if (r != o) {
          call.setOperand(i, r);
        }
      }
    } else if (node instanceof SqlNodeList list) {
      for (int i = 0; i < list.size(); i++) {
        SqlNode o = list.get(i);
        if (o == null) {
          continue;
        }
        rewrite(o);
        SqlNode r = replacement(o);
        if (r != o) {
          list.set(i, r);
        }
      }
    }
  }

  /** The standard SQL for a ClickHouse call (its operands already rewritten), or the node itself. */
  private static SqlNode replacement(SqlNode node) {
    if (!(node instanceof SqlCall call) || !(call.getOperator() instanceof SqlFunction f)
        || call.getFunctionQuantifier() != null) {
      return node;
    }
    String name = f.getName().toLowerCase(Locale.ROOT);
    List<SqlNode> args = call.getOperandList();
    SqlParserPos pos = call.getParserPosition();
    if (ARRAY_FUNCTIONS.contains(name)) {
      throw error(pos, f.getName() + "() needs arrays, which Travertine does not have"
          + (name.equals("quantiles") ? "; use quantile(level)(x) once per level" : ""));
    }
    SqlNode plain = template(name, args, pos);
    if (plain != null) {
      return plain;
    }
    if (name.endsWith("if") && name.length() > 2 && IF_COMBINABLE.contains(name.substring(0, name.length() - 2))
        && !args.isEmpty()) {
      String base = name.substring(0, name.length() - 2);
      List<SqlNode> baseArgs = args.subList(0, args.size() - 1);
      SqlNode agg = template(base, baseArgs, pos);
      if (agg == null) {
        agg = switch (base) {
          case "sum" -> SqlStdOperatorTable.SUM.createCall(pos, baseArgs);
          case "avg" -> SqlStdOperatorTable.AVG.createCall(pos, baseArgs);
          case "min" -> SqlStdOperatorTable.MIN.createCall(pos, baseArgs);
          case "max" -> SqlStdOperatorTable.MAX.createCall(pos, baseArgs);
          case "count" -> SqlStdOperatorTable.COUNT.createCall(pos, baseArgs);
          default -> null;
        };
      }
      if (agg != null) {
        return SqlStdOperatorTable.FILTER.createCall(pos, agg, args.get(args.size() - 1));
      }
    }
    if (name.equals("multiif") && args.size() >= 3 && args.size() % 2 == 1) {
      StringBuilder t = new StringBuilder("CASE");
      for (int i = 0; i + 1 < args.size(); i += 2) {
        t.append(" WHEN __").append(i).append(" THEN __").append(i + 1);
      }
      t.append(" ELSE __").append(args.size() - 1).append(" END");
      return instantiate(t.toString(), args, pos);
    }
    return node;
  }

  private static SqlNode template(String name, List<SqlNode> args, SqlParserPos pos) {
    Map<String, String> byArity = TEMPLATES.get(name);
    if (byArity == null) {
      return null;
    }
    String t = byArity.get(String.valueOf(args.size()));
    if (t == null && !args.isEmpty()) {
      t = byArity.get("*");
      if (t != null) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
          names.add("__" + i);
        }
        t = t.replace("__ARGS", String.join(", ", names));
      }
    }
    return t == null ? null : instantiate(t, args, pos);
  }

  /** Parses a template and puts a copy of argument i where {@code __i} stands. */
  private static SqlNode instantiate(String template, List<SqlNode> args, SqlParserPos pos) {
    SqlNode parsed;
    try {
      parsed = SqlParser.create(template, SqlParser.config()
          .withParserFactory(ParserFactory.FACTORY)
          .withUnquotedCasing(Casing.UNCHANGED)
          .withCaseSensitive(false)).parseExpression();
    } catch (SqlParseException e) {
      throw new IllegalStateException("internal: cannot parse " + template, e);
    }
    return parsed.accept(new SqlShuttle() {
      @Override public SqlNode visit(SqlIdentifier id) {
        if (id.isSimple() && id.getSimple().startsWith("__")) {
          return copy(args.get(Integer.parseInt(id.getSimple().substring(2))));
        }
        return id.clone(pos);
      }

      @Override public SqlNode visit(SqlLiteral literal) {
        return literal.clone(pos);
      }
    });
  }

  /** A deep copy (an argument used twice must not be one node in two places for the validator). */
  private static SqlNode copy(SqlNode node) {
    return node.accept(new SqlShuttle() {
      @Override public SqlNode visit(SqlIdentifier id) {
        return id.clone(id.getParserPosition());
      }

      @Override public SqlNode visit(SqlLiteral literal) {
        return literal.clone(literal.getParserPosition());
      }

      @Override public SqlNode visit(SqlCall call) {
        if (call.getKind() == SqlKind.SELECT || call.getKind() == SqlKind.UNION) {
          return call; // a sub-query is parsed once; used twice only in ways the validator scopes
        }
        SqlNode copied = super.visit(call);
        return copied == call ? call.getOperator().createCall(call.getFunctionQuantifier(),
            call.getParserPosition(), call.getOperandList().toArray(new SqlNode[0])) : copied;
      }
    });
  }

  private static CalciteContextException error(SqlParserPos pos, String message) {
    // As Calcite's own: the position in the message, the words in the cause.
    return new CalciteContextException("From line " + pos.getLineNum() + ", column " + pos.getColumnNum()
        + " to line " + pos.getEndLineNum() + ", column " + pos.getEndColumnNum(),
        new UnsupportedOperationException(message),
        pos.getLineNum(), pos.getColumnNum(), pos.getEndLineNum(), pos.getEndColumnNum());
  }
}
