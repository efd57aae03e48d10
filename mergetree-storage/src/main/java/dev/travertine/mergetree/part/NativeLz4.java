package dev.travertine.mergetree.part;

import java.io.IOException;
import java.nio.ByteBuffer;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.apache.orc.CompressionCodec;
import org.apache.orc.CompressionKind;
import org.apache.orc.impl.OrcCodecPool;
import org.apache.orc.impl.WriterImpl;

/**
 * LZ4 chunks of parts decompressed by lz4-java's native code where it loads: about twice ORC's
 * own pure-Java aircompressor on parts' streams (docs/benchmarks.md, "LZ4 in the part reader"),
 * for both readers of parts: ours ({@link OrcStreamReader}) and ORC's, whose codec pool is given
 * codecs that decompress natively ({@link #installInOrcPool}). lz4-java's pure-Java forms are
 * slower than aircompressor, so only the native one is taken; without it, and with the system
 * property {@code travertine.scan.nativeLz4} set to {@code false} (read per stream or chunk, so
 * that {@code bench/run clickbench}'s baseline mode can compare the two in one JVM), aircompressor
 * decompresses. Compression is ORC's own either way: parts are written byte for byte as before.
 */
final class NativeLz4 {
  private NativeLz4() {}

  private static final LZ4SafeDecompressor NATIVE = load();

  private static LZ4SafeDecompressor load() {
    try {
      return LZ4Factory.nativeInstance().safeDecompressor();
    } catch (Throwable e) { // no native library for this platform: aircompressor reads LZ4
      return null;
    }
  }

  /** The native decompressor, or null where it did not load or the property turns it off. */
  static LZ4SafeDecompressor decompressor() {
    return "false".equals(System.getProperty("travertine.scan.nativeLz4")) ? null : NATIVE;
  }

  /** One LZ4 chunk {@code src[off .. off + len)} into {@code dst} at {@code at}, in at most {@code room} bytes; returns its size. */
  static int decompress(LZ4SafeDecompressor lz4, byte[] src, int off, int len, byte[] dst, int at, int room)
      throws IOException {
    try {
      return lz4.decompress(src, off, len, dst, at, room);
    } catch (LZ4Exception e) {
      throw new IOException("ORC stream: a corrupt LZ4 chunk of " + len + " bytes", e);
    }
  }

  /** How many codecs {@link #installInOrcPool} gives ORC's pool: as many as it keeps. */
  static final int POOLED = 32;

  private static boolean installed;

  /**
   * Fills ORC's codec pool for LZ4 with {@link Codec}s, once (ORC's readers and writers take a
   * codec from the pool, or make aircompressor's when it is empty, and give it back after use).
   * Nothing where the native library did not load.
   */
  static synchronized void installInOrcPool() {
    if (installed || NATIVE == null) {
      return;
    }
    installed = true;
    for (int i = 0; i < POOLED; i++) {
      OrcCodecPool.returnCodec(CompressionKind.LZ4, new Codec());
    }
  }

  /** ORC's LZ4 codec with native decompression; compression, options and buffers are aircompressor's. */
  static final class Codec implements CompressionCodec {
    private final CompressionCodec orc = WriterImpl.createCodec(CompressionKind.LZ4);

    @Override public Options getDefaultOptions() {
      return orc.getDefaultOptions();
    }

    @Override public boolean compress(ByteBuffer in, ByteBuffer out, ByteBuffer overflow, Options options)
        throws IOException {
      return orc.compress(in, out, overflow, options);
    }

    /** As ORC's codecs: {@code in}'s remaining bytes into {@code out} from its position, then {@code out} flipped. */
    @Override public void decompress(ByteBuffer in, ByteBuffer out) throws IOException {
      LZ4SafeDecompressor lz4 = decompressor();
      if (lz4 == null) {
        orc.decompress(in, out);
        return;
      }
      int len;
      try {
        len = lz4.decompress(in, in.position(), in.remaining(), out, out.position(), out.remaining());
      } catch (LZ4Exception e) {
        throw new IOException("ORC stream: a corrupt LZ4 chunk of " + in.remaining() + " bytes", e);
      }
      out.position(out.position() + len);
      out.flip();
    }

    @Override public void reset() {
      orc.reset();
    }

    @Override public void destroy() {
      orc.destroy();
    }

    @Override public CompressionKind getKind() {
      return CompressionKind.LZ4;
    }

    @Override public void close() {
      OrcCodecPool.returnCodec(CompressionKind.LZ4, this);
    }
  }
}
