package dev.travertine.mergetree.part;

import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.OrcTypes;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.StatsView;
import dev.travertine.vector.TypeKind;
import java.util.List;
import java.util.Locale;
import org.apache.orc.TypeDescription;

/**
 * How a part's file columns line up with the table's current schema (ClickHouse's
 * AlterConversions): by storage name, as ORC's schema evolution matches them when the part is
 * read. A column may be in the file with its type ({@link #file} ≥ 0, {@link #sameType}), in the
 * file with an older type (read converted; statistics unusable), or missing (added later: every
 * row holds the column's default).
 */
public final class ColumnMapping {
  private final TableSchema schema;
  private final int[] file;
  private final boolean[] sameType;
  private final Object[] defaults;
  private final boolean identical;
  private final List<String> fileNames;
  private final TypeKind[] fileKinds;

  ColumnMapping(TableSchema schema, TypeDescription fileSchema) {
    this.schema = schema;
    int n = schema.size();
    this.file = new int[n];
    this.sameType = new boolean[n];
    this.defaults = new Object[n];
    List<String> names = fileSchema.getFieldNames();
    List<TypeDescription> types = fileSchema.getChildren();
    this.fileNames = names;
    this.fileKinds = new TypeKind[types.size()];
    for (int f = 0; f < types.size(); f++) {
      fileKinds[f] = OrcTypes.fromOrc(types.get(f)).kind();
    }
    boolean same = names.size() == n;
    for (int c = 0; c < n; c++) {
      Column col = schema.column(c);
      file[c] = -1;
      for (int f = 0; f < names.size(); f++) {
        if (names.get(f).toLowerCase(Locale.ROOT).equals(col.storage().toLowerCase(Locale.ROOT))) {
          file[c] = f;
          sameType[c] = types.get(f).toString().equals(OrcTypes.of(col.type()).toString());
        }
      }
      same &= file[c] == c && sameType[c];
      if (file[c] < 0 && col.defaultValue() != null) {
        defaults[c] = ValueCodec.decode(col.type().kind(), col.defaultValue());
      }
    }
    this.identical = same;
  }

  public TableSchema schema() {
    return schema;
  }

  /** Whether the file has exactly the schema's columns and types, in order (no conversion at all). */
  public boolean identical() {
    return identical;
  }

  /** Whether the file lacks column {@code c} (added after the part was written). */
  public boolean missing(int c) {
    return file[c] < 0;
  }

  /** The file's column (top-level field index) holding table column {@code c}, or -1 when it lacks it. */
  public int fileColumn(int c) {
    return file[c];
  }

  /** The value a missing column reads as (storage representation; null = NULL). */
  public Object defaultValue(int c) {
    return defaults[c];
  }

  /** The storage name of file column {@code f} (part statistics are keyed by it). */
  public String fileColumnName(int f) {
    return fileNames.get(f);
  }

  /** The type of file column {@code f}, as its statistics are encoded. */
  public TypeKind fileColumnKind(int f) {
    return fileKinds[f];
  }

  /** Statistics recorded by file column, seen by table column. */
  public StatsView remap(StatsView s) {
    if (identical) {
      return s;
    }
    return new StatsView() {
      @Override
      public Object min(int c) {
        return file[c] < 0 ? defaults[c] : sameType[c] ? s.min(file[c]) : null;
      }

      @Override
      public Object max(int c) {
        return file[c] < 0 ? defaults[c] : sameType[c] ? s.max(file[c]) : null;
      }

      @Override
      public boolean hasNull(int c) {
        return file[c] < 0 ? defaults[c] == null : !sameType[c] || s.hasNull(file[c]);
      }

      @Override
      public boolean allNull(int c) {
        return file[c] < 0 ? defaults[c] == null : sameType[c] && s.allNull(file[c]);
      }
    };
  }
}
