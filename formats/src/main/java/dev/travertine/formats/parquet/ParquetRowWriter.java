package dev.travertine.formats.parquet;

import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import java.io.Closeable;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes rows of storage values (see {@link dev.travertine.vector.TypeKind}) as a
 * Parquet file with the schema of {@link ParquetSchemas#messageType}: what
 * {@code SELECT … INTO OUTFILE 'x.parquet'} writes. ZSTD-compressed row groups of 128 MiB.
 */
public final class ParquetRowWriter implements Closeable {
  private final ParquetWriter<Object[]> writer;

  public ParquetRowWriter(OutputFile out, TableSchema schema) throws IOException {
    this(out, schema, 128L << 20);
  }

  /** @param rowGroupBytes the (approximate) size of a row group before compression */
  public ParquetRowWriter(OutputFile out, TableSchema schema, long rowGroupBytes) throws IOException {
    MessageType type = ParquetSchemas.messageType(schema);
    DataType[] types = schema.columns().stream().map(c -> c.type()).toArray(DataType[]::new);
    String[] names = schema.columns().stream().map(c -> c.name()).toArray(String[]::new);
    writer = new Builder(out, new RowSupport(type, types, names))
        .withCompressionCodec(CompressionCodecName.ZSTD)
        .withConf(new Configuration(false))
        .withRowGroupSize(rowGroupBytes)
        .build();
  }

  /** Adds one row; NULL in a NOT NULL column is refused. */
  public void write(Object[] row) throws IOException {
    writer.write(row);
  }

  @Override public void close() throws IOException {
    writer.close();
  }

  private static final class Builder extends ParquetWriter.Builder<Object[], Builder> {
    private final RowSupport support;

    Builder(OutputFile out, RowSupport support) {
      super(out);
      this.support = support;
    }

    @Override protected Builder self() {
      return this;
    }

    @Override protected WriteSupport<Object[]> getWriteSupport(Configuration conf) {
      return support;
    }
  }

  private static final class RowSupport extends WriteSupport<Object[]> {
    private final MessageType type;
    private final DataType[] types;
    private final String[] names;
    private RecordConsumer out;

    RowSupport(MessageType type, DataType[] types, String[] names) {
      this.type = type;
      this.types = types;
      this.names = names;
    }

    @Override public WriteContext init(Configuration configuration) {
      return new WriteContext(type, new HashMap<>());
    }

    @Override public void prepareForWrite(RecordConsumer recordConsumer) {
      this.out = recordConsumer;
    }

    @Override public void write(Object[] row) {
      out.startMessage();
      for (int i = 0; i < types.length; i++) {
        Object v = row[i];
        if (v == null) {
          if (type.getType(i).getRepetition() == org.apache.parquet.schema.Type.Repetition.REQUIRED) {
            throw new IllegalArgumentException("NULL value in NOT NULL column " + names[i]);
          }
          continue;
        }
        out.startField(names[i], i);
        DataType t = types[i];
        switch (t.kind()) {
          case BOOLEAN -> out.addBoolean((Boolean) v);
          case TINYINT, SMALLINT, INTEGER, DATE -> out.addInteger(((Number) v).intValue());
          case BIGINT, TIMESTAMP -> out.addLong(((Number) v).longValue());
          case REAL -> out.addFloat(((Number) v).floatValue());
          case DOUBLE -> out.addDouble(((Number) v).doubleValue());
          case CHAR, VARCHAR -> out.addBinary(Binary.fromConstantByteArray(v.toString().getBytes(StandardCharsets.UTF_8)));
          case DECIMAL -> {
            BigDecimal d = (v instanceof BigDecimal b ? b : new BigDecimal(v.toString()))
                .setScale(t.scale(), RoundingMode.HALF_UP);
            if (t.precision() <= 9) {
              out.addInteger(d.unscaledValue().intValueExact());
            } else if (t.precision() <= 18) {
              out.addLong(d.unscaledValue().longValueExact());
            } else {
              out.addBinary(Binary.fromConstantByteArray(fixed(d.unscaledValue().toByteArray(),
                  ParquetSchemas.decimalBytes(t.precision()))));
            }
          }
        }
        out.endField(names[i], i);
      }
      out.endMessage();
    }

    /** Sign-extends a two's complement to the fixed length. */
    private static byte[] fixed(byte[] b, int len) {
      if (b.length == len) {
        return b;
      }
      byte[] out = new byte[len];
      byte pad = (byte) (b[0] < 0 ? 0xff : 0);
      int off = len - b.length;
      java.util.Arrays.fill(out, 0, off, pad);
      System.arraycopy(b, 0, out, off, b.length);
      return out;
    }
  }
}
