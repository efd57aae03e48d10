package dev.travertine.calcite.prepare;

import java.util.List;
import java.util.function.BiConsumer;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.util.Util;

/**
 * Rewrites a parsed statement in place before validation, bottom-up:
 * <ul>
 *   <li>unary plus goes: {@code +x} is x, of whatever type (SQLite keeps {@code +'abc'} a
 *       string; Calcite would cast the operand to a number and fail at run time on text);</li>
 *   <li>arithmetic of a typed NULL and constants ({@code CAST(NULL AS INTEGER) / 6}) becomes that
 *       typed NULL: arithmetic is strict, so the value is the same, and Calcite 1.41 fails on
 *       such constant expressions when it derives a projection's collation ("not a literal:
 *       /(null, 6)", SqlMonotonicBinaryOperator);</li>
 *   <li>in HAVING, a column inside an aggregate that several select aliases also name is
 *       qualified with the FROM item ({@link #qualifyAggregateArguments});</li>
 *   <li>{@code x IS [NOT] TRUE|FALSE} over a sub-query becomes a COALESCE
 *       ({@link #truthTestOfSubQuery}).</li>
 * </ul>
 * The sqllogictest corpus's random/ files write both hundreds of times.
 */
final class PreValidation extends SqlBasicVisitor<Void> {
  private static final PreValidation INSTANCE = new PreValidation();


  static void rewrite(SqlNode node) {
    if (node != null) {
      node.accept(INSTANCE);
    }
  }

  private static SqlNode simplified(SqlNode n) {
    n = truthTestOfSubQuery(n);
    while (true) {
      if (n instanceof SqlCall c && c.getKind() == SqlKind.PLUS_PREFIX && c.operandCount() == 1) {
        n = c.operand(0);
        continue;
      }
      if (n instanceof SqlCall c && NullArithmetic.isArithmetic(c.getKind())) {
        SqlNode typedNull = null;
        boolean othersConstant = true;
        for (SqlNode o : c.getOperandList()) {
          if (typedNull == null && isTypedNull(o)) {
            typedNull = o;
          } else if (!isConstant(o)) {
            othersConstant = false;
          }
        }
        // Only constant company is dropped: an aggregate, a column or a subquery beside the
        // NULL still decides the query's shape and validity (COUNT(*) + NULL is one row).
        if (typedNull != null && othersConstant) {
          n = typedNull.clone(typedNull.getParserPosition());
          continue;
        }
      }
      return n;
    }
  }

  /**
   * {@code x IS [NOT] TRUE|FALSE} where x holds a sub-query becomes {@code COALESCE(x, …)}: Calcite
   * 1.41's simplifier takes {@code (k IN (SELECT …)) IS NOT FALSE} for the bare IN (and IS NOT TRUE
   * for IS FALSE), losing the rows where the IN is NULL, in a WHERE and in a select list alike
   * (found by the fuzzer's TLP oracle). COALESCE keeps the three-valued logic through sub-query
   * removal.
   */
  private static SqlNode truthTestOfSubQuery(SqlNode n) {
    if (!(n instanceof SqlCall c) || c.operandCount() != 1 || !containsQuery(c.operand(0))) {
      return n;
    }
    var pos = c.getParserPosition();
    SqlNode x = c.operand(0);
    return switch (c.getKind()) {
      case IS_TRUE -> coalesce(x, false, pos);
      case IS_NOT_FALSE -> coalesce(x, true, pos);
      case IS_FALSE -> coalesce(org.apache.calcite.sql.fun.SqlStdOperatorTable.NOT.createCall(pos, x), false, pos);
      case IS_NOT_TRUE -> coalesce(org.apache.calcite.sql.fun.SqlStdOperatorTable.NOT.createCall(pos, x), true, pos);
      default -> n;
    };
  }

  private static SqlNode coalesce(SqlNode x, boolean otherwise, org.apache.calcite.sql.parser.SqlParserPos pos) {
    return org.apache.calcite.sql.fun.SqlStdOperatorTable.COALESCE.createCall(pos, x,
        SqlLiteral.createBoolean(otherwise, pos));
  }

  /** Whether a sub-query (a SELECT, or a set operation of them) sits anywhere inside. */
  private static boolean containsQuery(SqlNode n) {
    if (n == null) {
      return false;
    }
    if (n.getKind().belongsTo(SqlKind.QUERY)) {
      return true;
    }
    if (n instanceof SqlNodeList l) {
      return l.stream().anyMatch(PreValidation::containsQuery);
    }
    return n instanceof SqlCall c && c.getOperandList().stream().anyMatch(PreValidation::containsQuery);
  }

