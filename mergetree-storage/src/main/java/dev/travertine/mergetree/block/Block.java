package dev.travertine.mergetree.block;

import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Vectors;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;

/**
 * Rows of one table held in memory as fixed-size ORC column batches ("chunks" of {@link #CHUNK}
 * rows): what INSERT hands the engine, what the insert buffer keeps, and what a flush sorts.
 * Row {@code r} is at chunk {@code r >> CHUNK_SHIFT}, position {@code r & (CHUNK - 1)}.
 * Not thread-safe while being appended to; treat as immutable once handed to the engine.
 */
public final class Block {
  public static final int CHUNK_SHIFT = 10;
  public static final int CHUNK = 1 << CHUNK_SHIFT;

  private final TableSchema schema;
  private final List<VectorizedRowBatch> chunks = new ArrayList<>();
  private int rows;
  private long bytes;

  public Block(TableSchema schema) {
    this.schema = schema;
  }

  public TableSchema schema() {
    return schema;
  }

  public int rows() {
    return rows;
  }

  /** Estimated memory held, for flush thresholds. */
  public long estimatedBytes() {
    return bytes;
  }

  public List<VectorizedRowBatch> chunks() {
    return chunks;
  }

  public ColumnVector vector(int row, int column) {
    return chunks.get(row >>> CHUNK_SHIFT).cols[column];
  }

  public static int pos(int row) {
    return row & (CHUNK - 1);
  }

  /** Value at a row in storage representation. */
  public Object get(int row, int column) {
    return Vectors.get(vector(row, column), schema.column(column).type().kind(), pos(row));
  }

  /** Appends a row of storage-representation values (one per column, null allowed if nullable). */
  public void appendRow(Object[] values) {
    if (values.length != schema.size()) {
      throw new IllegalArgumentException(
          "Row has " + values.length + " values but the table has " + schema.size() + " columns");
    }
    VectorizedRowBatch chunk = chunkForAppend();
    int p = chunk.size;
    for (int c = 0; c < values.length; c++) {
      Object v = values[c];
      var col = schema.column(c);
      if (v == null && !col.nullable()) {
        throw new IllegalArgumentException("NULL value in NOT NULL column " + col.name());
      }
      DataType t = col.type();
      Vectors.set(chunk.cols[c], t, p, v);
      bytes += v == null ? 1 : Vectors.estimateBytes(chunk.cols[c], t.kind(), p);
    }
    chunk.size++;
    rows++;
  }

  /** Appends one row copied from vectors of the same schema. */
  public void appendFrom(ColumnVector[] src, int srcRow) {
    VectorizedRowBatch chunk = chunkForAppend();
    int p = chunk.size;
    for (int c = 0; c < src.length; c++) {
      var kind = schema.column(c).type().kind();
      Vectors.copy(src[c], srcRow, chunk.cols[c], p, kind);
      bytes += Vectors.estimateBytes(chunk.cols[c], kind, p);
    }
    chunk.size++;
    rows++;
  }

  /** Appends all rows of another block. */
  public void appendAll(Block other) {
    for (VectorizedRowBatch b : other.chunks) {
      for (int r = 0; r < b.size; r++) {
        appendFrom(b.cols, r);
      }
    }
  }

  /**
   * Appends a filled batch of this schema (from {@link Vectors#newBatch}, at most {@link #CHUNK}
   * rows) as the next chunk; the block takes it over. Every chunk but the last must be full, so
   * only the last batch handed over may hold fewer rows.
   */
  public void addChunk(VectorizedRowBatch batch, long estimatedBytes) {
    if (!chunks.isEmpty() && chunks.get(chunks.size() - 1).size != CHUNK) {
      throw new IllegalStateException("Only the last chunk of a block may be partly filled");
    }
    if (batch.size > CHUNK || batch.numCols != schema.size()) {
      throw new IllegalArgumentException("A chunk holds at most " + CHUNK + " rows of " + schema.size() + " columns");
    }
    chunks.add(batch);
    rows += batch.size;
    bytes += estimatedBytes;
  }

  private VectorizedRowBatch chunkForAppend() {
    VectorizedRowBatch last = chunks.isEmpty() ? null : chunks.get(chunks.size() - 1);
    if (last == null || last.size == CHUNK) {
      last = OrcBatches.newBatch(schema.orcSchema(), CHUNK);
      chunks.add(last);
    }
    return last;
  }
}
