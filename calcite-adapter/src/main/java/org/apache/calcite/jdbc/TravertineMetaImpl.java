package org.apache.calcite.jdbc;

import dev.travertine.calcite.dml.FastInsertSignature;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.server.CalciteServerStatement;

/**
 * Calcite's JDBC metadata with what GUI clients need (columns' TYPE_NAME and sizes
 * ({@link TravertineMetaColumnFactory}), primary keys = the MergeTree sort key, the table types
 * TABLE, VIEW and SYSTEM TABLE), and a batch of a fast-path INSERT run as one insert instead of
 * one statement per parameter set. It lives in Calcite's package because Calcite's connection
 * class, which its constructor takes, is package-private.
 */
public final class TravertineMetaImpl extends CalciteMetaImpl {
  private TravertineMetaImpl(CalciteConnectionImpl connection) {
    super(connection, CalciteMetaTableFactoryImpl.INSTANCE, TravertineMetaColumnFactory.INSTANCE);
  }

  /** The metadata object of a Travertine connection. */
  public static Meta create(AvaticaConnection connection) {
    return new TravertineMetaImpl((CalciteConnectionImpl) connection);
  }

  /** A row of getPrimaryKeys (Avatica's own class has a package-private constructor). */
  public static final class PrimaryKeyColumn {
    public final String tableCat;
    public final String tableSchem;
    public final String tableName;
    public final String columnName;
    public final short keySeq;
    public final String pkName;

    PrimaryKeyColumn(String tableSchem, String tableName, String columnName, short keySeq) {
      this.tableCat = dev.travertine.jdbc.Driver.CATALOG;
      this.tableSchem = tableSchem;
      this.tableName = tableName;
      this.columnName = columnName;
      this.keySeq = keySeq;
      this.pkName = "PRIMARY";
    }
  }

  /**
   * A MergeTree table's primary key: its PRIMARY KEY, else its ORDER BY key (ClickHouse's rule);
   * GUI clients use it to edit rows and to draw keys.
   */
  @Override public MetaResultSet getPrimaryKeys(ConnectionHandle ch, String catalog, String schema,
      String table) {
    List<Object> rows = new ArrayList<>();
    String main = dev.travertine.calcite.schema.TravertineSchema.NAME;
    if (schema == null || schema.equalsIgnoreCase(main)) {
      var session = dev.travertine.calcite.schema.TravertineSchema.session(getConnection().getRootSchema());
      for (var t : session.database().tables()) {
        var def = t.definition();
        if (table != null && !table.equals(def.name()) && !table.equalsIgnoreCase(def.name())) {
          continue;
        }
        List<String> key = def.primaryKey().isEmpty() ? def.orderBy() : def.primaryKey();
        for (int i = 0; i < key.size(); i++) {
          rows.add(new PrimaryKeyColumn(main, def.name(), key.get(i), (short) (i + 1)));
        }
      }
    }
    return rows(PrimaryKeyColumn.class, rows, List.of("tableCat", "tableSchem", "tableName", "columnName",
        "keySeq", "pkName"), List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME"));
  }

  /**
   * The tables of a schema whose names match: Calcite filters its tables by the pattern but lists
   * the ones made by functions (our views) whatever the pattern, so getColumns of table "t" also
   * gave every view's columns.
   */
  @Override org.apache.calcite.linq4j.Enumerable<MetaTable> tables(MetaSchema schema,
      org.apache.calcite.schema.lookup.LikePattern pattern) {
    org.apache.calcite.linq4j.function.Predicate1<String> matches = pattern.matcher();
    return super.tables(schema, pattern).where(t -> matches.apply(t.tableName));
  }

  /**
   * The schemas, all in the one catalog ({@code travertine}): Calcite names a schema's catalog
   * after the argument, so getTables(null, …) said TABLE_CAT null while getCatalogs named one.
   * Another catalog has no schemas.
   */
  @Override org.apache.calcite.linq4j.Enumerable<MetaSchema> schemas(String catalog) {
    String ours = dev.travertine.jdbc.Driver.CATALOG;
    if (catalog != null && !catalog.equals(ours)) {
      return org.apache.calcite.linq4j.Linq4j.emptyEnumerable();
    }
    return super.schemas(ours);
  }

  @Override public MetaResultSet getTableTypes(ConnectionHandle ch) {
    List<Object> rows = new ArrayList<>();
    for (String type : List.of("SYSTEM TABLE", "TABLE", "VIEW")) {
      rows.add(new MetaTableType(type));
    }
    return rows(MetaTableType.class, rows, List.of("tableType"), List.of("TABLE_TYPE"));
  }

  /** A result set of objects' public fields. */
  private MetaResultSet rows(Class<?> clazz, List<Object> rows, List<String> fieldNames, List<String> columnNames) {
    List<org.apache.calcite.avatica.ColumnMetaData> columns = new ArrayList<>();
    List<java.lang.reflect.Field> fields = new ArrayList<>();
    try {
      for (int i = 0; i < fieldNames.size(); i++) {
        java.lang.reflect.Field f = clazz.getField(fieldNames.get(i));
        fields.add(f);
        columns.add(columnMetaData(columnNames.get(i), i, f.getType(), !f.getType().isPrimitive()));
      }
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(e);
    }
    return createResultSet(java.util.Map.of(), columns, CursorFactory.record(clazz, fields, columnNames),
        new Frame(0, true, rows));
  }

  @Override public ExecuteBatchResult executeBatch(StatementHandle h, List<List<TypedValue>> parameterValueLists)
      throws NoSuchStatementException {
    CalciteServerStatement stmt = getConnection().server.getStatement(h);
    Meta.Signature sig = stmt.getSignature();
    if (sig instanceof FastInsertSignature<?> f) {
      List<List<Object>> sets = new ArrayList<>(parameterValueLists.size());
      for (List<TypedValue> tvs : parameterValueLists) {
        List<Object> vals = new ArrayList<>(tvs.size());
        for (TypedValue tv : tvs) {
          vals.add(tv == null ? null : tv.toLocal());
        }
        sets.add(vals);
      }
      f.executeBatch(sets);
      long[] counts = new long[sets.size()];
      Arrays.fill(counts, f.rowsPerExecution());
      return new ExecuteBatchResult(counts);
    }
    return super.executeBatch(h, parameterValueLists);
  }
}
