package dev.travertine.calcite.dml;

import dev.travertine.calcite.ddl.SqlAlterTableMutation;
import dev.travertine.calcite.prepare.ParserFactory;
import dev.travertine.calcite.schema.TravertineSchema;
import dev.travertine.calcite.schema.TravertineSession;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.mutation.MutationCommand;
import dev.travertine.mergetree.settings.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.TimestampString;

/**
 * SQL {@code UPDATE}/{@code DELETE} and ClickHouse's {@code ALTER TABLE … UPDATE/DELETE}: all
 * become one engine mutation ({@link MergeTreeTable#mutate}) without Calcite's planner. The
 * expressions are stored as SQL text (table qualifiers removed, {@code ?} parameters replaced by
 * their values at execution) and compiled by {@link SqlMutationCompiler}.
 */
public final class MutationStatement {
  private final String table;
  private final boolean delete;
  private final List<String> targets;
  private final List<SqlNode> values;
  private final SqlNode where;
  private final int paramCount;

  private MutationStatement(String table, boolean delete, List<String> targets, List<SqlNode> values,
      SqlNode where, int paramCount) {
    this.table = table;
    this.delete = delete;
    this.targets = targets;
    this.values = values;
    this.where = where;
    this.paramCount = paramCount;
  }

  /** A mutation statement, or null when {@code sql} is something else (or does not parse). */
  public static MutationStatement tryPrepare(String sql, SqlParser.Config config) {
    String head = sql.stripLeading();
    if (!(head.regionMatches(true, 0, "delete", 0, 6) || head.regionMatches(true, 0, "update", 0, 6)
        || head.regionMatches(true, 0, "alter", 0, 5))) {
      return null;
    }
    SqlNode node = ParserFactory.parseOrNull(sql, config);
    return node == null ? null : from(node);
  }

  /** The mutation a parsed statement asks for, or null when it is something else. */
  public static MutationStatement from(SqlNode node) {
    if (node instanceof SqlDelete d) {
      String t = tableName(d.getTargetTable());
      String alias = d.getAlias() == null ? null : d.getAlias().getSimple();
      return of(t, true, List.of(), List.of(), unqualify(d.getCondition(), t, alias));
    }
    if (node instanceof SqlUpdate u) {
      String t = tableName(u.getTargetTable());
      String alias = u.getAlias() == null ? null : u.getAlias().getSimple();
      return of(t, false, names(u.getTargetColumnList()), unqualify(u.getSourceExpressionList(), t, alias),
          unqualify(u.getCondition(), t, alias));
    }
    if (node instanceof SqlAlterTableMutation m) {
      String t = tableName(m.table);
      return of(t, m.delete, names(m.targetColumns), unqualify(m.sourceExpressions, t, null),
          unqualify(m.condition, t, null));
    }
    return null;
  }

  private static MutationStatement of(String table, boolean delete, List<String> targets, List<SqlNode> values,
      SqlNode where) {
    int[] params = new int[1];
    SqlShuttle counter = new SqlShuttle() {
      @Override public SqlNode visit(SqlDynamicParam param) {
        params[0] = Math.max(params[0], param.getIndex() + 1);
        return param;
      }
    };
    values.forEach(v -> v.accept(counter));
    if (where != null) {
      where.accept(counter);
    }
    return new MutationStatement(table, delete, targets, values, where, params[0]);
  }

  private static String tableName(SqlNode target) {
    if (!(target instanceof SqlIdentifier id) || id.names.size() > 2
        || (id.names.size() == 2 && !id.names.get(0).equalsIgnoreCase(TravertineSchema.NAME))) {
      throw new IllegalArgumentException("Unknown table " + target + " (tables live in schema "
          + TravertineSchema.NAME + ")");
    }
    return id.names.get(id.names.size() - 1);
  }

  private static List<String> names(SqlNodeList list) {
    return list == null ? List.of() : list.stream().map(n -> ((SqlIdentifier) n).names.get(
        ((SqlIdentifier) n).names.size() - 1)).toList();
  }

