package dev.travertine.mergetree.part;

import dev.travertine.io.hadoop.FileIOFileSystem;
import dev.travertine.mergetree.block.Vectors;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.mergetree.schema.TypeKind;
import java.io.IOException;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;

/**
 * Reads a part's rows in the table's current schema: ORC's schema evolution matches file
 * columns by storage name and converts changed types; columns the part lacks read as their
 * default. Every reader of parts (scans, merges, mutations) goes through here.
 */
public final class PartReader implements AutoCloseable {
  private final Reader reader;
  private final RecordReader rows;
  private final ColumnMapping mapping;
  private final boolean[] include;

  private PartReader(Reader reader, RecordReader rows, ColumnMapping mapping, boolean[] include) {
    this.reader = reader;
    this.rows = rows;
    this.mapping = mapping;
    this.include = include;
  }

  /**
   * Opens a part. {@code include} is by ORC column id of the schema (0 = the struct; null = all);
   * {@code sarg} skips row groups (ignored when the file's schema differs); {@code offset/length}
   * restrict to a stripe range (length &lt; 0 = whole file).
   */
  public static PartReader open(PartRef part, TableSchema schema, boolean[] include, SearchArgument sarg,
      String[] sargColumns, long offset, long length) throws IOException {
    return open(part, schema, include, sarg, sargColumns, offset, length, null);
  }

  /** As above, with a query's remote read options (null: the storage's defaults). */
  public static PartReader open(PartRef part, TableSchema schema, boolean[] include, SearchArgument sarg,
      String[] sargColumns, long offset, long length, FileIOFileSystem.ReadOptions read) throws IOException {
    if (read == null) {
      return doOpen(part, schema, include, sarg, sargColumns, offset, length);
    }
    return FileIOFileSystem.withReadOptions(read,
        () -> doOpen(part, schema, include, sarg, sargColumns, offset, length));
  }

  private static PartReader doOpen(PartRef part, TableSchema schema, boolean[] include, SearchArgument sarg,
      String[] sargColumns, long offset, long length) throws IOException {
    ColumnMapping mapping = part.mapping(schema);
    Reader reader = part.openReader();
    try {
      Reader.Options o = reader.options().schema(schema.orcSchema()).useSelected(false);
      if (include != null) {
        o.include(include);
      }
      if (sarg != null && mapping.identical()) {
        o.searchArgument(sarg, sargColumns);
        o.allowSARGToFilter(false);
      }
      if (length >= 0) {
        o.range(offset, length);
      }
      return new PartReader(reader, reader.rows(o), mapping, include);
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  public Reader reader() {
    return reader;
  }

  /** Reads the next batch; false at the end. */
  public boolean next(VectorizedRowBatch batch) throws IOException {
    if (!rows.nextBatch(batch) || batch.size == 0) {
      return false;
    }
    if (!mapping.identical()) {
      TableSchema schema = mapping.schema();
      for (int c = 0; c < schema.size(); c++) {
        if (mapping.missing(c) && (include == null || include[c + 1]) && mapping.defaultValue(c) != null) {
          ColumnVector v = batch.cols[c];
          v.reset();
          v.isRepeating = true;
          Object value = mapping.defaultValue(c);
          if (schema.column(c).type().kind() == TypeKind.BOOLEAN) {
            value = ((Number) value).longValue() != 0; // statistics keep booleans as 0/1
          }
          Vectors.setDetached(v, schema.column(c).type(), 0, value);
        }
      }
    }
    return true;
  }

  @Override
  public void close() throws IOException {
    try {
      rows.close();
    } finally {
      reader.close();
    }
  }
}
