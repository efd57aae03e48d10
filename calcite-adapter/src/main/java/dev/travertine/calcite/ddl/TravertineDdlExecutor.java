package dev.travertine.calcite.ddl;

import dev.travertine.calcite.ddl.SqlAlterTableMutation;
import dev.travertine.calcite.ddl.SqlCreateIndex;
import dev.travertine.calcite.ddl.SqlCreateMergeTreeTable;
import dev.travertine.calcite.ddl.SqlDropIndex;
import dev.travertine.calcite.ddl.SqlOptimizeTable;
import dev.travertine.calcite.ddl.SqlSystemCommand;
import dev.travertine.calcite.ddl.SqlTableOption;
import dev.travertine.calcite.dml.MutationStatement;
import dev.travertine.calcite.dml.SqlMutationCompiler;
import dev.travertine.calcite.schema.TravertineSchema;
import dev.travertine.calcite.schema.TravertineSession;
import dev.travertine.calcite.schema.TypeMapping;
import dev.travertine.mergetree.Database;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.IndexDefinition;
import dev.travertine.mergetree.schema.PartitionExpression;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.ViewTable;
import org.apache.calcite.schema.impl.ViewTableMacro;
import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSetOption;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlCreateView;
import org.apache.calcite.sql.ddl.SqlDropTable;
import org.apache.calcite.sql.ddl.SqlDropView;
import org.apache.calcite.sql.ddl.SqlKeyConstraint;
import org.apache.calcite.sql.ddl.SqlTruncateTable;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.util.NlsString;

/**
 * Executes Travertine's DDL and session statements against the shared {@link Database}:
 * CREATE/DROP TABLE and VIEW, TRUNCATE, CREATE/DROP INDEX, OPTIMIZE, SYSTEM, SET/RESET. Bad input
 * fails with a clear message before anything changes.
 */
public final class TravertineDdlExecutor implements DdlExecutor {
  public static final TravertineDdlExecutor INSTANCE = new TravertineDdlExecutor();

  private TravertineDdlExecutor() {}

  /** A DDL statement as its SQL names it ({@code OPTIMIZE TABLE}, {@code SYSTEM STOP MERGES}), for messages. */
  static String statementName(SqlNode node) {
    if (node instanceof dev.travertine.calcite.ddl.SqlSystemCommand sc) {
      return "SYSTEM " + sc.kind.sql;
    }
    if (node instanceof org.apache.calcite.sql.SqlCall call) {
      return call.getOperator().getName();
    }
    return node.getKind().toString().replace('_', ' ');
  }

