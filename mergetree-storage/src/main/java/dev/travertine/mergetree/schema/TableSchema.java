package dev.travertine.mergetree.schema;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Fields;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.orc.TypeDescription;

/** The ordered columns of a table. */
public record TableSchema(List<Column> columns) implements Fields {
  @JsonCreator
  public TableSchema(@JsonProperty("columns") List<Column> columns) {
    if (columns == null || columns.isEmpty()) {
      throw new IllegalArgumentException("Invalid schema: a table needs at least one column");
    }
    Set<String> seen = new HashSet<>();
    Set<String> stored = new HashSet<>();
    for (Column c : columns) {
      if (!seen.add(c.name().toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("Duplicate column name: " + c.name());
      }
      if (!stored.add(c.storage().toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("Duplicate column storage name: " + c.storage());
      }
    }
    this.columns = List.copyOf(columns);
  }

  public int size() {
    return columns.size();
  }

  public Column column(int i) {
    return columns.get(i);
  }
  @Override
  public String name(int column) {
    return column(column).name();
  }

  @Override
  public DataType type(int column) {
    return column(column).type();
  }


  /** Index of a column by name (exact match first, then case-insensitive), or -1. */
  public int indexOf(String name) {
    return Names.find(columns, Column::name, name);
  }

  /** Index of a column, or a clear error. */
  public int require(String name) {
    int i = indexOf(name);
    if (i < 0) {
      throw new IllegalArgumentException("Unknown column: " + name);
    }
    return i;
  }

  /**
   * The ORC struct type of this schema; field names are the columns' storage names (so files
   * written before a RENAME COLUMN still match by name).
   */
  public TypeDescription orcSchema() {
    TypeDescription t = TypeDescription.createStruct();
    for (Column c : columns) {
      t.addField(c.storage(), OrcTypes.of(c.type()));
    }
    return t;
  }

  /** The ORC struct type a part of {@code format} is written in ({@link OrcTypes#stored}). */
  public TypeDescription storedSchema(int format) {
    TypeDescription t = TypeDescription.createStruct();
    for (Column c : columns) {
      t.addField(c.storage(), OrcTypes.stored(c.type(), format));
    }
    return t;
  }
}
