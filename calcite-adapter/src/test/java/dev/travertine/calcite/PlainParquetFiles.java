package dev.travertine.calcite;

import dev.travertine.formats.parquet.ParquetIO;
import dev.travertine.formats.parquet.ParquetRowWriter;
import dev.travertine.io.FileIO;
import dev.travertine.io.OutputFile;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.util.List;

/** Plain Parquet files (id BIGINT NOT NULL, name VARCHAR, dt DATE) written by parquet-hadoop's writer. */
final class PlainParquetFiles {
  private PlainParquetFiles() {}

  static final TableSchema SCHEMA = new TableSchema(List.of(
      new Column("id", DataType.of(TypeKind.BIGINT), false),
      new Column("name", DataType.varchar(-1), true),
      new Column("dt", DataType.of(TypeKind.DATE), true)));

  /** Rows {@code from … from + rows - 1}: name 'n' + id (NULL every 10th), day id % 1000. */
  static void write(FileIO io, String path, long from, int rows) throws Exception {
    OutputFile.AbortableOutputStream out = io.newOutputFile(path).create();
    try (ParquetRowWriter w = new ParquetRowWriter(ParquetIO.output(path, out), SCHEMA, 256 << 10)) {
      for (long id = from; id < from + rows; id++) {
        w.write(new Object[] {id, id % 10 == 0 ? null : "n" + id, (int) (id % 1000)});
      }
    } catch (Exception e) {
      out.abort();
      throw e;
    }
    out.close();
  }
}
