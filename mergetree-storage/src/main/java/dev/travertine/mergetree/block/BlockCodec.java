package dev.travertine.mergetree.block;

import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.TypeKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;

/**
 * A compact binary form of a {@link Block} (the write-ahead log's record payload): row count, then
 * chunk by chunk, column by column, a null flag and the value of each row.
 */
public final class BlockCodec {
  private BlockCodec() {}

  public static byte[] encode(Block block) {
    try {
      ByteArrayOutputStream bos = new ByteArrayOutputStream(64 + (int) Math.min(1 << 30, block.estimatedBytes()));
      DataOutputStream out = new DataOutputStream(bos);
      TableSchema schema = block.schema();
      out.writeInt(schema.size());
      out.writeInt(block.rows());
      for (VectorizedRowBatch chunk : block.chunks()) {
        out.writeInt(chunk.size);
        for (int c = 0; c < schema.size(); c++) {
          writeColumn(out, chunk.cols[c], schema.column(c).type().kind(), chunk.size);
        }
      }
      out.flush();
      return bos.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void writeColumn(DataOutputStream out, ColumnVector v, TypeKind kind, int n) throws IOException {
    for (int r = 0; r < n; r++) {
      int i = v.isRepeating ? 0 : r;
      boolean isNull = !v.noNulls && v.isNull[i];
      out.writeBoolean(isNull);
      if (isNull) {
        continue;
      }
      switch (kind) {
        case REAL, DOUBLE -> out.writeDouble(((DoubleColumnVector) v).vector[i]);
        case DECIMAL -> out.writeUTF(dev.travertine.vector.Decimals.hive(v, i).toString());
        case CHAR, VARCHAR -> {
          BytesColumnVector b = (BytesColumnVector) v;
          out.writeInt(b.length[i]);
          out.write(b.vector[i], b.start[i], b.length[i]);
        }
        case TIMESTAMP -> {
          TimestampColumnVector t = (TimestampColumnVector) v;
          out.writeLong(t.time[i]);
          out.writeInt(t.nanos[i]);
        }
        default -> out.writeLong(((LongColumnVector) v).vector[i]);
      }
    }
  }

  public static Block decode(TableSchema schema, byte[] data) {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
      int cols = in.readInt();
      if (cols != schema.size()) {
        throw new IllegalStateException("Block has " + cols + " columns, schema has " + schema.size());
      }
      int rows = in.readInt();
      Block block = new Block(schema);
      int read = 0;
      while (read < rows) {
        int n = in.readInt();
        Object[][] values = new Object[n][cols];
        for (int c = 0; c < cols; c++) {
          TypeKind kind = schema.column(c).type().kind();
          for (int r = 0; r < n; r++) {
            if (in.readBoolean()) {
              continue;
            }
            values[r][c] = switch (kind) {
              case REAL -> (float) in.readDouble();
              case DOUBLE -> in.readDouble();
              case DECIMAL -> new BigDecimal(in.readUTF());
              case CHAR, VARCHAR -> {
                byte[] b = new byte[in.readInt()];
                in.readFully(b);
                yield new String(b, StandardCharsets.UTF_8);
              }
              case TIMESTAMP -> {
                long t = in.readLong();
                in.readInt();
                yield t;
              }
              case BOOLEAN -> in.readLong() != 0;
              default -> in.readLong();
            };
          }
        }
        for (Object[] row : values) {
          block.appendRow(row);
        }
        read += n;
      }
      return block;
    } catch (IOException e) {
      throw new IllegalStateException("Corrupt block: " + e.getMessage(), e);
    }
  }
}
