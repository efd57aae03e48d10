package dev.travertine.formats.parquet;

import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.block.OrcBatches;
import dev.travertine.mergetree.schema.OrcTypes;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.TypeDescription;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Reads a Parquet file's row groups into column vectors of the file's own types (see
 * {@link ParquetSchemas}), {@link Block#CHUNK} rows per batch, column at a time: each column's
 * values go from Parquet's column reader straight into a long, double, decimal, timestamp or
 * bytes vector (no record assembly, no boxed value). Row groups are the unit of parallel work:
 * one reader per thread, each reading the row groups it is given. Not thread-safe.
 */
public final class ParquetFileBatches implements Closeable {
  private final String name;
  private final ParquetFileReader reader;
  private final MessageType fileSchema;
  private final TableSchema schema;

  private ParquetFileBatches(String name, ParquetFileReader reader) {
    this.name = name;
    this.reader = reader;
    this.fileSchema = reader.getFooter().getFileMetaData().getSchema();
    this.schema = ParquetSchemas.tableSchema(fileSchema, name);
  }

  /**
   * Opens a file and reads its footer; a file that is not Parquet fails with an
   * IllegalArgumentException naming it, storage failures with an IOException.
   */
  public static ParquetFileBatches open(dev.travertine.io.InputFile file, String name) throws IOException {
    ParquetFileReader r;
    try {
      r = ParquetFileReader.open(ParquetIO.input(file), ParquetReadOptions.builder().build());
    } catch (RuntimeException e) { // parquet-hadoop's word for "not a Parquet file"
      throw new IllegalArgumentException("Cannot read " + name + " as Parquet: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new IOException("Cannot read " + name + " as Parquet: " + e.getMessage(), e);
    }
    try {
      return new ParquetFileBatches(name, r);
    } catch (RuntimeException e) {
      r.close();
      throw e;
    }
  }

  /** The file's columns as Travertine types. */
  public TableSchema schema() {
    return schema;
  }

  public int rowGroups() {
    return reader.getRowGroups().size();
  }

  public long rows(int rowGroup) {
    return reader.getRowGroups().get(rowGroup).getRowCount();
  }

  public long totalRows() {
    return reader.getRecordCount();
  }

  /** Compressed bytes of a row group's column chunks. */
  public long bytes(int rowGroup) {
    return reader.getRowGroups().get(rowGroup).getCompressedSize();
  }

  /** Receives the batches of a row group. */
  public interface BatchSink {
    void accept(VectorizedRowBatch batch) throws IOException;
  }

  /**
   * Reads row group {@code rowGroup}'s columns {@code columns} (indexes into {@link #schema()})
   * into fresh batches of {@code columns.length} vectors of the file's types.
   */
  public void read(int rowGroup, int[] columns, BatchSink out) throws IOException {
    List<Type> fields = new ArrayList<>();
    for (int c : columns) {
      fields.add(fileSchema.getType(c));
    }
    MessageType requested = new MessageType(fileSchema.getName(), fields);
    reader.setRequestedSchema(requested);
    PageReadStore pages;
    try {
      pages = reader.readRowGroup(rowGroup);
    } catch (RuntimeException e) {
      throw new IOException("Cannot read row group " + rowGroup + " of " + name + ": " + e.getMessage(), e);
    }
    if (pages == null) {
      return;
    }
    ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, NO_RECORDS, requested,
        reader.getFooter().getFileMetaData().getCreatedBy());
    ColumnDescriptor[] descs = requested.getColumns().toArray(new ColumnDescriptor[0]);
    ColumnReader[] readers = new ColumnReader[columns.length];
    DataType[] types = new DataType[columns.length];
    TypeDescription orc = TypeDescription.createStruct();
    for (int i = 0; i < columns.length; i++) {
      readers[i] = store.getColumnReader(descs[i]);
      types[i] = schema.column(columns[i]).type();
      orc.addField("c" + i, OrcTypes.of(types[i]));
    }
    long left = pages.getRowCount();
    while (left > 0) {
      int n = (int) Math.min(Block.CHUNK, left);
      VectorizedRowBatch batch = OrcBatches.newBatch(orc, Block.CHUNK);
      try {
        for (int i = 0; i < columns.length; i++) {
          readColumn(readers[i], descs[i], types[i], batch.cols[i], n);
        }
      } catch (RuntimeException e) {
        throw new IOException("Cannot read row group " + rowGroup + " of " + name + ": " + e.getMessage(), e);
      }
      batch.size = n;
      left -= n;
      out.accept(batch);
    }
  }

  private static void readColumn(ColumnReader r, ColumnDescriptor d, DataType t, ColumnVector v, int n) {
    int maxDef = d.getMaxDefinitionLevel();
    PrimitiveType p = d.getPrimitiveType();
    switch (p.getPrimitiveTypeName()) {
      case BOOLEAN -> {
        long[] out = ((LongColumnVector) v).vector;
        for (int i = 0; i < n; i++) {
          if (r.getCurrentDefinitionLevel() == maxDef) {
            out[i] = r.getBoolean() ? 1 : 0;
          } else {
            Vectors.setNull(v, i);
          }
          r.consume();
        }
      }
      case INT32 -> {
        if (t.kind() == TypeKind.DECIMAL) {
          DecimalColumnVector dv = (DecimalColumnVector) v;
          for (int i = 0; i < n; i++) {
            if (r.getCurrentDefinitionLevel() == maxDef) {
              dv.vector[i].setFromLongAndScale(r.getInteger(), t.scale());
            } else {
              Vectors.setNull(v, i);
            }
            r.consume();
          }
          return;
        }
        boolean unsigned = p.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation a
            && !a.isSigned();
        long[] out = ((LongColumnVector) v).vector;
        for (int i = 0; i < n; i++) {
          if (r.getCurrentDefinitionLevel() == maxDef) {
            int x = r.getInteger();
            out[i] = unsigned ? Integer.toUnsignedLong(x) : x;
          } else {
            Vectors.setNull(v, i);
          }
          r.consume();
        }
      }
      case INT64 -> {
        if (t.kind() == TypeKind.DECIMAL) {
          DecimalColumnVector dv = (DecimalColumnVector) v;
          boolean unsigned = t.scale() == 0 && p.getLogicalTypeAnnotation()
              instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation;
          for (int i = 0; i < n; i++) {
            if (r.getCurrentDefinitionLevel() == maxDef) {
              long x = r.getLong();
              if (unsigned && x < 0) {
                dv.vector[i].set(org.apache.hadoop.hive.common.type.HiveDecimal.create(
                    new java.math.BigDecimal(Long.toUnsignedString(x))));
              } else {
                dv.vector[i].setFromLongAndScale(x, t.scale());
              }
            } else {
              Vectors.setNull(v, i);
            }
            r.consume();
          }
          return;
        }
        if (t.kind() == TypeKind.TIMESTAMP) {
          var ts = (LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) p.getLogicalTypeAnnotation();
          long perMilli = switch (ts.getUnit()) {
            case MILLIS -> 1;
            case MICROS -> 1_000;
            case NANOS -> 1_000_000;
          };
          TimestampColumnVector tv = (TimestampColumnVector) v;
          for (int i = 0; i < n; i++) {
            if (r.getCurrentDefinitionLevel() == maxDef) {
              setMillis(tv, i, Math.floorDiv(r.getLong(), perMilli));
            } else {
              Vectors.setNull(v, i);
            }
            r.consume();
          }
          return;
        }
        long[] out = ((LongColumnVector) v).vector;
        for (int i = 0; i < n; i++) {
          if (r.getCurrentDefinitionLevel() == maxDef) {
            out[i] = r.getLong();
          } else {
            Vectors.setNull(v, i);
          }
          r.consume();
        }
      }
      case INT96 -> {
        TimestampColumnVector tv = (TimestampColumnVector) v;
        for (int i = 0; i < n; i++) {
          if (r.getCurrentDefinitionLevel() == maxDef) {
            ByteBuffer b = r.getBinary().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            long nanosOfDay = b.getLong(b.position());
            int julianDay = b.getInt(b.position() + 8);
            setMillis(tv, i, (julianDay - 2_440_588L) * 86_400_000L + Math.floorDiv(nanosOfDay, 1_000_000L));
          } else {
            Vectors.setNull(v, i);
          }
          r.consume();
        }
      }
      case FLOAT -> {
        double[] out = ((DoubleColumnVector) v).vector;
        for (int i = 0; i < n; i++) {
          if (r.getCurrentDefinitionLevel() == maxDef) {
            out[i] = r.getFloat();
          } else {
            Vectors.setNull(v, i);
          }
          r.consume();
        }
      }
      case DOUBLE -> {
        double[] out = ((DoubleColumnVector) v).vector;
        for (int i = 0; i < n; i++) {
          if (r.getCurrentDefinitionLevel() == maxDef) {
            out[i] = r.getDouble();
          } else {
            Vectors.setNull(v, i);
          }
          r.consume();
        }
      }
      case BINARY, FIXED_LEN_BYTE_ARRAY -> {
        if (t.kind() == TypeKind.DECIMAL) {
          DecimalColumnVector dv = (DecimalColumnVector) v;
          for (int i = 0; i < n; i++) {
            if (r.getCurrentDefinitionLevel() == maxDef) {
              byte[] b = r.getBinary().getBytes();
              dv.vector[i].setFromBigIntegerBytesAndScale(b, t.scale());
            } else {
              Vectors.setNull(v, i);
            }
            r.consume();
          }
          return;
        }
        BytesColumnVector bv = (BytesColumnVector) v;
        for (int i = 0; i < n; i++) {
          if (r.getCurrentDefinitionLevel() == maxDef) {
            Binary b = r.getBinary();
            ByteBuffer bb = b.toByteBuffer();
            if (bb.hasArray()) {
              bv.setVal(i, bb.array(), bb.arrayOffset() + bb.position(), bb.remaining());
            } else {
              bv.setVal(i, b.getBytes());
            }
          } else {
            Vectors.setNull(v, i);
          }
          r.consume();
        }
      }
      default -> throw new IllegalStateException("Unexpected Parquet type " + p);
    }
  }

  private static void setMillis(TimestampColumnVector tv, int i, long millis) {
    tv.time[i] = millis;
    tv.nanos[i] = (int) Math.floorMod(millis, 1000L) * 1_000_000;
  }

  @Override public void close() throws IOException {
    reader.close();
  }

  /** Column readers read values themselves; the converters they are built with are never called. */
  private static final GroupConverter NO_RECORDS = new GroupConverter() {
    private final PrimitiveConverter unused = new PrimitiveConverter() { };

    @Override public Converter getConverter(int fieldIndex) {
      return unused;
    }

    @Override public void start() { }

    @Override public void end() { }
  };
}
