package dev.travertine.mergetree.schema;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * A secondary index declared with CREATE INDEX. The engine keeps min/max statistics for every
 * column of every granule, so an index's columns are skip-indexed already; the definition is
 * stored so that it survives restarts, shows in metadata and can be dropped.
 */
public record IndexDefinition(String name, List<String> columns, boolean unique) {
  @JsonCreator
  public IndexDefinition(@JsonProperty("name") String name, @JsonProperty("columns") List<String> columns,
      @JsonProperty("unique") boolean unique) {
    this.name = name;
    this.columns = List.copyOf(columns);
    this.unique = unique;
  }
}
