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
 * row holds the column's default). Types compare in their logical form ({@link OrcTypes#of}); a
 * DECIMAL the file stores as scaled longs ({@link #scaled}) is read as the file's {@code bigint}
 * and, where its type changed since, converted by {@link ScaledDecimalReads}.
 */
public final class ColumnMapping {
  private final TableSchema schema;
  private final int[] file;
  private final boolean[] sameType;
  private final Object[] defaults;
  private final boolean identical;
  private final List<String> fileNames;
  private final TypeKind[] fileKinds;
  private final boolean[] fileScaled;
  private final TypeDescription fileSchema;
  private TypeDescription readerSchema;

  ColumnMapping(TableSchema schema, TypeDescription fileSchema) {
    this.schema = schema;
    int n = schema.size();
    this.file = new int[n];
    this.sameType = new boolean[n];
    this.defaults = new Object[n];
    List<String> names = fileSchema.getFieldNames();
    List<TypeDescription> types = fileSchema.getChildren();
    this.fileNames = names;
    this.fileSchema = fileSchema;
    this.fileKinds = new TypeKind[types.size()];
    this.fileScaled = new boolean[types.size()];
    for (int f = 0; f < types.size(); f++) {
      fileKinds[f] = OrcTypes.fromOrc(types.get(f)).kind();
      fileScaled[f] = OrcTypes.isScaled(types.get(f));
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

  /** Whether the file stores column {@code c} as scaled longs (a DECIMAL of up to 18 digits then). */
  public boolean scaled(int c) {
    return file[c] >= 0 && fileScaled[file[c]];
  }

  /** Whether column {@code c} is in the file with the table's type (logical types compared). */
  public boolean sameType(int c) {
    return file[c] >= 0 && sameType[c];
  }

  /** The file's logical type of the field holding column {@code c} (the column must be in the file). */
  public TypeDescription fileType(int c) {
    return fileSchema.getChildren().get(file[c]);
  }

  /**
   * The schema to hand ORC's reader for this part: the table's, with every column the file stores
   * as scaled longs read as the {@code bigint} it is (ORC's schema evolution would otherwise
   * convert that integer as if it were the value).
   */
  public TypeDescription readerSchema() {
    TypeDescription r = readerSchema;
    if (r == null) {
      TypeDescription logical = schema.orcSchema();
      boolean any = false;
      for (int c = 0; c < schema.size(); c++) {
        any |= scaled(c);
      }
      if (any) {
        r = TypeDescription.createStruct();
        List<String> names = logical.getFieldNames();
        for (int c = 0; c < schema.size(); c++) {
          r.addField(names.get(c), scaled(c) ? TypeDescription.createLong() : logical.getChildren().get(c));
        }
      } else {
        r = logical;
      }
      readerSchema = r;
    }
    return r;
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
