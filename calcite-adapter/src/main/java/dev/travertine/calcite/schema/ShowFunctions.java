package dev.travertine.calcite.schema;

import dev.travertine.calcite.ddl.ShowStatements;
import dev.travertine.mergetree.Database;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.TableMacro;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The table functions behind DESCRIBE, SHOW CREATE TABLE and EXISTS
 * ({@link ShowStatements}): {@code describe_table('t')}, {@code show_create_table('t')} and
 * {@code exists_table('t')}, for MergeTree tables, views and system tables, computed when the
 * query runs. A name may carry its database ({@code system.parts}, {@code main.t}; ClickHouse's
 * {@code default} is ours, {@code main}).
 */
public final class ShowFunctions {
  private ShowFunctions() {}

  /** DESCRIBE's columns: ClickHouse's system.columns names. */
  public static ScannableTable describe(String table) {
    return new Rows(table, tf -> tf.builder()
        .add("name", SqlTypeName.VARCHAR)
        .add("type", SqlTypeName.VARCHAR)
        .add("is_nullable", SqlTypeName.BOOLEAN)
        .add("default_expression", tf.createTypeWithNullability(tf.createSqlType(SqlTypeName.VARCHAR), true))
        .add("is_in_sorting_key", SqlTypeName.BOOLEAN)
        .add("is_in_partition_key", SqlTypeName.BOOLEAN)
        .build(), ShowFunctions::describeRows);
  }

  public static ScannableTable showCreate(String table) {
    return new Rows(table, tf -> tf.builder().add("statement", SqlTypeName.VARCHAR).build(),
        (t, tf) -> List.<Object[]>of(new Object[] {createStatement(t, tf)}));
  }

  public static ScannableTable exists(String table) {
    return new Rows(table, tf -> tf.builder().add("result", SqlTypeName.INTEGER).build(), null);
  }

  /** A table, view or system table found by name: its row type and, for a MergeTree table, its definition. */
  record Found(String database, String name, RelDataType rowType, TableDefinition definition, String viewSql) {}

  /** Finds a table or view, or null. */
  static Found find(DataContext root, String qualified) {
    SchemaPlus rootSchema = root.getRootSchema();
    RelDataTypeFactory tf = root.getTypeFactory();
    String db = ShowStatements.MAIN;
    String name = qualified;
    int dot = qualified.indexOf('.');
    if (dot > 0) {
      db = qualified.substring(0, dot).toLowerCase(Locale.ROOT);
      name = qualified.substring(dot + 1);
      if (db.equals("default")) {
        db = ShowStatements.MAIN;
      }
    }
    if (db.equals(ShowStatements.SYSTEM)) {
      SchemaPlus system = rootSchema.getSubSchema(ShowStatements.SYSTEM);
      String key = system == null ? null : key(system.getTableNames(), name);
      return key == null ? null : new Found(db, key, system.getTable(key).getRowType(tf), null, null);
    }
    if (!db.equals(ShowStatements.MAIN)) {
      return null;
    }
    TravertineSession session = TravertineSchema.session(rootSchema);
    Database database = session.database();
    MergeTreeTable t = database.table(name);
    SchemaPlus main = rootSchema.getSubSchema(TravertineSchema.NAME);
    if (t != null) {
      String key = t.definition().name();
      Table table = main.getTable(key);
      return new Found(db, key, table.getRowType(tf), t.definition(), null);
    }
    Database.ViewDefinition v = database.view(name);
    if (v != null) {
      for (Function f : main.getFunctions(v.name())) {
        if (f instanceof TableMacro m) {
          return new Found(db, v.name(), m.apply(List.of()).getRowType(tf), null, v.sql());
        }
      }
    }
    return null;
  }

  private static String key(java.util.Set<String> names, String name) {
    if (names.contains(name)) {
      return name;
    }
    for (String n : names) {
      if (n.equalsIgnoreCase(name)) {
        return n;
      }
    }
    return null;
  }

  private static List<Object[]> describeRows(Found f, RelDataTypeFactory tf) {
    List<Object[]> rows = new ArrayList<>();
    TableDefinition d = f.definition();
    for (RelDataTypeField field : f.rowType().getFieldList()) {
      Column c = d == null ? null : d.schema().column(d.schema().require(field.getName()));
      rows.add(new Object[] {field.getName(), typeName(field.getType()), field.getType().isNullable(),
          c == null ? null : c.defaultSql(), d != null && d.orderBy().contains(field.getName()),
          d != null && d.partitionBy() != null && d.partitionBy().column().equals(field.getName())});
    }
    return rows;
  }

