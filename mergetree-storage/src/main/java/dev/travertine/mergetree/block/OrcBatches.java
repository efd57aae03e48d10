package dev.travertine.mergetree.block;

import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.TypeDescription;
import org.apache.orc.impl.TypeUtils;

/** Writable ORC batches: what parts, loads and file readers fill before a block is written. */
public final class OrcBatches {
  private OrcBatches() {}

  /**
   * A writable batch for an ORC schema (a struct's fields as its columns), no nulls yet. String
   * vectors are {@link LazyBytesColumnVector}s: their buffer comes with the first value copied in.
   */
  public static VectorizedRowBatch newBatch(TypeDescription schema, int size) {
    return newBatch(schema, size, TypeDescription.RowBatchVersion.ORIGINAL);
  }

  /** As {@link #newBatch(TypeDescription, int)}, DECIMAL vectors in the form {@code version} gives. */
  public static VectorizedRowBatch newBatch(TypeDescription schema, int size, TypeDescription.RowBatchVersion version) {
    var fields = schema.getCategory() == TypeDescription.Category.STRUCT
        ? schema.getChildren() : List.of(schema);
    var batch = new VectorizedRowBatch(fields.size(), size);
    for (int c = 0; c < fields.size(); c++) {
      var f = fields.get(c);
      ColumnVector cv = switch (f.getCategory()) {
        case STRING, CHAR, VARCHAR, BINARY -> new LazyBytesColumnVector(size);
        default -> TypeUtils.createColumn(f, version, size);
      };
      cv.noNulls = true;
      batch.cols[c] = cv;
    }
    batch.size = 0; // the constructor takes the capacity for the row count
    return batch;
  }

  /** Makes a batch writable again after its rows were consumed. */
  public static void resetBatch(VectorizedRowBatch batch) {
    batch.reset();
    for (ColumnVector cv : batch.cols) {
      cv.noNulls = true;
      if (cv instanceof BytesColumnVector b) {
        b.initBuffer();
      }
    }
  }
}
