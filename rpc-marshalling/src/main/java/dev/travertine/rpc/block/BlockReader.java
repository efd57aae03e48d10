package dev.travertine.rpc.block;

import dev.travertine.exec.Columns;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/**
 * Unmarshals blocks of the wire format (docs/design/exchange.md) into dense column vectors,
 * checking every size and checksum: a damaged block fails with {@link CorruptBlockException}.
 * Stateless and thread-safe.
 */
public final class BlockReader {
  private BlockReader() {}

  /** The largest raw column a reader accepts (a writer refuses larger ones). */
  static final int MAX_RAW_BYTES = Integer.MAX_VALUE - 64;

  private static final TypeKind[] KINDS = new TypeKind[13];

  static {
    for (TypeKind k : TypeKind.values()) {
      KINDS[BlockWriter.kindId(k)] = k;
    }
  }

  /** A cursor over the block's bytes that fails cleanly past their end. */
  private static final class In {
    final byte[] b;
    /** Where the bytes end (a scratch buffer is longer than what it holds). */
    final int end;
    int pos;
    long sequence = -1;

    In(byte[] b) {
      this(b, 0, b.length, false);
    }

    /**
     * Over {@code b[pos .. end)}; {@code scratch}: {@code b} is the thread's scratch buffer, which
     * its next frame overwrites, so vectors must not point into it.
     */
    In(byte[] b, int pos, int end, boolean scratch) {
      this.b = b;
      this.start = pos;
      this.pos = pos;
      this.end = end;
      this.scratch = scratch;
    }

    final boolean scratch;
    /** Where the bytes begin in {@code b}. */
    final int start;

    void need(int n, String what) {
      if (n < 0 || pos + n > end || pos + n < 0) {
        throw corrupt(this, "truncated in " + what + " (" + (end - start) + " bytes)");
      }
    }

    int u8(String what) {
      need(1, what);
      return b[pos++] & 0xff;
    }

    int i16(String what) {
      need(2, what);
      short v = (short) Out.I16.get(b, pos);
      pos += 2;
      return v;
    }

    int i32(String what) {
      need(4, what);
      int v = (int) Out.I32.get(b, pos);
      pos += 4;
      return v;
    }

    long i64(String what) {
      need(8, what);
      long v = (long) Out.I64.get(b, pos);
      pos += 8;
      return v;
    }
  }

  static CorruptBlockException corrupt(In in, String what) {
    return new CorruptBlockException("Corrupt block" + (in.sequence >= 0 ? " " + in.sequence : "") + ": " + what);
  }

  /**
   * The block's columns. String vectors of uncompressed (NONE) frames point into {@code block}: the
   * caller hands the array over and does not write to it again.
   */
  public static WireBlock unmarshal(byte[] block) {
    In in = new In(block);
    in.need(4, "the magic");
    if (!Arrays.equals(block, 0, 4, BlockWriter.MAGIC, 0, 4)) {
      throw corrupt(in, "not a Travertine block (wrong magic)");
    }
    in.pos = 4;
    int version = in.u8("the version");
    if (version != BlockWriter.VERSION) {
      throw corrupt(in, "format version " + version + ", this node reads version " + BlockWriter.VERSION);
    }
    in.u8("the flags");
    in.sequence = in.i64("the sequence number");
    int rows = in.i32("the row count");
    if (rows < 0) {
      throw corrupt(in, "negative row count " + rows);
    }
    int columns = in.i16("the column count") & 0xffff;
    List<String> names = new ArrayList<>(columns);
    List<DataType> types = new ArrayList<>(columns);
    for (int c = 0; c < columns; c++) {
      int len = in.i16("a column name") & 0xffff;
      in.need(len, "a column name");
      names.add(new String(block, in.pos, len, StandardCharsets.UTF_8));
      in.pos += len;
      int kind = in.u8("a column type");
      if (kind <= 0 || kind >= KINDS.length) {
        throw corrupt(in, "column " + names.get(c) + " has unknown type id " + kind);
      }
      int precision = in.i16("a column type");
      int scale = in.i16("a column type");
      try {
        types.add(new DataType(KINDS[kind], precision, scale));
      } catch (IllegalArgumentException e) {
        throw corrupt(in, "column " + names.get(c) + ": " + e.getMessage());
      }
    }
    ColumnVector[] cols = new ColumnVector[columns];
    for (int c = 0; c < columns; c++) {
      In raw = frame(in, names.get(c));
      cols[c] = column(in, names.get(c), types.get(c), raw, rows);
    }
    if (in.pos != block.length) {
      throw corrupt(in, (block.length - in.pos) + " bytes after the last column");
    }
    return new WireBlock(in.sequence, names, types, cols, rows);
  }

