package dev.travertine.mergetree.schema;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.travertine.vector.DataType;

/**
 * A table column. {@code defaultSql} is the column's DEFAULT expression as SQL text; the engine
 * stores it, the SQL layer evaluates it for inserts. {@code storage} is the column's name inside
 * part files: its first name, kept across RENAME COLUMN, and unique among every column the table
 * ever had, so parts written before an ALTER are read by name (see docs/design/mutations.md).
 * {@code defaultValue} (storage value as {@link dev.travertine.mergetree.part.ValueCodec} text, or
 * null for NULL) fills the column when reading parts written before it was added.
 */
public record Column(String name, DataType type, boolean nullable, String defaultSql, String storage,
    String defaultValue) {
  @JsonCreator
  public Column(@JsonProperty("name") String name, @JsonProperty("type") DataType type,
      @JsonProperty("nullable") boolean nullable, @JsonProperty("defaultSql") String defaultSql,
      @JsonProperty("storage") String storage, @JsonProperty("defaultValue") String defaultValue) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("Invalid column name: empty");
    }
    this.name = name;
    this.type = type;
    this.nullable = nullable;
    this.defaultSql = defaultSql;
    this.storage = storage == null ? name : storage;
    this.defaultValue = defaultValue;
  }

  public Column(String name, DataType type, boolean nullable, String defaultSql) {
    this(name, type, nullable, defaultSql, null, null);
  }

  public Column(String name, DataType type, boolean nullable) {
    this(name, type, nullable, null);
  }

  public Column withName(String newName) {
    return new Column(newName, type, nullable, defaultSql, storage, defaultValue);
  }
}
