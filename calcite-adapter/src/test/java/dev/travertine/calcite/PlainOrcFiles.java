package dev.travertine.calcite;

import dev.travertine.io.FileIO;
import dev.travertine.io.hadoop.FileIOFileSystem;
import dev.travertine.mergetree.part.OrcSupport;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;

/** Plain ORC files (ORC's own writer, no Travertine metadata) for the table-function tests. */
final class PlainOrcFiles {
  private PlainOrcFiles() {}

  /** Writes {@code rows} rows (id = from.., name = 'n' || id) as a plain ORC file. */
  static void write(FileIO io, String path, long from, int rows) throws Exception {
    TypeDescription schema = TypeDescription.fromString("struct<id:bigint,name:string>");
    FileIOFileSystem fs = OrcSupport.fileSystem(io);
    try (Writer w = OrcFile.createWriter(FileIOFileSystem.toPath(path), OrcFile.writerOptions(OrcSupport.conf())
        .fileSystem(fs).setSchema(schema))) {
      VectorizedRowBatch b = schema.createRowBatch();
      for (int i = 0; i < rows; i++) {
        int r = b.size++;
        ((LongColumnVector) b.cols[0]).vector[r] = from + i;
        ((BytesColumnVector) b.cols[1]).setVal(r, ("n" + (from + i)).getBytes(StandardCharsets.UTF_8));
        if (b.size == b.getMaxSize()) {
          w.addRowBatch(b);
          b.reset();
        }
      }
      if (b.size > 0) {
        w.addRowBatch(b);
      }
    }
  }

}
