package dev.travertine.mergetree.schema;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.travertine.mergetree.settings.TableSettings;
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

  /** Settings sorted by name, for display. */
  public Map<String, String> sortedSettings() {
    return new TreeMap<>(settings);
  }
}
