package dev.travertine.mergetree.part;

import dev.travertine.io.FileIO;
import dev.travertine.io.OutputFile;
import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.block.OrcBatches;
import dev.travertine.mergetree.schema.OrcTypes;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Decimals;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.zip.CRC32;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.orc.impl.PhysicalFsWriter;
import org.apache.orc.impl.writer.WriterEncryptionVariant;

/**
 * Writes one part: rows (already in sort order) into an ORC file whose row index stride is the
 * granularity, cutting stripes only at granule boundaries, while computing the granule index and
 * the file's CRC32. The file appears at its path only on {@link #finish()} (see {@link OutputFile}).
 */
public final class PartWriter implements AutoCloseable {
  /** Granules per stripe: stripes are cut here, never inside a granule. */
  static final int GRANULES_PER_STRIPE_ROWS = 1 << 20;

  private final TableSchema schema;
  private final TypeKind[] kinds;
  private final int granularity;
  private final long stripeRows;
  private final OutputFile.AbortableOutputStream out;
  private final CRC32 crc = new CRC32();
  private final Writer writer;
  private final VectorizedRowBatch batch;
  private final GranuleIndex.Builder index;
  private final ColumnSketches sketches;
  private long rowsWritten;
  private boolean done;
  private final String directStrings;
  private final int format;

  /** Per column, the scale of a DECIMAL the file stores as scaled longs; -1 for other columns. */
  private final int[] scaledScale;

  /** Granules per stripe for a granularity: stripes hold exactly this many granules (but the last). */
  public static int granulesPerStripe(int granularity) {
    return Math.max(1, GRANULES_PER_STRIPE_ROWS / granularity);
  }

  public PartWriter(FileIO io, String path, TableSchema schema, int granularity, CompressionKind compression,
      int compressionBufferSize) throws IOException {
    this(io, path, schema, granularity, compression, compressionBufferSize, java.util.Set.of());
  }

  /**
   * @param directStrings string columns (file names) to write without a dictionary: ORC builds a
   *     dictionary in a red-black tree of byte comparisons, which for columns of many distinct long
   *     values costs more than the rest of the part's writing, and ORC decides from the first
   *     granule only (docs/design/ingest.md)
   */
  public PartWriter(FileIO io, String path, TableSchema schema, int granularity, CompressionKind compression,
      int compressionBufferSize, java.util.Set<String> directStrings) throws IOException {
    this(io, path, schema, granularity, compression, compressionBufferSize, directStrings, OrcTypes.CURRENT_FORMAT);
  }