  private static List<SqlNode> unqualify(SqlNodeList list, String table, String alias) {
    return list == null ? List.of() : list.stream().map(n -> unqualify(n, table, alias)).toList();
  }

  /** {@code t.col} and {@code alias.col} become {@code col}: the compiler sees only the table's columns. */
  private static SqlNode unqualify(SqlNode node, String table, String alias) {
    if (node == null) {
      return null;
    }
    return node.accept(new SqlShuttle() {
      @Override public SqlNode visit(SqlIdentifier id) {
        if (id.names.size() >= 2) {
          String q = id.names.get(id.names.size() - 2);
          if (q.equalsIgnoreCase(table) || (alias != null && q.equalsIgnoreCase(alias))) {
            return new SqlIdentifier(id.names.get(id.names.size() - 1), id.getParserPosition());
          }
        }
        return id;
      }
    });
  }

  int paramCount() {
    return paramCount;
  }

  List<AvaticaParameter> parameters() {
    List<AvaticaParameter> out = new java.util.ArrayList<>();
    for (int i = 0; i < paramCount; i++) {
      out.add(new AvaticaParameter(false, 0, 0, java.sql.Types.OTHER, "OTHER", Object.class.getName(), "?" + i));
    }
    return out;
  }

  /** Records the mutation; returns the rows it affects. */
  public long execute(TravertineSession session, List<Object> params) {
    session.checkWritable(delete ? "DELETE" : "UPDATE");
    MergeTreeTable t = session.requireTable(table);
    Map<String, String> assignments = new LinkedHashMap<>();
    for (int i = 0; i < targets.size(); i++) {
      // A column assigned twice takes the last value (SQLite; the sqllogictest corpus expects it).
      String existing = assignments.keySet().stream().filter(targets.get(i)::equalsIgnoreCase).findFirst()
          .orElse(targets.get(i));
      assignments.put(existing, text(values.get(i), params));
    }
    String cond = where == null ? null : text(where, params);
    MutationCommand cmd = delete ? MutationCommand.delete(cond) : MutationCommand.update(assignments, cond);
    boolean sync = session.settings().getLong(Settings.MUTATIONS_SYNC) > 0;
    try {
      return t.mutate(cmd, sync).affectedRows();
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
  }

  private static String text(SqlNode node, List<Object> params) {
    SqlNode bound = params.isEmpty() ? node : node.accept(new SqlShuttle() {
      @Override public SqlNode visit(SqlDynamicParam param) {
        return literal(params.get(param.getIndex()));
      }
    });
    return bound.toSqlString(MutationDialect.INSTANCE).getSql();
  }

  /** A parameter value as a SQL literal. */
  static SqlNode literal(Object v) {
    SqlParserPos pos = SqlParserPos.ZERO;
    if (v == null) {
      return SqlLiteral.createNull(pos);
    }
    if (v instanceof Boolean b) {
      return SqlLiteral.createBoolean(b, pos);
    }
    if (v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long
        || v instanceof BigDecimal) {
      return SqlLiteral.createExactNumeric(v.toString(), pos);
    }
    if (v instanceof Float || v instanceof Double) {
      double d = ((Number) v).doubleValue();
      return SqlLiteral.createApproxNumeric(Double.toString(d).toUpperCase(Locale.ROOT).contains("E")
          ? Double.toString(d) : d + "E0", pos);
    }
    if (v instanceof java.sql.Date d) {
      return SqlLiteral.createDate(new DateString(d.toString()), pos);
    }
    if (v instanceof java.sql.Timestamp ts) {
      return SqlLiteral.createTimestamp(org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP,
          TimestampString.fromMillisSinceEpoch(ts.getTime()), 3, pos);
    }
    return SqlLiteral.createCharString(new NlsString(v.toString(), null, null).getValue(), pos);
  }
}
