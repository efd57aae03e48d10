package dev.travertine.rpc.block;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import java.util.Locale;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/** How a column's bytes are stored in a frame (docs/design/exchange.md): its id is on the wire. */
public enum Codec {
  NONE(0),
  LZ4(1),
  ZSTD(2);

  private static final LZ4Compressor LZ4_COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
  private static final LZ4SafeDecompressor LZ4_DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();

  /** Room past a frame's raw bytes that lets LZ4 decode at full speed (see {@link #decompress}). */
  static final int DECODE_SLACK = 64;

  /** The id written in a frame. */
  public final int id;

  Codec(int id) {
    this.id = id;
  }

  static Codec ofId(int id) {
    for (Codec c : values()) {
      if (c.id == id) {
        return c;
      }
    }
    return null;
  }

  /** The codec a {@code network_compression_method} value names (lz4, zstd, none). */
  public static Codec parse(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "lz4" -> LZ4;
      case "zstd" -> ZSTD;
      case "none" -> NONE;
      default -> throw new IllegalArgumentException(
          "Unknown network compression method '" + name + "': lz4, zstd or none");
    };
  }

  /** The largest stored size for {@code n} raw bytes. */
  int maxCompressed(int n) {
    return switch (this) {
      case NONE -> n;
      case LZ4 -> LZ4_COMPRESSOR.maxCompressedLength(n);
      case ZSTD -> (int) Zstd.compressBound(n);
    };
  }

  /** Compresses {@code src[0 .. n)} into {@code dst} at {@code off}; returns the stored size. */
  int compress(byte[] src, int n, byte[] dst, int off, int level) {
    return switch (this) {
      case NONE -> {
        System.arraycopy(src, 0, dst, off, n);
        yield n;
      }
      case LZ4 -> LZ4_COMPRESSOR.compress(src, 0, n, dst, off, dst.length - off);
      case ZSTD -> {
        long r = Zstd.compressByteArray(dst, off, dst.length - off, src, 0, n, level);
        if (Zstd.isError(r)) {
          throw new IllegalStateException("ZSTD compression failed: " + Zstd.getErrorName(r));
        }
        yield (int) r;
      }
    };
  }

  /**
   * Whether {@code stored} bytes of this codec may decompress to {@code raw} bytes: checked before
   * a reader allocates the raw size a (possibly damaged) frame header declares.
   */
  boolean plausible(byte[] src, int off, int stored, int raw) {
    return switch (this) {
      case NONE -> raw == stored;
      case LZ4 -> raw <= 255L * stored + 16; // LZ4 expands at most about 255 times
      case ZSTD -> {
        try {
          yield Zstd.getFrameContentSize(src, off, stored) == raw; // the writer records it
        } catch (RuntimeException e) {
          yield false;
        }
      }
    };
  }

  /**
   * Decompresses {@code src[off .. off + stored)} into {@code dst[0 .. len)} ({@code len} is the
   * raw size); false when the bytes do not decompress to exactly that size. {@code dst} may be
   * longer, and LZ4 may write into the rest: it decodes faster when it has room
   * past the end ({@link #DECODE_SLACK} bytes: its wide copies then need no care near the end).
   */
  boolean decompress(byte[] src, int off, int stored, byte[] dst, int len) {
    try {
      return switch (this) {
        case NONE -> {
          if (stored != len) {
            yield false;
          }
          System.arraycopy(src, off, dst, 0, stored);
          yield true;
        }
        case LZ4 -> LZ4_DECOMPRESSOR.decompress(src, off, stored, dst, 0, dst.length) == len;
        case ZSTD -> {
          long r = Zstd.decompressByteArray(dst, 0, len, src, off, stored);
          yield !Zstd.isError(r) && r == len;
        }
      };
    } catch (LZ4Exception | ZstdException e) {
      return false; // damaged input: the caller names the block and column
    }
  }
}