  @Override public void executeDdl(CalcitePrepare.Context context, SqlNode node) {
    TravertineSession session = TravertineSchema.session(context.getRootSchema().plus());
    if (!(node instanceof SqlSetOption)) {
      session.checkWritable(statementName(node));
    }
    try {
      if (node instanceof SqlCreateMergeTreeTable c) {
        createTable(context, session, c);
      } else if (node instanceof SqlDropTable d) {
        session.database().dropTable(name(d.name), d.ifExists);
      } else if (node instanceof SqlCreateView v) {
        createView(context, session, v);
      } else if (node instanceof SqlDropView d) {
        session.database().dropView(name(d.name), d.ifExists);
      } else if (node instanceof SqlTruncateTable t) {
        session.requireTable(name(t.name)).truncate();
      } else if (node instanceof SqlCreateIndex ci) {
        createIndex(session, ci);
      } else if (node instanceof SqlDropIndex di) {
        dropIndex(session, di);
      } else if (node instanceof SqlAlterTableMutation m) {
        MutationStatement.from(m).execute(session, List.of()); // normally prepared as DML (with a count)
      } else if (node instanceof dev.travertine.calcite.ddl.SqlAlterTableColumns a) {
        alterColumns(context, session, a);
      } else if (node instanceof dev.travertine.calcite.ddl.SqlAttachTable a) {
        session.database().attachTable(name(a.table), a.location, a.ifNotExists);
      } else if (node instanceof SqlOptimizeTable o) {
        session.requireTable(name(o.table)).optimize(o.isFinal);
      } else if (node instanceof SqlSystemCommand s) {
        system(session, s);
      } else if (node instanceof dev.travertine.calcite.ddl.SqlKillQuery k) {
        killQuery(context, session, k);
      } else if (node instanceof SqlSetOption s) {
        setOption(session, s);
      } else {
        throw new UnsupportedOperationException("Unsupported statement: " + node.getKind());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
  }

  private static String name(SqlIdentifier id) {
    if (id.names.size() > 2 || (id.names.size() == 2
        && !id.names.get(0).equalsIgnoreCase(TravertineSchema.NAME))) {
      throw new IllegalArgumentException("Unknown schema in " + id + " (tables live in schema "
          + TravertineSchema.NAME + ")");
    }
    return id.names.get(id.names.size() - 1);
  }

  // ---------------------------------------------------------------- ALTER TABLE … COLUMN

  /** Applies the actions one after the other to a copy of the definition, then swaps it in once. */
  private void alterColumns(CalcitePrepare.Context context, TravertineSession session,
      dev.travertine.calcite.ddl.SqlAlterTableColumns a) throws IOException {
    MergeTreeTable t = session.requireTable(name(a.table));
    TableDefinition def = t.definition();
    long salt = t.context().clock().millis();
    for (var action : a.actions) {
      String col = action.name().getSimple();
      boolean exists = def.schema().indexOf(col) >= 0;
      switch (action.kind()) {
        case ADD -> {
          if (exists && action.ifExists()) {
            continue;
          }
          RelDataType type = deriveType(context, action.type());
          DataType dt = TypeMapping.fromRelType(type);
          boolean nullable = !Boolean.FALSE.equals(action.nullable());
          String dfltSql = action.defaultValue() == null ? null
              : action.defaultValue().toSqlString(CalciteSqlDialect.DEFAULT).getSql();
          String dfltValue = defaultValue(def, dfltSql, dt, nullable, col);
          int pos = action.first() ? 0 : action.other() == null ? def.schema().size()
              : def.schema().require(action.other().getSimple()) + 1;
          def = def.addColumn(new Column(col, dt, nullable, dfltSql,
              TableDefinition.newStorageName(def.schema(), col, salt++), dfltValue), pos);
        }
        case DROP -> {
          if (!exists && action.ifExists()) {
            continue;
          }
          def = def.dropColumn(col);
        }
        case RENAME -> {
          if (!exists && action.ifExists()) {
            continue;
          }
          def = def.renameColumn(col, action.other().getSimple());
        }
        case MODIFY -> {
          if (!exists && action.ifExists()) {
            continue;
          }
          Column old = def.schema().column(def.schema().require(col));
          DataType dt = TypeMapping.fromRelType(deriveType(context, action.type()));
          boolean nullable = action.nullable() == null ? old.nullable() : action.nullable();
          String dfltSql = action.defaultValue() == null ? old.defaultSql()
              : action.defaultValue().toSqlString(CalciteSqlDialect.DEFAULT).getSql();
          checkConvertible(old, dt);
          def = def.modifyColumn(col, dt, nullable, dfltSql, defaultValue(def, dfltSql, dt, nullable, col));
        }
        default -> throw new AssertionError(action.kind());
      }
    }
    if (def != t.definition()) {
      session.database().alterTable(t, def);
    }
  }

  /**
   * What old parts read for a new column: its DEFAULT (a constant), else NULL, else (NOT NULL)
   * the type's zero value, as ClickHouse does.
   */
  private static String defaultValue(TableDefinition def, String dfltSql, DataType type, boolean nullable,
      String column) {
    if (dfltSql != null) {
      Object v = SqlMutationCompiler.constant(def.schema(), dfltSql, type);
      if (v == null && !nullable) {
        throw new IllegalArgumentException("Column " + column + " is NOT NULL but its DEFAULT is NULL");
      }
      return v instanceof Boolean b ? (b ? "1" : "0") : dev.travertine.mergetree.part.ValueCodec.encode(v);
    }
    if (nullable) {
      return null;
    }
    return type.kind() == TypeKind.CHAR
        || type.kind() == TypeKind.VARCHAR ? "" : "0";
  }

  /** Type changes ORC can convert old parts for (numbers, strings, dates, timestamps). */
  private static void checkConvertible(Column old, DataType to) {
    var from = old.type().kind();
    var k = to.kind();
    boolean ok = from == k || (isNumber(from) && isNumber(k)) || isString(k)
        || (isString(from) && (isNumber(k) || k == TypeKind.DATE
            || k == TypeKind.TIMESTAMP))
        || (from == TypeKind.DATE && k == TypeKind.TIMESTAMP);
    if (!ok) {
      throw new IllegalArgumentException("Cannot MODIFY column " + old.name() + " from " + old.type() + " to " + to);
    }
  }

  private static boolean isNumber(TypeKind k) {
    return switch (k) {
      case TINYINT, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, DECIMAL -> true;
      default -> false;
    };
  }

  private static boolean isString(TypeKind k) {
    return k == TypeKind.CHAR || k == TypeKind.VARCHAR;
  }

  // ---------------------------------------------------------------- CREATE TABLE

  private void createTable(CalcitePrepare.Context context, TravertineSession session, SqlCreateMergeTreeTable c)
      throws IOException {
    String tableName = name(c.name);
    Database db = session.database();
    if (db.table(tableName) != null || db.view(tableName) != null) {
      if (c.ifNotExists) {
        return;
      }
      throw new IllegalArgumentException("Table " + tableName + " already exists");
    }
    if (c.engine != null && !c.engine.getSimple().equalsIgnoreCase("MergeTree")) {
      throw new IllegalArgumentException("Unknown table engine: " + c.engine.getSimple() + " (supported: MergeTree)");
    }
    RelDataType queryType = null;
    String querySql = null;
    if (c.query != null) {
      querySql = c.query.toSqlString(CalciteSqlDialect.DEFAULT).getSql();
      ViewTableMacro macro = ViewTable.viewMacro(context.getRootSchema().plus().getSubSchema(TravertineSchema.NAME),
          querySql, List.of(TravertineSchema.NAME), List.of(TravertineSchema.NAME, tableName), false);
      TranslatableTable x = macro.apply(List.of());
      queryType = x.getRowType(context.getTypeFactory());
    }
    List<Column> columns = new ArrayList<>();
    Set<String> primaryKey = new LinkedHashSet<>();
    List<IndexDefinition> indexes = new ArrayList<>();
    if (c.columnList == null) {
      for (RelDataTypeField f : queryType.getFieldList()) {
        columns.add(new Column(f.getName(), TypeMapping.fromRelType(f.getType()), f.getType().isNullable()));
      }
    } else {
      int i = 0;
      for (SqlNode e : c.columnList) {
        if (e instanceof SqlColumnDeclaration d) {
          RelDataType type = deriveType(context, d.dataType);
          boolean nullable = d.dataType.getNullable() == null || d.dataType.getNullable();
          String dflt = d.strategy == ColumnStrategy.DEFAULT && d.expression != null
              ? d.expression.toSqlString(CalciteSqlDialect.DEFAULT).getSql() : null;
          if (d.strategy == ColumnStrategy.VIRTUAL || d.strategy == ColumnStrategy.STORED) {
            throw new IllegalArgumentException("Generated columns are not supported: " + d.name);
          }
          columns.add(new Column(d.name.getSimple(), TypeMapping.fromRelType(type), nullable, dflt));
          i++;
        } else if (e instanceof SqlIdentifier id) {
          if (queryType == null) {
            throw new IllegalArgumentException("Column " + id + " needs a type");
          }
          RelDataTypeField f = queryType.getFieldList().get(i++);
          columns.add(new Column(id.getSimple(), TypeMapping.fromRelType(f.getType()), f.getType().isNullable()));
        } else if (e instanceof SqlKeyConstraint k) {
          SqlNodeList cols = (SqlNodeList) k.getOperandList().get(1);
          List<String> names = new ArrayList<>();
          for (SqlNode n : cols) {
            names.add(((SqlIdentifier) n).getSimple());
          }
          if (k.getOperator().getKind() == SqlKind.PRIMARY_KEY) {
            if (!primaryKey.isEmpty()) {
              throw new IllegalArgumentException("Table " + tableName + " has more than one PRIMARY KEY");
            }
            primaryKey.addAll(names);
          } else {
            indexes.add(new IndexDefinition("unique_" + String.join("_", names), names, true));
          }
        } else {
          throw new IllegalArgumentException("Unsupported table element: " + e);
        }
      }
      if (queryType != null && queryType.getFieldCount() != columns.size()) {
        throw new IllegalArgumentException("Number of columns (" + columns.size()
            + ") does not match the query's (" + queryType.getFieldCount() + ")");
      }
    }
    if (c.primaryKey != null) {
      if (!primaryKey.isEmpty()) {
        throw new IllegalArgumentException("Table " + tableName + " has more than one PRIMARY KEY");
      }
      primaryKey.addAll(identifiers(c.primaryKey, "PRIMARY KEY"));
    }
    // Primary key columns are NOT NULL, as the SQL standard says.
    List<Column> finalCols = new ArrayList<>();
    TableSchema tmp = new TableSchema(columns);
    Set<Integer> pkIdx = new LinkedHashSet<>();
    for (String pk : primaryKey) {
      pkIdx.add(tmp.require(pk));
    }
    for (int i = 0; i < columns.size(); i++) {
      Column col = columns.get(i);
      finalCols.add(pkIdx.contains(i) ? new Column(col.name(), col.type(), false, col.defaultSql()) : col);
    }
    List<String> orderBy = c.orderBy == null ? null : identifiers(c.orderBy, "ORDER BY");
    PartitionExpression partition = c.partitionBy == null ? null : partition(c.partitionBy);
    Map<String, String> settings = new LinkedHashMap<>();
    if (c.settings != null) {
      for (SqlNode n : c.settings) {
        SqlTableOption o = (SqlTableOption) n;
        settings.put(o.name.getSimple(), literal(o.value));
      }
    }
    TableDefinition def = new TableDefinition(tableName, new TableSchema(finalCols), orderBy, partition,
        new ArrayList<>(primaryKey), settings, indexes);
    if (!db.createTable(def, c.ifNotExists)) {
      return;
    }
    if (querySql != null) {
      populate(context, tableName, querySql, db);
    }
  }

  private static RelDataType deriveType(CalcitePrepare.Context context, SqlDataTypeSpec spec) {
    SqlValidator v = new org.apache.calcite.jdbc.ContextSqlValidator(context, true);
    return spec.deriveType(v, true);
  }

  private static void populate(CalcitePrepare.Context context, String table, String querySql, Database db) {
    Connection conn = (Connection) context.getDataContext().getQueryProvider();
    try (Statement s = conn.createStatement()) {
      s.executeUpdate("INSERT INTO \"" + TravertineSchema.NAME + "\".\"" + table.replace("\"", "\"\"") + "\" "
          + querySql);
    } catch (SQLException e) {
      try {
        db.dropTable(table, true);
      } catch (IOException ex) {
        e.addSuppressed(ex);
      }
      throw new IllegalStateException("CREATE TABLE … AS SELECT failed (table not created): " + e.getMessage(), e);
    }
  }

  private static List<String> identifiers(SqlNodeList list, String clause) {
    List<String> out = new ArrayList<>();
    for (SqlNode n : list) {
      if (!(n instanceof SqlIdentifier id) || !id.isSimple()) {
        throw new IllegalArgumentException(clause + " supports column names only, not " + n);
      }
      out.add(id.getSimple());
    }
    return out;
  }

  private static PartitionExpression partition(SqlNode n) {
    if (n instanceof SqlIdentifier id && id.isSimple()) {
      return PartitionExpression.identity(id.getSimple());
    }
    if (n instanceof SqlCall call) {
      List<SqlNode> ops = call.getOperandList();
      String fn = call.getKind() == SqlKind.MOD ? "modulo" : call.getOperator().getName();
      if (!ops.isEmpty() && ops.get(0) instanceof SqlIdentifier col && col.isSimple()) {
        long arg = 0;
        if (ops.size() == 2) {
          arg = Long.parseLong(literal(ops.get(1)));
        } else if (ops.size() > 2) {
          throw new IllegalArgumentException("Unsupported PARTITION BY expression: " + n);
        }
        return new PartitionExpression(fn, col.getSimple(), arg);
      }
    }
    throw new IllegalArgumentException("Unsupported PARTITION BY expression: " + n
        + " (supported: a column, toYYYYMM(col), toYYYYMMDD(col), toYear(col), toMonth(col), intDiv(col, n), col % n)");
  }

  private static String literal(SqlNode n) {
    if (n instanceof SqlLiteral lit) {
      Object v = lit.getValue();
      if (v instanceof NlsString s) {
        return s.getValue();
      }
      if (lit.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.BOOLEAN) {
        return Boolean.TRUE.equals(v) ? "1" : "0";
      }
      return lit.toValue();
    }
    if (n instanceof SqlIdentifier id) {
      return id.toString();
    }
    if (n instanceof SqlBasicCall call && call.getKind() == SqlKind.MINUS_PREFIX) {
      return "-" + literal(call.operand(0));
    }
    throw new IllegalArgumentException("Expected a literal value, not " + n);
  }

  // ---------------------------------------------------------------- views, indexes

  private void createView(CalcitePrepare.Context context, TravertineSession session, SqlCreateView v)
      throws IOException {
    String viewName = name(v.name);
    SqlNode q = v.query;
    if (v.columnList != null) {
      List<SqlNode> ops = new ArrayList<>();
      ops.add(q);
      ops.add(new SqlIdentifier("_", SqlParserPos.ZERO));
      v.columnList.forEach(ops::add);
      SqlNode as = SqlStdOperatorTable.AS.createCall(SqlParserPos.ZERO, ops);
      q = new SqlSelect(SqlParserPos.ZERO, null, SqlNodeList.SINGLETON_STAR, as, null, null, null, null, null, null,
          null, null, null);
    }
    String sql = q.toSqlString(CalciteSqlDialect.DEFAULT).getSql();
    // Validate now: a view that can't be expanded is refused with the validator's message.
    ViewTableMacro macro = ViewTable.viewMacro(context.getRootSchema().plus().getSubSchema(TravertineSchema.NAME),
        sql, List.of(TravertineSchema.NAME), List.of(TravertineSchema.NAME, viewName), false);
    RelDataType type = macro.apply(List.of()).getRowType(context.getTypeFactory());
    Set<String> seen = new java.util.HashSet<>();
    for (String f : type.getFieldNames()) {
      if (!seen.add(f.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("Duplicate column name " + f + " in view " + viewName);
      }
    }
    session.database().createView(new Database.ViewDefinition(viewName, sql, List.of(TravertineSchema.NAME),
        type.getFieldNames()), v.getReplace());
  }

  private void createIndex(TravertineSession session, SqlCreateIndex ci) throws IOException {
    MergeTreeTable t = session.requireTable(name(ci.table));
    String idx = ci.name.getSimple();
    TableDefinition def = t.definition();
    for (IndexDefinition i : def.indexes()) {
      if (i.name().equalsIgnoreCase(idx)) {
        if (ci.ifNotExists) {
          return;
        }
        throw new IllegalArgumentException("Index " + idx + " already exists on table " + def.name());
      }
    }
    for (MergeTreeTable other : session.database().tables()) {
      for (IndexDefinition i : other.definition().indexes()) {
        if (i.name().equalsIgnoreCase(idx)) {
          throw new IllegalArgumentException("Index " + idx + " already exists on table " + other.definition().name());
        }
      }
    }
    List<String> cols = new ArrayList<>();
    for (SqlNode n : ci.columns) {
      SqlNode c = n instanceof SqlBasicCall call && call.getKind() == SqlKind.DESCENDING ? call.operand(0) : n;
      String col = ((SqlIdentifier) c).getSimple();
      cols.add(def.schema().column(def.schema().require(col)).name());
    }
    List<IndexDefinition> idxs = new ArrayList<>(def.indexes());
    idxs.add(new IndexDefinition(idx, cols, ci.unique));
    session.database().updateDefinition(t, def.withIndexes(idxs));
  }

  private void dropIndex(TravertineSession session, SqlDropIndex di) throws IOException {
    String idx = di.name.getSimple();
    for (MergeTreeTable t : session.database().tables()) {
      if (di.table != null && !t.definition().name().equalsIgnoreCase(name(di.table))) {
        continue;
      }
      List<IndexDefinition> idxs = new ArrayList<>(t.definition().indexes());
      if (idxs.removeIf(i -> i.name().equalsIgnoreCase(idx))) {
        session.database().updateDefinition(t, t.definition().withIndexes(idxs));
        return;
      }
    }
    if (!di.ifExists) {
      throw new IllegalArgumentException("Index " + idx + " does not exist");
    }
  }

  // ---------------------------------------------------------------- SYSTEM, SET

  private void system(TravertineSession session, SqlSystemCommand s) throws IOException {
    if (s.kind == SqlSystemCommand.Kind.DROP_UNCOMPRESSED_CACHE) {
      var cache = session.database().context().columnCache();
      if (cache != null) {
        cache.clear();
      }
      return;
    }
    List<MergeTreeTable> targets = s.table == null ? session.database().tables()
        : List.of(session.requireTable(name(s.table)));
    for (MergeTreeTable t : targets) {
      switch (s.kind) {
        case FLUSH -> t.flush();
        case STOP_MERGES -> t.stopMerges(true);
        case START_MERGES -> t.stopMerges(false);
        default -> throw new AssertionError(s.kind);
      }
    }
  }

  /** Selects the queries through system.processes, then cancels them; or the mutations, then kills them. */
  private void killQuery(CalcitePrepare.Context context, TravertineSession session,
      dev.travertine.calcite.ddl.SqlKillQuery k) throws IOException {
    Connection conn = (Connection) context.getDataContext().getQueryProvider();
    String cond = k.condition.toSqlString(CalciteSqlDialect.DEFAULT).getSql();
    if (k.mutation) {
      session.checkWritable("KILL MUTATION");
      List<String[]> found = new ArrayList<>();
      try (Statement s = conn.createStatement();
          java.sql.ResultSet rs = s.executeQuery("SELECT \"table\", mutation_id FROM \"system\".\"mutations\""
              + " WHERE is_done = FALSE AND (" + cond + ")")) {
        while (rs.next()) {
          found.add(new String[] {rs.getString(1), rs.getString(2)});
        }
      } catch (SQLException e) {
        throw new IllegalArgumentException("Invalid KILL MUTATION condition: " + e.getMessage(), e);
      }
      if (found.isEmpty()) {
        throw new IllegalArgumentException("No unfinished mutation matches: " + cond);
      }
      for (String[] f : found) {
        session.requireTable(f[0]).killMutation(f[1]);
      }
      return;
    }
    var self = session.currentQuery();
    List<String> ids = new ArrayList<>();
    try (Statement s = conn.createStatement();
        java.sql.ResultSet rs = s.executeQuery("SELECT query_id FROM \"system\".\"processes\" WHERE " + cond)) {
      while (rs.next()) {
        ids.add(rs.getString(1));
      }
    } catch (SQLException e) {
      throw new IllegalArgumentException("Invalid KILL QUERY condition: " + e.getMessage(), e);
    }
    for (String id : ids) {
      if (self == null || !id.equals(self.id())) {
        session.database().queries().kill(id);
      }
    }
  }

  private void setOption(TravertineSession session, SqlSetOption s) {
    String name = s.getName().toString();
    if (session.settings().getLong(dev.travertine.mergetree.settings.Settings.READONLY) == 1) {
      throw new SecurityException("Cannot modify setting '" + name + "' in readonly mode (readonly = 1)");
    }
    SqlNode value = s.getValue();
    if (value == null) {
      if (name.equalsIgnoreCase("ALL")) {
        session.settings().resetAll();
      } else {
        session.settings().reset(name);
      }
      return;
    }
    session.settings().set(name, literal(value));
  }
}