  /** A column's SQL type without its nullability ("VARCHAR", "DECIMAL(15, 2)"). */
  static String typeName(RelDataType type) {
    String s = type.getFullTypeString();
    return s.endsWith(" NOT NULL") ? s.substring(0, s.length() - " NOT NULL".length()) : s;
  }

  /** The statement that creates the table again (a view's: CREATE VIEW … AS its query). */
  static String createStatement(Found f, RelDataTypeFactory tf) {
    String qualified = quoteName(f.database()) + "." + quoteName(f.name());
    if (f.viewSql() != null) {
      return "CREATE VIEW " + qualified + " AS " + f.viewSql();
    }
    StringBuilder b = new StringBuilder("CREATE TABLE ").append(qualified).append("\n(\n");
    TableDefinition d = f.definition();
    List<RelDataTypeField> fields = f.rowType().getFieldList();
    for (int i = 0; i < fields.size(); i++) {
      RelDataTypeField field = fields.get(i);
      b.append("    ").append(quoteName(field.getName())).append(' ').append(typeName(field.getType()));
      if (!field.getType().isNullable()) {
        b.append(" NOT NULL");
      }
      if (d != null) {
        String def = d.schema().column(d.schema().require(field.getName())).defaultSql();
        if (def != null) {
          b.append(" DEFAULT ").append(def);
        }
      }
      b.append(i + 1 < fields.size() ? ",\n" : "\n");
    }
    b.append(')');
    if (d == null) {
      return b.append("\nENGINE = System").toString();
    }
    b.append("\nENGINE = MergeTree");
    if (d.partitionBy() != null) {
      b.append("\nPARTITION BY ").append(d.partitionBy());
    }
    if (!d.orderBy().isEmpty()) {
      b.append("\nORDER BY ").append(keyList(d.orderBy()));
    }
    if (!d.primaryKey().isEmpty() && !d.primaryKey().equals(d.orderBy())) {
      b.append("\nPRIMARY KEY ").append(keyList(d.primaryKey()));
    }
    Map<String, String> settings = d.sortedSettings();
    if (!settings.isEmpty()) {
      List<String> items = new ArrayList<>();
      for (Map.Entry<String, String> e : settings.entrySet()) {
        String v = e.getValue();
        items.add(e.getKey() + " = " + (v.matches("-?\\d+(\\.\\d+)?") ? v : "'" + v.replace("'", "''") + "'"));
      }
      b.append("\nSETTINGS ").append(String.join(", ", items));
    }
    return b.toString();
  }

  private static String keyList(List<String> columns) {
    List<String> quoted = columns.stream().map(ShowFunctions::quoteName).toList();
    return quoted.size() == 1 ? quoted.get(0) : "(" + String.join(", ", quoted) + ")";
  }

  /** A name as SQL writes it: bare when it is a plain lower-case word, else in double quotes. */
  static String quoteName(String name) {
    return name.matches("[a-z_][a-z0-9_]*") && !RESERVED.contains(name.toUpperCase(Locale.ROOT))
        ? name : "\"" + name.replace("\"", "\"\"") + "\"";
  }

  private static final java.util.Set<String> RESERVED = java.util.Set.copyOf(
      org.apache.calcite.sql.parser.SqlAbstractParserImpl.getSql92ReservedWords());

  /** One of the three functions' result: computed at scan time, when the catalog is current. */
  static final class Rows extends AbstractTable implements ScannableTable {
    private final String table;
    private final java.util.function.Function<RelDataTypeFactory, RelDataType> rowType;
    private final BiFunction<Found, RelDataTypeFactory, List<Object[]>> rows;

    Rows(String table, java.util.function.Function<RelDataTypeFactory, RelDataType> rowType,
        BiFunction<Found, RelDataTypeFactory, List<Object[]>> rows) {
      this.table = table;
      this.rowType = rowType;
      this.rows = rows;
    }

    @Override public RelDataType getRowType(RelDataTypeFactory tf) {
      return rowType.apply(tf);
    }

    @Override public Enumerable<Object[]> scan(DataContext root) {
      Found f = find(root, table);
      if (rows == null) { // exists_table
        return Linq4j.asEnumerable(List.<Object[]>of(new Object[] {f == null ? 0 : 1}));
      }
      if (f == null) {
        throw new IllegalArgumentException("Table " + table + " does not exist");
      }
      return Linq4j.asEnumerable(rows.apply(f, root.getTypeFactory()));
    }
  }
}
