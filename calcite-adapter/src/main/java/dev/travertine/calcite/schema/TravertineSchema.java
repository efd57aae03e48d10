package dev.travertine.calcite.schema;

import com.google.common.collect.ImmutableMultimap;
import com.google.common.collect.Multimap;
import dev.travertine.calcite.file.FileTable;
import dev.travertine.mergetree.Database;
import dev.travertine.mergetree.MergeTreeTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AggregateFunctionImpl;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.schema.impl.TableFunctionImpl;
import org.apache.calcite.schema.impl.ViewTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The default schema ({@code main}) of a connection: the database's tables and views, the
 * {@code numbers(n)} table function and type aliases (TEXT, STRING). Reads the catalog on every
 * lookup, so DDL from any connection is visible at once.
 */
public final class TravertineSchema extends AbstractSchema {
  public static final String NAME = "main";

  private final TravertineSession session;
  private final Map<MergeTreeTable, TravertineTable> tableCache = new ConcurrentHashMap<>();
  private volatile SchemaPlus plus;

  public TravertineSchema(TravertineSession session) {
    this.session = session;
  }

  public TravertineSession session() {
    return session;
  }

  public void setPlusPublic(SchemaPlus plus) {
    this.plus = plus;
  }

  /** The session of an embedded connection ({@code jdbc:travertine:DIR}). */
  public static TravertineSession session(java.sql.Connection c) throws java.sql.SQLException {
    return session(c.unwrap(org.apache.calcite.jdbc.CalciteConnection.class).getRootSchema());
  }

  /** The session of the connection owning a root schema. */
  public static TravertineSession session(SchemaPlus root) {
    SchemaPlus main = root.getSubSchema(NAME);
    if (main == null) {
      throw new IllegalStateException("Not a Travertine connection: no schema " + NAME);
    }
    try {
      return main.unwrap(TravertineSchema.class).session();
    } catch (ClassCastException e) {
      throw new IllegalStateException("Not a Travertine connection", e);
    }
  }

  @Override public boolean isMutable() {
    return true;
  }

  @Override protected Map<String, Table> getTableMap() {
    Database db = session.database();
    Map<String, Table> out = new LinkedHashMap<>();
    for (MergeTreeTable t : db.tables()) {
      out.put(t.definition().name(), tableCache.computeIfAbsent(t, x -> new TravertineTable(x, session)));
    }
    tableCache.keySet().retainAll(db.tables());
    return out;
  }

  @Override protected Multimap<String, Function> getFunctionMultimap() {
    ImmutableMultimap.Builder<String, Function> b = ImmutableMultimap.builder();
    b.put("numbers", TableFunctionImpl.create(NumbersTableFunction.class, "numbers"));
    b.put("check_table", TableFunctionImpl.create(CheckTableFunction.class, "check"));
    b.put("describe_table", TableFunctionImpl.create(ShowFunctions.class, "describe"));
    b.put("show_create_table", TableFunctionImpl.create(ShowFunctions.class, "showCreate"));
    b.put("exists_table", TableFunctionImpl.create(ShowFunctions.class, "exists"));
    b.put("formatReadableSize", ScalarFunctionImpl.create(ClickHouseUdfs.class, "formatReadableSize"));
    b.put("formatReadableQuantity", ScalarFunctionImpl.create(ClickHouseUdfs.class, "formatReadableQuantity"));
    b.put("tv_quantile", AggregateFunctionImpl.create(ClickHouseUdfs.Quantile.class));
    b.put("tv_quantile_exact", AggregateFunctionImpl.create(ClickHouseUdfs.QuantileExact.class));
    for (String scheme : List.of("file", "s3", "hdfs")) {
      b.put(scheme, FileTable.macro(session, scheme));
    }
    SchemaPlus p = plus;
    if (p != null) {
      for (var v : session.database().views()) {
        b.put(v.name(), ViewTable.viewMacro(p, v.sql(), v.schemaPath(), List.of(NAME, v.name()), false));
      }
    }
    return b.build();
  }

  /** Type aliases the SQL corpus and ClickHouse users write; Calcite looks types up in the root schema. */
  public static void addTypeAliases(SchemaPlus root) {
    RelProtoDataType varchar = tf -> tf.createTypeWithNullability(tf.createSqlType(SqlTypeName.VARCHAR), true);
    root.add("TEXT", varchar);
    root.add("STRING", varchar);
  }
}
