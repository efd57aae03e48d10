package dev.travertine.mergetree.schema;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A table column. {@code defaultSql} is the column's DEFAULT expression as SQL text; the engine
 * stores it, the SQL layer evaluates it.
 */
public record Column(String name, DataType type, boolean nullable, String defaultSql) {
  @JsonCreator
  public Column(@JsonProperty("name") String name, @JsonProperty("type") DataType type,
      @JsonProperty("nullable") boolean nullable, @JsonProperty("defaultSql") String defaultSql) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("Invalid column name: empty");
    }
    this.name = name;
    this.type = type;
    this.nullable = nullable;
    this.defaultSql = defaultSql;
  }

  public Column(String name, DataType type, boolean nullable) {
    this(name, type, nullable, null);
  }
}
