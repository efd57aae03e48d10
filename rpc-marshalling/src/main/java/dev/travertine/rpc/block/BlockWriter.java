package dev.travertine.rpc.block;

import dev.travertine.vector.DataType;
import dev.travertine.vector.Decimals;
import dev.travertine.vector.TypeKind;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.serde2.io.HiveDecimalWritable;

/**
 * Marshals column batches into blocks of the wire format (docs/design/exchange.md): one
 * self-contained {@code byte[]} per batch, columns compressed one by one. Stateless: any thread
 * marshals any batch (a writer is cheap; the scratch buffer it keeps is why it is not shared).
 */
public final class BlockWriter {
  static final byte[] MAGIC = {'T', 'R', 'V', 'B'};
  static final int VERSION = 1;
  /** codec u8, raw u32, stored u32, crc u32. */
  static final int FRAME_HEADER = 13;

  private final Codec codec;
  private final int zstdLevel;
  private final Out out = new Out();
  private byte[] raw = new byte[1 << 12];

  public BlockWriter(Codec codec, int zstdLevel) {
    this.codec = codec;
    this.zstdLevel = zstdLevel;
  }

  /**
   * The block of rows {@code sel[0 .. n)} of {@code cols} (vectors as the engine holds them:
   * repeating or not, with or without NULLs), in selection order.
   */
  public byte[] marshal(long sequence, List<String> names, List<DataType> types, ColumnVector[] cols, int[] sel, int n) {
    if (names.size() != types.size() || cols.length < types.size()) {
      throw new IllegalArgumentException(names.size() + " names, " + types.size() + " types, " + cols.length + " columns");
    }
    if (types.size() > 0xffff) {
      throw new IllegalArgumentException("A block holds at most 65535 columns, not " + types.size());
    }
    out.reset();
    out.bytes(MAGIC, 0, 4);
    out.u8(VERSION);
    out.u8(0);
    out.i64(sequence);
    out.i32(n);
    out.i16(types.size());
    for (int c = 0; c < types.size(); c++) {
      byte[] name = names.get(c).getBytes(StandardCharsets.UTF_8);
      if (name.length > 0xffff) {
        throw new IllegalArgumentException("Column name longer than 65535 bytes");
      }
      out.i16(name.length);
      out.bytes(name, 0, name.length);
      DataType t = types.get(c);
      out.u8(kindId(t.kind()));
      out.i16(t.precision());
      out.i16(t.scale());
    }
    for (int c = 0; c < types.size(); c++) {
      int rawSize = column(types.get(c), cols[c], sel, n);
      frame(rawSize);
    }
    return Arrays.copyOf(out.buf, out.pos);
  }

  /** Writes the frame of the column in {@code raw[0 .. size)}: compressed if that saves 1/8. */
  private void frame(int size) {
    int at = out.pos;
    out.ensure((int) Math.min(Integer.MAX_VALUE, FRAME_HEADER + (long) Math.max(size, codec.maxCompressed(size))));
    int data = at + FRAME_HEADER;
    Codec used = codec;
    int stored = codec == Codec.NONE ? -1 : codec.compress(raw, size, out.buf, data, zstdLevel);
    if (stored < 0 || stored > size - size / 8) {
      used = Codec.NONE;
      System.arraycopy(raw, 0, out.buf, data, size);
      stored = size;
    }
    CRC32C crc = new CRC32C();
    crc.update(out.buf, data, stored);
    out.pos = at;
    out.u8(used.id);
    out.i32(size);
    out.i32(stored);
    out.i32((int) crc.getValue());
    out.pos = data + stored;
  }

  static int kindId(TypeKind k) {
    return switch (k) {
      case BOOLEAN -> 1;
      case TINYINT -> 2;
      case SMALLINT -> 3;
      case INTEGER -> 4;
      case BIGINT -> 5;
      case REAL -> 6;
      case DOUBLE -> 7;
      case DECIMAL -> 8;
      case CHAR -> 9;
      case VARCHAR -> 10;
      case DATE -> 11;
      case TIMESTAMP -> 12;
    };
  }

  static int width(TypeKind k) {
    return switch (k) {
      case BOOLEAN, TINYINT -> 1;
      case SMALLINT -> 2;
      case INTEGER, DATE -> 4;
      case BIGINT, REAL, DOUBLE, DECIMAL -> 8;
      case TIMESTAMP -> 12;
      case CHAR, VARCHAR -> -1;
    };
  }

  /** Narrow decimals travel as one long: their unscaled value fits. */
  static boolean longDecimal(DataType t) {
    return t.precision() <= 18;
  }

  private static boolean isNull(ColumnVector v, int i) {
    return !v.noNulls && v.isNull[i];
  }