  /** Literals and arithmetic, CAST and CASE of literals (no columns, functions or subqueries). */
  private static boolean isConstant(SqlNode n) {
    if (n == null || n instanceof SqlLiteral || n instanceof org.apache.calcite.sql.SqlDataTypeSpec
        || n instanceof org.apache.calcite.sql.SqlIntervalQualifier) {
      return true;
    }
    if (n instanceof SqlNodeList l) {
      return l.stream().allMatch(PreValidation::isConstant);
    }
    if (n instanceof SqlCall c) {
      // Functions are not resolved yet (MIN(…) may be an aggregate): only operators count.
      SqlKind k = c.getKind();
      return (NullArithmetic.isArithmetic(k) || k == SqlKind.CAST || k == SqlKind.CASE)
          && c.getOperandList().stream().allMatch(PreValidation::isConstant);
    }
    return false; // identifiers, dynamic parameters
  }

  /** CAST(NULL AS type). */
  private static boolean isTypedNull(SqlNode n) {
    return n instanceof SqlCall c && c.getKind() == SqlKind.CAST && c.operandCount() == 2
        && c.operand(0) instanceof SqlLiteral l && l.getValue() == null && l.getTypeName().getName().equals("NULL");
  }

  @Override public Void visit(SqlCall call) {
    if (call instanceof SqlSelect select) {
      qualifyAggregateArguments(select);
    }
    rewriteChildren(call.getOperandList(), (i, u) -> {
      try {
        call.setOperand(i, u);
      } catch (UnsupportedOperationException e) {
        // a call that cannot change keeps the operand as written
      }
    });
    return null;
  }

  @Override public Void visit(SqlNodeList list) {
    rewriteChildren(list, list::set);
    return null;
  }

  /** By name: functions are not resolved yet (the parse tree's SUM is not an aggregate operator). */
  private static final java.util.Set<String> AGGREGATES = java.util.Set.of("COUNT", "SUM", "AVG", "MIN", "MAX");

  /**
   * In HAVING, a column named inside an aggregate is the FROM item's column, also when several
   * select items carry that name as alias ({@code SELECT -col0 AS col2, 22 * col0 AS col2 … HAVING
   * SUM(col2) > 0}). Calcite, which lets HAVING use select aliases, resolves such a name to the
   * input column when one alias matches and fails with "Column 'col2' is ambiguous" when several
   * do (random/groupby in the corpus). With one FROM item, the name is qualified with it.
   */
  private static void qualifyAggregateArguments(SqlSelect select) {
    SqlNode having = select.getHaving();
    SqlNode from = select.getFrom();
    String qualifier = from instanceof SqlIdentifier t ? Util.last(t.names)
        : from instanceof SqlCall as && as.getKind() == SqlKind.AS && as.operand(0) instanceof SqlIdentifier
            && as.operand(1) instanceof SqlIdentifier a ? a.getSimple() : null;
    if (having == null || qualifier == null) {
      return;
    }
    having.accept(new SqlBasicVisitor<Void>() {
      private int aggregates;

      @Override public Void visit(SqlCall call) {
        if (call instanceof SqlSelect) {
          return null; // a sub-query resolves its own names
        }
        boolean aggregate = AGGREGATES.contains(call.getOperator().getName().toUpperCase(java.util.Locale.ROOT));
        aggregates += aggregate ? 1 : 0;
        try {
          List<SqlNode> operands = call.getOperandList();
          for (int i = 0; i < operands.size(); i++) {
            if (aggregates > 0 && operands.get(i) instanceof SqlIdentifier id && id.isSimple()
                && aliasCount(select, id.getSimple()) > 1) {
              try {
                call.setOperand(i, new SqlIdentifier(List.of(qualifier, id.getSimple()), id.getParserPosition()));
              } catch (UnsupportedOperationException e) {
                // a call that cannot change keeps the name as written
              }
            } else if (operands.get(i) != null) {
              operands.get(i).accept(this);
            }
          }
        } finally {
          aggregates -= aggregate ? 1 : 0;
        }
        return null;
      }
    });
  }

  private static int aliasCount(SqlSelect select, String name) {
    int n = 0;
    for (SqlNode item : select.getSelectList()) {
      String alias = SqlValidatorUtil.alias(item);
      if (alias != null && alias.equalsIgnoreCase(name)) {
        n++;
      }
    }
    return n;
  }

  /** Rewrites each child's own children, then replaces the child when it simplifies. */
  private void rewriteChildren(List<SqlNode> children, BiConsumer<Integer, SqlNode> replace) {
    for (int i = 0; i < children.size(); i++) {
      SqlNode o = children.get(i);
      if (o == null) {
        continue;
      }
      o.accept(this);
      SqlNode u = simplified(o);
      if (u != o) {
        replace.accept(i, u);
      }
    }
  }
}
