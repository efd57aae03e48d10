package dev.travertine.calcite.dml;

import dev.travertine.calcite.prepare.ParserFactory;
import dev.travertine.calcite.schema.TravertineSchema;
import dev.travertine.calcite.schema.TravertineSession;
import dev.travertine.mergetree.Inserter;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.mergetree.settings.Settings;
import dev.travertine.vector.DataType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Types;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

/**
 * The fast path for {@code INSERT INTO t [(cols)] VALUES (…), …} whose values are literals or
 * {@code ?} parameters: no validation, planning or code generation, just typed values into one
 * {@link Inserter}. Anything it can't convert exactly as Calcite would (casts, expressions,
 * defaults, NOT NULL omissions) falls back to the normal path, so results never differ. It also
 * makes a JDBC batch one insert.
 */
public final class FastInsert {
  /** Marks a value supplied by parameter {@code index}. */
  private record Param(int index) {}

  private final String tableName;
  private final TableSchema schema;
  private final int[] target;
  private final List<Object[]> rows;
  private final int paramCount;

  private FastInsert(String tableName, TableSchema schema, int[] target, List<Object[]> rows, int paramCount) {
    this.tableName = tableName;
    this.schema = schema;
    this.target = target;
    this.rows = rows;
    this.paramCount = paramCount;
  }

  public int rowCount() {
    return rows.size();
  }

  public int paramCount() {
    return paramCount;
  }

  /** Returns a plan for the statement, or null when it must take the normal path. */
  public static FastInsert tryPrepare(TravertineSession session, String sql, SqlParser.Config config) {
    String head = sql.stripLeading();
    if (head.length() < 12 || !head.regionMatches(true, 0, "insert", 0, 6)
        || !sql.toLowerCase(Locale.ROOT).contains("values")) {
      return null;
    }
    SqlNode node = ParserFactory.parseOrNull(sql, config);
    if (node == null) {
      return null;
    }
    if (!(node instanceof SqlInsert ins) || !(ins.getTargetTable() instanceof SqlIdentifier id)
        || ins.getSource().getKind() != SqlKind.VALUES || id.names.size() > 2
        || (id.names.size() == 2 && !id.names.get(0).equalsIgnoreCase(TravertineSchema.NAME))) {
      return null;
    }
    MergeTreeTable table = session.database().table(id.names.get(id.names.size() - 1));
    if (table == null) {
      return null;
    }
    TableSchema schema = table.definition().schema();
    int[] target;
    SqlNodeList cols = ins.getTargetColumnList();
    if (cols == null) {
      target = new int[schema.size()];
      for (int i = 0; i < target.length; i++) {
        target[i] = i;
      }
    } else {
      target = new int[cols.size()];
      boolean[] seen = new boolean[schema.size()];
      for (int i = 0; i < target.length; i++) {
        int c = schema.indexOf(((SqlIdentifier) cols.get(i)).getSimple());
        if (c < 0 || seen[c]) {
          return null;
        }
        seen[c] = true;
        target[i] = c;
      }
      for (int c = 0; c < schema.size(); c++) {
        Column col = schema.column(c);
        if (!seen[c] && (col.defaultSql() != null || !col.nullable())) {
          return null;
        }
      }
    }
    List<Object[]> rows = new ArrayList<>();
    int params = 0;
    for (SqlNode r : ((SqlBasicCall) ins.getSource()).getOperandList()) {
      if (r.getKind() != SqlKind.ROW) {
        return null;
      }
      List<SqlNode> vals = ((SqlBasicCall) r).getOperandList();
      if (vals.size() != target.length) {
        return null;
      }
      Object[] row = new Object[target.length];
      for (int i = 0; i < vals.size(); i++) {
        SqlNode v = vals.get(i);
        Column col = schema.column(target[i]);
        if (v instanceof SqlDynamicParam p) {
          row[i] = new Param(p.getIndex());
          params = Math.max(params, p.getIndex() + 1);
          continue;
        }
        Object[] holder = new Object[1];
        if (!literal(v, col, holder)) {
          return null;
        }
        row[i] = holder[0];
      }
      rows.add(row);
    }
    return new FastInsert(table.definition().name(), schema, target, rows, params);
  }