  /**
   * As above, the file in part format {@code format} ({@link OrcTypes#FORMAT_ORC_TYPES} or
   * {@link OrcTypes#FORMAT_SCALED_DECIMALS}; the part's metadata records the same).
   */
  public PartWriter(FileIO io, String path, TableSchema schema, int granularity, CompressionKind compression,
      int compressionBufferSize, java.util.Set<String> directStrings, int format) throws IOException {
    this.format = format;
    this.scaledScale = new int[schema.size()];
    for (int c = 0; c < schema.size(); c++) {
      DataType t = schema.column(c).type();
      scaledScale[c] = t.kind() == TypeKind.DECIMAL && OrcTypes.storesScaled(format, t.precision()) ? t.scale() : -1;
    }
    this.directStrings = String.join(",", new java.util.TreeSet<>(directStrings));
    this.schema = schema;
    this.kinds = new TypeKind[schema.size()];
    for (int i = 0; i < kinds.length; i++) {
      kinds[i] = schema.column(i).type().kind();
    }
    this.granularity = granularity;
    long granulesPerStripe = granulesPerStripe(granularity);
    this.stripeRows = granulesPerStripe * granularity;
    this.index = new GranuleIndex.Builder(schema, granularity);
    this.sketches = ColumnSketches.forSchema(schema);
    this.out = io.newOutputFile(path).create();
    OutputStream checksummed = new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        crc.update(b);
        out.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        crc.update(b, off, len);
        out.write(b, off, len);
      }
    };
    try {
      OrcFile.WriterOptions opts = OrcFile.writerOptions(OrcSupport.conf())
          .setSchema(schema.storedSchema(format))
          .rowIndexStride(granularity)
          .compress(compression)
          .bufferSize(compressionBufferSize)
          .stripeSize(1L << 31)
          .blockPadding(false)
          .useUTCTimestamp(true)
          .directEncodingColumns(this.directStrings)
          .overwrite(true);
      FSDataOutputStream fsOut = new FSDataOutputStream(checksummed, null);
      opts.physicalWriter(new PhysicalFsWriter(fsOut, opts, new WriterEncryptionVariant[0]));
      opts.fileSystem(OrcSupport.fileSystem(io));
      this.writer = OrcFile.createWriter(dev.travertine.io.hadoop.FileIOFileSystem.toPath(path), opts);
    } catch (IOException | RuntimeException e) {
      out.abort();
      throw e;
    }
    int size;
    if (granularity <= 1024) {
      size = (1024 / granularity) * granularity;
    } else if (granularity % 1024 == 0) {
      size = 1024;
    } else {
      size = granularity;
    }
    this.batch = OrcBatches.newBatch(schema.orcSchema(), size, format >= OrcTypes.FORMAT_SCALED_DECIMALS
        ? TypeDescription.RowBatchVersion.USE_DECIMAL64 : TypeDescription.RowBatchVersion.ORIGINAL);
  }

  /** Appends one row copied from vectors laid out like the table schema. */
  public void append(ColumnVector[] src, int row) throws IOException {
    int p = batch.size;
    for (int c = 0; c < kinds.length; c++) {
      Vectors.copy(src[c], row, batch.cols[c], p, kinds[c]);
    }
    batch.size++;
    afterAppend();
  }

  /**
   * Appends rows {@code order[from..to)} of a block, in that order. Strings are referenced, not
   * copied: the block must not change until this writer is finished (blocks handed to the engine
   * never do).
   */
  public void append(Block block, int[] order, int from, int to) throws IOException {
    if (from == 0 && to == block.rows() && isIdentity(order) && batch.size == 0 && rowsWritten == 0
        && granularity % Block.CHUNK == 0) {
      // Rows already in order: hand the block's chunks to ORC as they are, no copy.
      for (VectorizedRowBatch chunk : block.chunks()) {
        write(chunk);
        rowsWritten += chunk.size;
        if (chunk.size == Block.CHUNK && rowsWritten % stripeRows == 0) {
          writer.writeIntermediateFooter();
        }
      }
      return;
    }
    // Column at a time: one column's values of a run of rows, then the next column, so the
    // random reads of a sort order stay within one column's arrays (reached in two steps).
    List<VectorizedRowBatch> chunks = block.chunks();
    ColumnVector[][] byChunk = new ColumnVector[kinds.length][chunks.size()];
    for (int ch = 0; ch < chunks.size(); ch++) {
      for (int c = 0; c < kinds.length; c++) {
        byChunk[c][ch] = chunks.get(ch).cols[c];
      }
    }
    SortedColumn[] sorted = SortedColumn.scatter(block, kinds, order, from, to);
    // the columns not scattered are gathered in sort order: their values by chunk
    Object[] values = new Object[kinds.length];
    boolean[] anyNulls = new boolean[kinds.length];
    for (int c = 0; c < kinds.length; c++) {
      if (sorted[c] != null) {
        continue;
      }
      ColumnVector[] vs = byChunk[c];
      if (kinds[c].isLongBacked()) {
        long[][] a = new long[vs.length][];
        for (int ch = 0; ch < vs.length; ch++) {
          a[ch] = repeated(vs[ch]) ? null : ((LongColumnVector) vs[ch]).vector;
        }
        values[c] = a;
      } else if (kinds[c].isDoubleBacked()) {
        double[][] a = new double[vs.length][];
        for (int ch = 0; ch < vs.length; ch++) {
          a[ch] = repeated(vs[ch]) ? null : ((DoubleColumnVector) vs[ch]).vector;
        }
        values[c] = a;
      }
      for (ColumnVector v : vs) {
        anyNulls[c] |= !v.noNulls || v.isRepeating;
      }
    }
    int k = from;
    while (k < to) {
      long toStripeEnd = stripeRows - (rowsWritten + batch.size) % stripeRows;
      int n = (int) Math.min(Math.min(batch.getMaxSize() - batch.size, toStripeEnd), to - k);
      int p = batch.size;
      for (int c = 0; c < kinds.length; c++) {
        ColumnVector dst = batch.cols[c];
        if (sorted[c] != null) {
          sorted[c].copyTo(dst, k - from, p, n);
        } else if (values[c] instanceof long[][] a && !anyNulls[c]) {
          long[] d = ((LongColumnVector) dst).vector;
          for (int j = 0; j < n; j++) {
            int r = order == null ? k + j : order[k + j];
            d[p + j] = a[r >>> Block.CHUNK_SHIFT][r & (Block.CHUNK - 1)];
          }
        } else if (values[c] instanceof double[][] a && !anyNulls[c]) {
          double[] d = ((DoubleColumnVector) dst).vector;
          for (int j = 0; j < n; j++) {
            int r = order == null ? k + j : order[k + j];
            d[p + j] = a[r >>> Block.CHUNK_SHIFT][r & (Block.CHUNK - 1)];
          }
        } else {
          ColumnVector[] vs = byChunk[c];
          for (int j = 0; j < n; j++) {
            int r = order == null ? k + j : order[k + j];
            Vectors.copyReferencing(vs[r >>> Block.CHUNK_SHIFT], Block.pos(r), dst, p + j, kinds[c]);
          }
        }
      }
      batch.size += n;
      k += n;
      afterAppend();
    }
  }

  /** The part format the file is written in. */
  public int format() {
    return format;
  }

  /**
   * The batch to hand ORC's writer: timestamps in their stored form ({@link OrcTimestamps}), and
   * the DECIMAL columns the file stores as scaled longs as {@code Decimal64ColumnVector}s of the
   * column's scale (a batch of Hive decimal objects, as loads and inserts make, is converted into a
   * copy; {@code batch} is left as it is).
   */
  private VectorizedRowBatch forWriter(VectorizedRowBatch batch) {
    VectorizedRowBatch out = OrcTimestamps.forWriter(batch);
    for (int c = 0; c < scaledScale.length; c++) {
      if (scaledScale[c] < 0 || out.cols[c] instanceof Decimal64ColumnVector d && d.scale == scaledScale[c]) {
        continue;
      }
      if (out == batch) {
        out = new VectorizedRowBatch(batch.cols.length, batch.size);
        out.size = batch.size;
        out.cols = batch.cols.clone();
      }
      out.cols[c] = scaled(batch.cols[c], batch.size, schema.column(c).type());
    }
    return out;
  }

  private static Decimal64ColumnVector scaled(ColumnVector v, int size, DataType type) {
    Decimal64ColumnVector d = Decimals.newScaled(Math.max(size, 1), type);
    d.isRepeating = v.isRepeating;
    d.noNulls = v.noNulls;
    int n = v.isRepeating ? Math.min(size, 1) : size;
    DecimalColumnVector objects = v instanceof DecimalColumnVector o && o.scale == type.scale() ? o : null;
    for (int i = 0; i < n; i++) {
      d.isNull[i] = !v.noNulls && v.isNull[i];
      if (d.isNull[i]) {
        continue;
      }
      if (objects != null) {
        d.vector[i] = objects.vector[i].serialize64(type.scale()); // the vector's precision (≤ 18) was enforced
      } else {
        Decimals.copy(v, i, d, i);
      }
    }
    return d;
  }

  private static boolean repeated(ColumnVector v) {
    return v.isRepeating;
  }

  private static boolean isIdentity(int[] order) {
    if (order == null) {
      return true;
    }
    for (int i = 0; i < order.length; i++) {
      if (order[i] != i) {
        return false;
      }
    }
    return true;
  }

  /** Hands a batch to ORC, its values to the granule index and the columns' sketches. */
  private void write(VectorizedRowBatch b) throws IOException {
    index.add(b);
    VectorizedRowBatch stored = forWriter(b);
    sketches.add(stored);
    writer.addRowBatch(stored);
  }

  private void afterAppend() throws IOException {
    if (batch.size == batch.getMaxSize() || (rowsWritten + batch.size) % stripeRows == 0) {
      flushBatch();
    }
  }

  private java.util.function.BooleanSupplier cancelled = () -> false;

  /**
   * Makes the writer give up at its next block once {@code cancelled} says so: it throws
   * {@link java.util.concurrent.CancellationException}, and closing it then leaves no file
   * (background merges and mutations, when the database closes).
   */
  public void cancelWhen(java.util.function.BooleanSupplier cancelled) {
    this.cancelled = cancelled;
  }

  private void flushBatch() throws IOException {
    if (batch.size == 0) {
      return;
    }
    if (cancelled.getAsBoolean()) {
      throw new java.util.concurrent.CancellationException("cancelled: the database is closing");
    }
    write(batch);
    rowsWritten += batch.size;
    OrcBatches.resetBatch(batch);
    if (rowsWritten % stripeRows == 0) {
      writer.writeIntermediateFooter();
    }
  }

  public long rows() {
    return rowsWritten + batch.size;
  }

  /** Result of a finished part file. */
  public record Written(long rows, long bytes, String checksum, GranuleIndex index) {}

  /** Closes the file, publishing it. */
  public Written finish() throws IOException {
    try {
      flushBatch();
      GranuleIndex gi = index.build();
      writer.addUserMetadata(OrcSupport.GRANULE_INDEX_KEY, ByteBuffer.wrap(gi.serialize()));
      writer.addUserMetadata(OrcSupport.DISTINCT_KEY, ByteBuffer.wrap(sketches.serialize()));
      if (!directStrings.isEmpty()) {
        writer.addUserMetadata(OrcSupport.DIRECT_STRINGS_KEY,
            ByteBuffer.wrap(directStrings.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      }
      writer.close();
      out.close(); // publishes the file: ORC closes only its wrapper, which does not close ours
      done = true;
      return new Written(rowsWritten, out.position(), String.format("%08x", crc.getValue()), gi);
    } catch (IOException | RuntimeException e) {
      abort();
      throw e;
    }
  }

  /** Discards the file. */
  public void abort() {
    if (!done) {
      done = true;
      out.abort();
    }
  }

  @Override
  public void close() {
    abort();
  }

  public TableSchema schema() {
    return schema;
  }
}
