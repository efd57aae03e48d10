package dev.travertine.rpc.exchange;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The exchange's one gRPC method and its messages (docs/design/exchange.md, "Transport"): a
 * bidirectional stream of byte arrays per replica and query. Messages that start with the block
 * magic ("TRVB") are marshalled blocks; the others start with {@link #CONTROL} and a type.
 */
final class ExchangeProtocol {
  private ExchangeProtocol() {}

  static final String SERVICE = "travertine.Exchange";

  /** Byte arrays as they are: written straight into gRPC's buffers, no copy of our own. */
  static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override public InputStream stream(byte[] value) {
      return new BytesStream(value);
    }

    @Override public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  /** A byte array gRPC drains into its buffers in one write, knowing its length. */
  private static final class BytesStream extends InputStream implements Drainable, KnownLength {
    private final byte[] b;
    private int pos;

    BytesStream(byte[] b) {
      this.b = b;
    }

    @Override public int drainTo(OutputStream target) throws IOException {
      int n = b.length - pos;
      target.write(b, pos, n);
      pos = b.length;
      return n;
    }

    @Override public int available() {
      return b.length - pos;
    }

    @Override public int read() {
      return pos < b.length ? b[pos++] & 0xff : -1;
    }

    @Override public int read(byte[] dst, int off, int len) {
      if (pos >= b.length) {
        return -1;
      }
      int n = Math.min(len, b.length - pos);
      System.arraycopy(b, pos, dst, off, n);
      pos += n;
      return n;
    }
  }

  static final MethodDescriptor<byte[], byte[]> RUN = MethodDescriptor.<byte[], byte[]>newBuilder()
      .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
      .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "Run"))
      .setRequestMarshaller(BYTES)
      .setResponseMarshaller(BYTES)
      .build();

  /** The cluster's shared secret, sent by the initiator with every call. */
  static final Metadata.Key<String> SECRET = Metadata.Key.of("travertine-cluster-secret", Metadata.ASCII_STRING_MARSHALLER);

  static final byte CONTROL = 0;
  /** Initiator → replica, first message: a {@link FragmentRequest}. */
  static final byte REQUEST = 1;
  /** Initiator → replica: read tasks (count u32, then keys); none = no more. */
  static final byte TASKS = 2;
  /** Replica → initiator: it wants more read tasks. */
  static final byte NEED_TASKS = 3;
  /** Replica → initiator, last message: rows and bytes it read. */
  static final byte DONE = 4;

  static boolean isBlock(byte[] m) {
    return m.length >= 4 && m[0] == 'T' && m[1] == 'R' && m[2] == 'V' && m[3] == 'B';
  }

  static byte type(byte[] m) throws IOException {
    if (m.length < 2 || m[0] != CONTROL) {
      throw new IOException("Not an exchange message (" + m.length + " bytes)");
    }
    return m[1];
  }

  static byte[] request(FragmentRequest r) {
    byte[] body = r.encode();
    byte[] m = new byte[2 + body.length];
    m[0] = CONTROL;
    m[1] = REQUEST;
    System.arraycopy(body, 0, m, 2, body.length);
    return m;
  }

  static byte[] control(byte type) {
    return new byte[] {CONTROL, type};
  }

  static byte[] tasks(List<String> keys) {
    return message(TASKS, out -> {
      out.writeInt(keys.size());
      for (String k : keys) {
        out.writeUTF(k);
      }
    });
  }

  static List<String> readTasks(byte[] m) throws IOException {
    DataInputStream in = body(m);
    int n = in.readInt();
    if (n < 0 || n > 1 << 20) {
      throw new IOException(n + " tasks");
    }
    List<String> keys = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      keys.add(in.readUTF());
    }
    return keys;
  }

  static byte[] done(long rows, long bytes) {
    return message(DONE, out -> {
      out.writeLong(rows);
      out.writeLong(bytes);
    });
  }

  static long[] readDone(byte[] m) throws IOException {
    DataInputStream in = body(m);
    return new long[] {in.readLong(), in.readLong()};
  }

  private interface Body {
    void write(DataOutputStream out) throws IOException;
  }

  private static byte[] message(byte type, Body body) {
    try {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(b);
      out.writeByte(CONTROL);
      out.writeByte(type);
      body.write(out);
      out.flush();
      return b.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static DataInputStream body(byte[] m) {
    return new DataInputStream(new java.io.ByteArrayInputStream(m, 2, m.length - 2));
  }
}