  /** Converts a literal exactly; false when the normal path must decide. */
  private static boolean literal(SqlNode v, Column col, Object[] out) {
    boolean negate = false;
    if (v.getKind() == SqlKind.MINUS_PREFIX) {
      v = ((SqlBasicCall) v).operand(0);
      negate = true;
      if (!(v instanceof SqlNumericLiteral)) {
        return false;
      }
    }
    if (!(v instanceof SqlLiteral lit)) {
      return false;
    }
    DataType t = col.type();
    if (lit.getTypeName() == SqlTypeName.NULL) {
      out[0] = null;
      return col.nullable();
    }
    if (lit instanceof SqlNumericLiteral num) {
      BigDecimal bd = num.bigDecimalValue();
      if (bd == null) {
        return false;
      }
      if (negate) {
        bd = bd.negate();
      }
      return number(bd, num.isExact(), t, out);
    }
    if (lit instanceof SqlCharStringLiteral s) {
      String str = s.getValueAs(String.class);
      switch (t.kind()) {
        case VARCHAR -> {
          if (t.precision() >= 0 && str.length() > t.precision()) {
            return false;
          }
          out[0] = str;
          return true;
        }
        case CHAR -> {
          int n = t.precision() < 0 ? 1 : t.precision();
          if (str.length() > n) {
            return false;
          }
          out[0] = str + " ".repeat(n - str.length());
          return true;
        }
        default -> {
          return false;
        }
      }
    }
    switch (lit.getTypeName()) {
      case BOOLEAN -> {
        if (t.kind() != dev.travertine.vector.TypeKind.BOOLEAN) {
          return false;
        }
        out[0] = lit.booleanValue();
        return true;
      }
      case DATE -> {
        if (t.kind() != dev.travertine.vector.TypeKind.DATE) {
          return false;
        }
        out[0] = lit.getValueAs(DateString.class).getDaysSinceEpoch();
        return true;
      }
      case TIMESTAMP -> {
        if (t.kind() != dev.travertine.vector.TypeKind.TIMESTAMP) {
          return false;
        }
        TimestampString ts = lit.getValueAs(TimestampString.class);
        out[0] = ts.getMillisSinceEpoch();
        return ts.toString().length() <= 23;
      }
      default -> {
        return false;
      }
    }
  }

