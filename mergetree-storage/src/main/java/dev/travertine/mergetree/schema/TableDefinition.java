package dev.travertine.mergetree.schema;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.travertine.mergetree.settings.TableSettings;
import dev.travertine.vector.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything CREATE TABLE declares: schema, sort key (ORDER BY; empty = insertion order),
 * partition expression, primary key, settings and indexes. Immutable; changes produce a copy.
 */
public record TableDefinition(
    String name,
    TableSchema schema,
    List<String> orderBy,
    PartitionExpression partitionBy,
    List<String> primaryKey,
    Map<String, String> settings,
    List<IndexDefinition> indexes) {

  @JsonCreator
  public TableDefinition(@JsonProperty("name") String name, @JsonProperty("schema") TableSchema schema,
      @JsonProperty("orderBy") List<String> orderBy,
      @JsonProperty("partitionBy") PartitionExpression partitionBy,
      @JsonProperty("primaryKey") List<String> primaryKey,
      @JsonProperty("settings") Map<String, String> settings,
      @JsonProperty("indexes") List<IndexDefinition> indexes) {
    this.name = name;
    this.schema = schema;
    this.primaryKey = primaryKey == null ? List.of() : canonical(schema, primaryKey);
    // A table without ORDER BY sorts by its primary key, else keeps insertion order.
    List<String> key = orderBy == null || orderBy.isEmpty() ? this.primaryKey : orderBy;
    this.orderBy = canonical(schema, key);
    if (!this.primaryKey.isEmpty() && orderBy != null && !orderBy.isEmpty()) {
      // ClickHouse: the primary key must be a prefix of the sorting key.
      if (this.primaryKey.size() > this.orderBy.size()
          || !this.orderBy.subList(0, this.primaryKey.size()).equals(this.primaryKey)) {
        throw new IllegalArgumentException("Primary key " + this.primaryKey
            + " must be a prefix of the sorting key " + this.orderBy);
      }
    }
    if (partitionBy != null) {
      int i = schema.require(partitionBy.column());
      partitionBy = new PartitionExpression(partitionBy.function(), schema.column(i).name(), partitionBy.argument());
      partitionBy.validate(schema.column(i).type());
    }
    this.partitionBy = partitionBy;
    this.settings = TableSettings.validate(settings == null ? Map.of() : settings);
    this.indexes = indexes == null ? List.of() : List.copyOf(indexes);
  }

  private static List<String> canonical(TableSchema schema, List<String> names) {
    List<String> out = new ArrayList<>();
    for (String n : names) {
      int i = schema.require(n);
      String c = schema.column(i).name();
      if (out.contains(c)) {
        throw new IllegalArgumentException("Column " + c + " appears twice in a key");
      }
      out.add(c);
    }
    return List.copyOf(out);
  }

  /** Column indexes of the sort key. */
  public int[] sortKeyIndexes() {
    return orderBy.stream().mapToInt(schema::require).toArray();
  }

  public TableSettings tableSettings() {
    return new TableSettings(settings);
  }

  public TableDefinition withName(String newName) {
    return new TableDefinition(newName, schema, orderBy, partitionBy, primaryKey, settings, indexes);
  }

  public TableDefinition withIndexes(List<IndexDefinition> newIndexes) {
    return new TableDefinition(name, schema, orderBy, partitionBy, primaryKey, settings, newIndexes);
  }

  // ---------------------------------------------------------------- column ALTERs

  /**
   * A storage name for a new column: its name when plain and unused, else made unique with
   * {@code salt}, so that data of a dropped column of the same name (still in old parts) never
   * reappears under it.
   */
  public static String newStorageName(TableSchema schema, String name, long salt) {
    String plain = name.replaceAll("[^A-Za-z0-9_]", "_");
    if (plain.isEmpty() || !Character.isLetter(plain.charAt(0))) {
      plain = "c_" + plain;
    }
    return plain + "_" + Long.toString(salt, 36);
  }

  /** ADD COLUMN at {@code position} (0 = first; size = last). */
  public TableDefinition addColumn(Column c, int position) {
    if (schema.indexOf(c.name()) >= 0) {
      throw new IllegalArgumentException("Column " + c.name() + " already exists in table " + name);
    }
    List<Column> cols = new ArrayList<>(schema.columns());
    cols.add(position, c);
    return new TableDefinition(name, new TableSchema(cols), orderBy, partitionBy, primaryKey, settings, indexes);
  }

  /** DROP COLUMN: not a key, partition or index column, not the last column. */
  public TableDefinition dropColumn(String column) {
    int i = schema.require(column);
    String n = schema.column(i).name();
    checkNotKey(n, "DROP");
    for (IndexDefinition ix : indexes) {
      if (ix.columns().contains(n)) {
        throw new IllegalArgumentException("Cannot DROP column " + n + ": index " + ix.name() + " uses it");
      }
    }
    if (schema.size() == 1) {
      throw new IllegalArgumentException("Cannot DROP column " + n + ": it is the only column of table " + name);
    }
    List<Column> cols = new ArrayList<>(schema.columns());
    cols.remove(i);
    return new TableDefinition(name, new TableSchema(cols), orderBy, partitionBy, primaryKey, settings, indexes);
  }

  /** RENAME COLUMN: keys, partition expression and indexes follow; the storage name stays. */
  public TableDefinition renameColumn(String from, String to) {
    int i = schema.require(from);
    String old = schema.column(i).name();
    int clash = schema.indexOf(to);
    if (clash >= 0 && clash != i) {
      throw new IllegalArgumentException("Column " + to + " already exists in table " + name);
    }
    List<Column> cols = new ArrayList<>(schema.columns());
    cols.set(i, cols.get(i).withName(to));
    java.util.function.UnaryOperator<String> r = n -> n.equals(old) ? to : n;
    PartitionExpression pe = partitionBy == null ? null
        : new PartitionExpression(partitionBy.function(), r.apply(partitionBy.column()), partitionBy.argument());
    List<IndexDefinition> ix = indexes.stream()
        .map(x -> new IndexDefinition(x.name(), x.columns().stream().map(r).toList(), x.unique())).toList();
    return new TableDefinition(name, new TableSchema(cols), orderBy.stream().map(r).toList(), pe,
        primaryKey.stream().map(r).toList(), settings, ix);
  }

  /**
   * MODIFY COLUMN: a new type (old parts are converted when read), nullability and default. Key
   * and partition columns keep their type; a column cannot become NOT NULL (rows may hold NULL).
   */
  public TableDefinition modifyColumn(String column, DataType type, boolean nullable, String defaultSql,
      String defaultValue) {
    int i = schema.require(column);
    Column c = schema.column(i);
    if (!type.equals(c.type())) {
      checkNotKey(c.name(), "MODIFY");
    }
    if (c.nullable() && !nullable) {
      throw new IllegalArgumentException("Cannot MODIFY column " + c.name() + " to NOT NULL: it may hold NULL");
    }
    List<Column> cols = new ArrayList<>(schema.columns());
    cols.set(i, new Column(c.name(), type, nullable, defaultSql, c.storage(), c.defaultValue() != null
        && type.equals(c.type()) ? c.defaultValue() : defaultValue));
    return new TableDefinition(name, new TableSchema(cols), orderBy, partitionBy, primaryKey, settings, indexes);
  }

  private void checkNotKey(String column, String what) {
    if (orderBy.contains(column) || primaryKey.contains(column)) {
      throw new IllegalArgumentException("Cannot " + what + " column " + column + " of table " + name
          + ": it is in the ORDER BY/PRIMARY KEY");
    }
    if (partitionBy != null && partitionBy.column().equals(column)) {
      throw new IllegalArgumentException("Cannot " + what + " column " + column + " of table " + name
          + ": it is in the PARTITION BY expression");
    }
  }

  /** Settings sorted by name, for display. */
  public Map<String, String> sortedSettings() {
    return new TreeMap<>(settings);
  }
}