  /** Writes the column's raw bytes into {@code raw}; returns their size. */
  private int column(DataType type, ColumnVector v, int[] sel, int n) {
    boolean nulls = false;
    for (int k = 0; k < n && !v.noNulls; k++) {
      nulls |= v.isNull[v.isRepeating ? 0 : sel[k]];
    }
    int bitmap = nulls ? (n + 7) >>> 3 : 0;
    TypeKind kind = type.kind();
    byte[][] wide = null;
    int size = 1 + bitmap;
    if (kind.isString()) {
      BytesColumnVector b = (BytesColumnVector) v;
      long bytes = 4L * (n + 1);
      for (int k = 0; k < n; k++) {
        int i = b.isRepeating ? 0 : sel[k];
        bytes += isNull(b, i) ? 0 : b.length[i];
      }
      size = checked(size + bytes);
    } else if (kind == TypeKind.DECIMAL && !longDecimal(type)) {
      wide = new byte[n][];
      long bytes = n;
      boolean scaled = Decimals.scaled(v);
      for (int k = 0; k < n; k++) {
        int i = v.isRepeating ? 0 : sel[k];
        wide[k] = isNull(v, i) ? new byte[0]
            : !scaled && !((DecimalColumnVector) v).vector[i].isSet() ? ZERO
            : Decimals.hive(v, i).bigIntegerBytesScaled(type.scale());
        bytes += wide[k].length;
      }
      size = checked(size + bytes);
    } else {
      size = checked(size + (long) width(kind) * n);
    }
    if (raw.length < size) {
      raw = new byte[Math.max(size, raw.length * 2)];
    } else {
      Arrays.fill(raw, 0, size, (byte) 0);
    }
    Out w = Out.over(raw);
    w.u8(nulls ? 1 : 0);
    if (nulls) {
      for (int k = 0; k < n; k++) {
        if (v.isNull[v.isRepeating ? 0 : sel[k]]) {
          raw[1 + (k >>> 3)] |= (byte) (1 << (k & 7));
        }
      }
      w.pos += bitmap;
    }
    switch (kind) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, DATE, BIGINT -> {
        longs(((LongColumnVector) v).vector, v, sel, n, width(kind), raw, w.pos);
        w.pos += width(kind) * n;
      }
      case REAL, DOUBLE -> {
        double[] x = ((DoubleColumnVector) v).vector;
        int p = w.pos;
        for (int k = 0; k < n; k++) {
          int i = v.isRepeating ? 0 : sel[k];
          Out.I64.set(raw, p + 8 * k, isNull(v, i) ? 0 : Double.doubleToRawLongBits(x[i]));
        }
        w.pos += 8 * n;
      }
      case DECIMAL -> {
        if (wide == null && v instanceof Decimal64ColumnVector d && d.scale == type.scale()) {
          long[] x = d.vector;
          for (int k = 0; k < n; k++) {
            int i = v.isRepeating ? 0 : sel[k];
            w.i64(isNull(v, i) ? 0 : x[i]);
          }
          break;
        }
        if (wide == null && v instanceof Decimal64ColumnVector) {
          throw new IllegalStateException("DECIMAL vector at another scale than its type " + type);
        }
        HiveDecimalWritable[] x = wide != null ? null : ((DecimalColumnVector) v).vector;
        for (int k = 0; k < n; k++) {
          if (wide != null) {
            w.u8(wide[k].length);
            w.bytes(wide[k], 0, wide[k].length);
          } else {
            int i = v.isRepeating ? 0 : sel[k];
            w.i64(isNull(v, i) || !x[i].isSet() ? 0 : unscaled(x[i], type.scale()));
          }
        }
      }
      case TIMESTAMP -> {
        TimestampColumnVector t = (TimestampColumnVector) v;
        for (int k = 0; k < n; k++) {
          int i = v.isRepeating ? 0 : sel[k];
          w.i64(isNull(v, i) ? 0 : t.time[i]);
        }
        for (int k = 0; k < n; k++) {
          int i = v.isRepeating ? 0 : sel[k];
          w.i32(isNull(v, i) ? 0 : t.nanos[i]);
        }
      }
      case CHAR, VARCHAR -> {
        BytesColumnVector b = (BytesColumnVector) v;
        int off = 0;
        int p = w.pos; // offsets: 0 (written by the zero fill), then each row's end
        int data = p + 4 * (n + 1);
        for (int k = 0; k < n; k++) {
          int i = b.isRepeating ? 0 : sel[k];
          if (!isNull(b, i)) {
            System.arraycopy(b.vector[i], b.start[i], raw, data + off, b.length[i]);
            off += b.length[i];
          }
          Out.I32.set(raw, p + 4 * (k + 1), off);
        }
        w.pos = data + off;
      }
    }
    if (w.pos != size) {
      throw new IllegalStateException("Column of " + type + ": wrote " + w.pos + " bytes of " + size);
    }
    return size;
  }

  private static final byte[] ZERO = {0};

  /** Long-backed values at {@code width} bytes each into {@code raw} from {@code p} (NULL rows: 0). */
  private static void longs(long[] x, ColumnVector v, int[] sel, int n, int width, byte[] raw, int p) {
    boolean plain = v.noNulls && !v.isRepeating;
    for (int k = 0; k < n; k++) {
      int i = plain ? sel[k] : v.isRepeating ? 0 : sel[k];
      long val = plain || !isNull(v, i) ? x[i] : 0;
      switch (width) {
        case 1 -> raw[p + k] = (byte) val;
        case 2 -> Out.I16.set(raw, p + 2 * k, (short) val);
        case 4 -> Out.I32.set(raw, p + 4 * k, (int) val);
        default -> Out.I64.set(raw, p + 8 * k, val);
      }
    }
  }

  /** The unscaled value at the column's scale (a value with more digits is rounded half up). */
  private static long unscaled(HiveDecimalWritable d, int scale) {
    if (d.scale() <= scale) {
      return d.serialize64(scale);
    }
    return d.getHiveDecimal().bigDecimalValue().setScale(scale, java.math.RoundingMode.HALF_UP).unscaledValue()
        .longValueExact();
  }

  private static int checked(long size) {
    if (size > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException("A column of a block may hold at most 2 GiB; send smaller batches");
    }
    return (int) size;
  }
}
