package dev.travertine.mergetree.part;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.orc.CompressionCodec;
import org.apache.orc.CompressionKind;
import org.apache.orc.impl.OrcCodecPool;
import org.apache.orc.impl.WriterImpl;
import org.junit.jupiter.api.Test;

/**
 * ORC's LZ4 codec with native decompression, as ORC's pool hands it out once parts' ORC support
 * is loaded: it compresses byte for byte as ORC's own codec, and decompresses what either writes
 * into heap and direct buffers as ORC's codec does (positions, the flip), and with the switch
 * off by ORC's codec (heap buffers); a corrupt chunk is an IOException.
 */
class NativeLz4Test {
  private static byte[] data(Random rnd, int n, boolean runs) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = runs ? (byte) (i / 97 % 5) : (byte) rnd.nextInt();
    }
    return b;
  }

  /** {@code raw} compressed by {@code codec} (ORC's form of a chunk), or null when it does not shrink. */
  private static byte[] compress(CompressionCodec codec, byte[] raw) throws IOException {
    ByteBuffer out = ByteBuffer.allocate(raw.length);
    ByteBuffer overflow = ByteBuffer.allocate(raw.length);
    if (!codec.compress(ByteBuffer.wrap(raw), out, overflow, codec.getDefaultOptions())) {
      return null;
    }
    byte[] c = new byte[out.position() + overflow.position()];
    System.arraycopy(out.array(), 0, c, 0, out.position());
    System.arraycopy(overflow.array(), 0, c, out.position(), overflow.position());
    return c;
  }

  private static byte[] decompress(CompressionCodec codec, byte[] chunk, int room, boolean direct, int at)
      throws IOException {
    ByteBuffer in = direct ? ByteBuffer.allocateDirect(chunk.length + 3) : ByteBuffer.allocate(chunk.length + 3);
    in.position(3); // a chunk after its 3-byte header
    in.put(chunk);
    in.position(3);
    ByteBuffer out = direct ? ByteBuffer.allocateDirect(room + at) : ByteBuffer.allocate(room + at);
    out.position(at);
    codec.decompress(in, out);
    assertEquals(0, out.position(), "flipped");
    byte[] got = new byte[out.remaining() - at];
    out.position(at);
    out.get(got);
    return got;
  }

  @Test
  void orcsPoolHandsOutTheNativeCodecWhichReadsAndWritesAsOrcsOwn() throws Exception {
    OrcSupport.conf(); // loads parts' ORC support, which fills the pool
    CompressionCodec pooled = OrcCodecPool.getCodec(CompressionKind.LZ4);
    CompressionCodec orc = WriterImpl.createCodec(CompressionKind.LZ4);
    try {
      assertInstanceOf(NativeLz4.Codec.class, pooled);
      Random rnd = new Random(7);
      for (boolean runs : new boolean[] {true, false}) {
        for (int n : new int[] {1, 100, 65536}) {
          byte[] raw = data(rnd, n, runs);
          byte[] ours = compress(pooled, raw);
          byte[] theirs = compress(orc, raw);
          assertArrayEquals(theirs, ours, "compressed as ORC compresses");
          if (ours == null) {
            continue; // stored as it is
          }
          for (boolean direct : new boolean[] {false, true}) {
            assertArrayEquals(raw, decompress(pooled, ours, 65536, direct, 0), n + " bytes, direct " + direct);
            assertArrayEquals(raw, decompress(pooled, ours, 65536, direct, 5), "written from the position");
            if (direct) {
              continue; // ORC's codec takes heap buffers only (as ORC hands it)
            }
            System.setProperty("travertine.scan.nativeLz4", "false");
            try {
              assertArrayEquals(raw, decompress(pooled, ours, 65536, direct, 0), "switched off");
            } finally {
              System.clearProperty("travertine.scan.nativeLz4");
            }
          }
        }
      }
      byte[] corrupt = {(byte) 0xF0, (byte) 200, 1, 2, 3};
      IOException e = assertThrows(IOException.class, () -> decompress(pooled, corrupt, 65536, false, 0));
      assertTrue(e.getMessage().contains("corrupt LZ4 chunk"), e.getMessage());
      assertThrows(IOException.class, () -> decompress(pooled, compress(orc, data(rnd, 65536, true)), 100, true, 0));
    } finally {
      pooled.close(); // back to the pool
      orc.destroy();
    }
  }
}
