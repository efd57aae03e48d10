package dev.travertine.rpc.block;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/** Little-endian writes into a byte array that grows as needed. */
final class Out {
  static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  byte[] buf;
  int pos;

  Out() {
    this(new byte[1 << 12]);
  }

  private Out(byte[] buf) {
    this.buf = buf;
  }

  /** Writes over {@code buf} from 0 (its size known: it never grows). */
  static Out over(byte[] buf) {
    return new Out(buf);
  }

  void reset() {
    pos = 0;
  }

  void ensure(int n) {
    long need = (long) pos + n;
    if (need > buf.length) {
      if (need > Integer.MAX_VALUE - 16) {
        throw new IllegalArgumentException("A block may hold at most 2 GiB; send smaller batches");
      }
      buf = Arrays.copyOf(buf, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(need, 2L * buf.length)));
    }
  }

  void u8(int v) {
    ensure(1);
    buf[pos++] = (byte) v;
  }

  void i16(int v) {
    ensure(2);
    I16.set(buf, pos, (short) v);
    pos += 2;
  }

  void i32(int v) {
    ensure(4);
    I32.set(buf, pos, v);
    pos += 4;
  }

  void i64(long v) {
    ensure(8);
    I64.set(buf, pos, v);
    pos += 8;
  }

  void bytes(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, buf, pos, len);
    pos += len;
  }
}