  /** Raw columns up to this size are decompressed into a buffer of the thread, reused. */
  private static final int MAX_SCRATCH = 8 << 20;
  private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[1 << 16]);

  /**
   * The raw bytes of the next frame, checked: a stored (NONE) frame is read where it is in the
   * block; a compressed one is decompressed into the thread's scratch buffer (valid until its next
   * frame) when small enough, else into an array of its own.
   */
  private static In frame(In in, String column) {
    String what = "the frame of column " + column;
    int id = in.u8(what);
    Codec codec = Codec.ofId(id);
    if (codec == null) {
      throw corrupt(in, what + " has unknown codec " + id);
    }
    int rawSize = in.i32(what);
    int stored = in.i32(what);
    int crc = in.i32(what);
    if (rawSize < 0 || stored < 0) {
      throw corrupt(in, what + " has negative sizes");
    }
    in.need(stored, what);
    CRC32C check = new CRC32C();
    check.update(in.b, in.pos, stored);
    if ((int) check.getValue() != crc) {
      throw corrupt(in, what + ": checksum mismatch");
    }
    // The header's sizes are not under the checksum: allocate only what the stored bytes can hold.
    if (rawSize > MAX_RAW_BYTES || !codec.plausible(in.b, in.pos, stored, rawSize)) {
      throw corrupt(in, what + ": " + stored + " " + codec + " bytes cannot hold " + rawSize + " bytes");
    }
    int at = in.pos;
    in.pos += stored;
    if (codec == Codec.NONE) {
      return new In(in.b, at, at + stored, false);
    }
    boolean scratch = rawSize <= MAX_SCRATCH;
    byte[] raw;
    if (!scratch) {
      raw = new byte[rawSize];
    } else {
      raw = SCRATCH.get();
      if (raw.length < rawSize + Codec.DECODE_SLACK) {
        raw = new byte[Math.max(rawSize, Math.min(MAX_SCRATCH, 2 * raw.length)) + Codec.DECODE_SLACK];
        SCRATCH.set(raw);
      }
    }
    if (!codec.decompress(in.b, at, stored, raw, rawSize)) {
      throw corrupt(in, what + ": " + codec + " data does not decompress to " + rawSize + " bytes");
    }
    return new In(raw, 0, rawSize, scratch);
  }

  private static ColumnVector column(In block, String name, DataType type, In in, int rows) {
    byte[] raw = in.b;
    int end = in.end;
    in.sequence = block.sequence;
    String what = "column " + name;
    if (rows > end - in.pos - 1L) { // every row takes a byte at least: check before allocating
      throw corrupt(block, what + ": " + (end - in.pos) + " bytes cannot hold " + rows + " rows");
    }
    ColumnVector v = type.kind().isString() ? new BytesColumnVector(Math.max(1, rows)) : Columns.newVector(type, rows);
    int hasNulls = in.u8(what);
    if (hasNulls > 1) {
      throw corrupt(block, what + ": bad NULL flag");
    }
    if (hasNulls == 1) {
      int bitmap = (rows + 7) >>> 3;
      in.need(bitmap, what);
      v.noNulls = false;
      boolean[] isNull = v.isNull; // all false: set the bits that are set
      for (int i = 0; i < bitmap; i++) {
        int bits = raw[in.pos + i] & 0xff;
        while (bits != 0) {
          int r = (i << 3) + Integer.numberOfTrailingZeros(bits);
          if (r >= rows) {
            throw corrupt(block, what + ": NULL bits past the last row");
          }
          isNull[r] = true;
          bits &= bits - 1;
        }
      }
      in.pos += bitmap;
    }
    TypeKind kind = type.kind();
    int width = BlockWriter.width(kind);
    boolean fixed = width > 0 && !(kind == TypeKind.DECIMAL && !BlockWriter.longDecimal(type));
    if (fixed && end - in.pos != (long) width * rows) {
      throw corrupt(block, what + ": " + (end - in.pos) + " value bytes for " + rows + " rows of " + type);
    }
    switch (kind) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, DATE, BIGINT -> { // the size was checked above
        long[] x = ((LongColumnVector) v).vector;
        int p = in.pos;
        switch (width) {
          case 1 -> {
            for (int r = 0; r < rows; r++) {
              x[r] = raw[p + r];
            }
          }
          case 2 -> {
            for (int r = 0; r < rows; r++) {
              x[r] = (short) Out.I16.get(raw, p + 2 * r);
            }
          }
          case 4 -> {
            for (int r = 0; r < rows; r++) {
              x[r] = (int) Out.I32.get(raw, p + 4 * r);
            }
          }
          default -> ByteBuffer.wrap(raw, p, 8 * rows).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(x, 0, rows);
        }
        in.pos += width * rows;
      }
      case REAL, DOUBLE -> {
        double[] x = ((DoubleColumnVector) v).vector;
        ByteBuffer.wrap(raw, in.pos, 8 * rows).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(x, 0, rows);
        in.pos += 8 * rows;
      }
      case DECIMAL -> {
        DecimalColumnVector d = (DecimalColumnVector) v;
        for (int r = 0; r < rows; r++) {
          if (fixed) {
            d.vector[r].deserialize64(in.i64(what), type.scale());
          } else {
            int len = in.u8(what);
            in.need(len, what);
            if (v.noNulls || !v.isNull[r]) {
              if (len > 0) {
                d.vector[r].setFromBigIntegerBytesAndScale(Arrays.copyOfRange(raw, in.pos, in.pos + len), type.scale());
              }
              if (len == 0 || !d.vector[r].isSet()) {
                throw corrupt(block, what + ": row " + r + " is not a DECIMAL(" + type.precision() + ", "
                    + type.scale() + ")");
              }
            }
            in.pos += len;
          }
        }
      }
      case TIMESTAMP -> {
        TimestampColumnVector t = (TimestampColumnVector) v;
        in.need(12 * rows, what);
        ByteBuffer.wrap(raw, in.pos, 8 * rows).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(t.time, 0, rows);
        ByteBuffer.wrap(raw, in.pos + 8 * rows, 4 * rows).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer()
            .get(t.nanos, 0, rows);
        in.pos += 12 * rows;
      }
      case CHAR, VARCHAR -> {
        BytesColumnVector b = (BytesColumnVector) v;
        if (4L * (rows + 1) > end - in.pos) {
          throw corrupt(block, what + ": truncated string offsets");
        }
        int offsets = in.pos;
        int data = offsets + 4 * (rows + 1);
        int prev = (int) Out.I32.get(raw, offsets);
        if (prev != 0) {
          throw corrupt(block, what + ": first string offset " + prev);
        }
        // Offsets are valid when no offset and no difference is negative and the last is within
        // the data: one check after a loop with no branch (a negative value sets the sign bit of `bad`).
        // Strings in a scratch buffer are copied out (only their bytes: an allocation followed at
        // once by a copy over all of it is not zeroed first); others are pointed at where they are.
        int base = in.scratch ? 0 : data;
        int[] start = b.start;
        int[] length = b.length;
        int bad = 0;
        for (int r = 0; r < rows; r++) {
          int next = (int) Out.I32.get(raw, offsets + 4 * (r + 1));
          int len = next - prev;
          start[r] = base + prev;
          length[r] = len;
          bad |= len | next; // a negative offset or length; a wrapped difference needs a negative offset
          prev = next;
        }
        if (bad < 0 || data + (long) prev > end) {
          throw corrupt(block, what + ": string offsets out of order or past the data");
        }
        Arrays.fill(b.vector, 0, rows, in.scratch ? Arrays.copyOfRange(raw, data, data + prev) : raw);
        in.pos = data + prev;
      }
    }
    if (in.pos != end) {
      throw corrupt(block, what + ": " + (end - in.pos) + " bytes left over");
    }
    return v;
  }
}