  private static boolean number(BigDecimal bd, boolean exact, DataType t, Object[] out) {
    switch (t.kind()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT -> {
        if (!exact || bd.scale() > 0 && bd.stripTrailingZeros().scale() > 0) {
          return false;
        }
        long v;
        try {
          v = bd.longValueExact();
        } catch (ArithmeticException e) {
          return false;
        }
        long min = switch (t.kind()) {
          case TINYINT -> Byte.MIN_VALUE;
          case SMALLINT -> Short.MIN_VALUE;
          case INTEGER -> Integer.MIN_VALUE;
          default -> Long.MIN_VALUE;
        };
        long max = switch (t.kind()) {
          case TINYINT -> Byte.MAX_VALUE;
          case SMALLINT -> Short.MAX_VALUE;
          case INTEGER -> Integer.MAX_VALUE;
          default -> Long.MAX_VALUE;
        };
        if (v < min || v > max) {
          return false;
        }
        out[0] = v;
        return true;
      }
      case REAL -> {
        out[0] = bd.floatValue();
        return true;
      }
      case DOUBLE -> {
        out[0] = bd.doubleValue();
        return true;
      }
      case DECIMAL -> {
        if (!exact || bd.scale() > t.scale()) {
          return false;
        }
        BigDecimal scaled = bd.setScale(t.scale(), RoundingMode.UNNECESSARY);
        if (scaled.precision() > t.precision()) {
          return false;
        }
        out[0] = scaled;
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  /** JDBC parameter metadata: each parameter takes its target column's type. */
  List<AvaticaParameter> parameters() {
    AvaticaParameter[] out = new AvaticaParameter[paramCount];
    for (Object[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        if (row[i] instanceof Param p) {
          DataType t = schema.column(target[i]).type();
          out[p.index()] = parameter(t, "?" + p.index());
        }
      }
    }
    for (int i = 0; i < out.length; i++) {
      if (out[i] == null) {
        out[i] = new AvaticaParameter(false, 0, 0, Types.VARCHAR, "VARCHAR", String.class.getName(), "?" + i);
      }
    }
    return List.of(out);
  }

  private static AvaticaParameter parameter(DataType t, String name) {
    return switch (t.kind()) {
      case BOOLEAN -> new AvaticaParameter(false, 1, 0, Types.BOOLEAN, "BOOLEAN", Boolean.class.getName(), name);
      case TINYINT -> new AvaticaParameter(true, 3, 0, Types.TINYINT, "TINYINT", Byte.class.getName(), name);
      case SMALLINT -> new AvaticaParameter(true, 5, 0, Types.SMALLINT, "SMALLINT", Short.class.getName(), name);
      case INTEGER -> new AvaticaParameter(true, 10, 0, Types.INTEGER, "INTEGER", Integer.class.getName(), name);
      case BIGINT -> new AvaticaParameter(true, 19, 0, Types.BIGINT, "BIGINT", Long.class.getName(), name);
      case REAL -> new AvaticaParameter(true, 7, 0, Types.REAL, "REAL", Float.class.getName(), name);
      case DOUBLE -> new AvaticaParameter(true, 15, 0, Types.DOUBLE, "DOUBLE", Double.class.getName(), name);
      case DECIMAL -> new AvaticaParameter(true, t.precision(), t.scale(), Types.DECIMAL, "DECIMAL",
          BigDecimal.class.getName(), name);
      case CHAR -> new AvaticaParameter(false, Math.max(t.precision(), 1), 0, Types.CHAR, "CHAR",
          String.class.getName(), name);
      case VARCHAR -> new AvaticaParameter(false, Math.max(t.precision(), 0), 0, Types.VARCHAR, "VARCHAR",
          String.class.getName(), name);
      case DATE -> new AvaticaParameter(false, 0, 0, Types.DATE, "DATE", java.sql.Date.class.getName(), name);
      case TIMESTAMP -> new AvaticaParameter(false, 3, 0, Types.TIMESTAMP, "TIMESTAMP",
          java.sql.Timestamp.class.getName(), name);
    };
  }

  /** Executes with one set of parameter values (null when there are none). */
  long execute(TravertineSession session, List<Object> params) {
    return executeBatch(session, params == null ? List.of(List.of()) : List.of(params));
  }

  /** Executes once per parameter set, as a single insert; returns the rows inserted. */
  long executeBatch(TravertineSession session, List<List<Object>> paramSets) {
    session.checkWritable("INSERT");
    MergeTreeTable table = session.requireTable(tableName);
    if (table.definition().schema() != schema && !table.definition().schema().equals(schema)) {
      throw new IllegalStateException("Table " + tableName + " changed since the statement was prepared");
    }
    long maxBlock = session.settings().getLong(Settings.MAX_INSERT_BLOCK_SIZE);
    try (Inserter ins = table.newInserter(maxBlock)) {
      for (List<Object> params : paramSets) {
        for (Object[] row : rows) {
          Object[] full = new Object[schema.size()];
          for (int i = 0; i < row.length; i++) {
            Object v = row[i];
            if (v instanceof Param p) {
              if (params == null || p.index() >= params.size()) {
                throw new IllegalArgumentException("No value given for parameter " + (p.index() + 1));
              }
              v = bind(schema.column(target[i]), params.get(p.index()));
            }
            full[target[i]] = v;
          }
          ins.add(full);
        }
      }
      return ins.commit();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot insert into " + tableName + ": " + e.getMessage(), e);
    }
  }

  /** Converts a JDBC parameter value to the column's storage representation. */
  private static Object bind(Column col, Object v) {
    if (v == null) {
      if (!col.nullable()) {
        throw new IllegalArgumentException("NULL value in NOT NULL column " + col.name());
      }
      return null;
    }
    DataType t = col.type();
    return switch (t.kind()) {
      case BOOLEAN -> v instanceof Boolean b ? b : Boolean.parseBoolean(v.toString());
      case TINYINT, SMALLINT, INTEGER, BIGINT -> v instanceof Number n ? n.longValue() : Long.parseLong(v.toString());
      case REAL -> v instanceof Number n ? n.floatValue() : Float.parseFloat(v.toString());
      case DOUBLE -> v instanceof Number n ? n.doubleValue() : Double.parseDouble(v.toString());
      case DECIMAL -> (v instanceof BigDecimal b ? b : new BigDecimal(v.toString()))
          .setScale(t.scale(), RoundingMode.HALF_UP);
      case CHAR -> {
        String s = v.toString();
        int n = t.precision() < 0 ? 1 : t.precision();
        yield s.length() >= n ? s : s + " ".repeat(n - s.length());
      }
      case VARCHAR -> v.toString();
      case DATE -> v instanceof java.sql.Date d ? (int) d.toLocalDate().toEpochDay()
          : v instanceof Number n ? n.intValue() : (int) java.time.LocalDate.parse(v.toString()).toEpochDay();
      case TIMESTAMP -> v instanceof java.sql.Timestamp ts
          ? ts.toLocalDateTime().toInstant(ZoneOffset.UTC).toEpochMilli()
          : v instanceof Number n ? n.longValue()
          : java.time.LocalDateTime.parse(v.toString().replace(' ', 'T')).toInstant(ZoneOffset.UTC).toEpochMilli();
    };
  }
}
