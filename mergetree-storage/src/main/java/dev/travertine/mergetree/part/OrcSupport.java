package dev.travertine.mergetree.part;

import dev.travertine.io.FileIO;
import dev.travertine.io.hadoop.FileIOFileSystem;
import java.io.IOException;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;

/** ORC settings shared by part writers and readers: one Hadoop configuration, UTC timestamps. */
public final class OrcSupport {
  private OrcSupport() {}

  /** Key of the granule index in the ORC footer's user metadata. */
  public static final String GRANULE_INDEX_KEY = "travertine.granules";

  /** Key of the string columns written without a dictionary (comma-separated file column names). */
  public static final String DIRECT_STRINGS_KEY = "travertine.direct_strings";

  /** Key of the columns' distinct-value sketches ({@link ColumnSketches}). */
  public static final String DISTINCT_KEY = "travertine.distinct";

  private static final Configuration CONF = new Configuration(false);

  static {
    NativeLz4.installInOrcPool(); // ORC's readers of parts decompress LZ4 natively too
  }

  public static Configuration conf() {
    return CONF;
  }

  public static FileIOFileSystem fileSystem(FileIO io) {
    return new FileIOFileSystem(io, CONF);
  }

  public static CompressionKind compression(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "none" -> CompressionKind.NONE;
      case "zstd" -> CompressionKind.ZSTD;
      case "zlib" -> CompressionKind.ZLIB;
      case "snappy" -> CompressionKind.SNAPPY;
      default -> CompressionKind.LZ4;
    };
  }

  /** The largest compression chunk of a part file (ORC's buffer size), for parts of many rows. */
  private static final int MAX_COMPRESSION_BUFFER = 64 * 1024;

  /**
   * The compression chunk size for a part of about this many rows: 64 KiB, smaller for small
   * parts (down to 4 KiB, about 16 bytes a row). ORC's reader allocates a buffer of this size for
   * every stream it reads, so a part of ten rows read with 64 KiB chunks cost a megabyte of
   * zeroed memory per scan.
   */
  public static int compressionBufferSize(long expectedRows) {
    long want = Math.max(4096, Math.min(MAX_COMPRESSION_BUFFER, expectedRows * 16));
    return (int) Long.highestOneBit(want - 1) << 1;
  }

  /** Opens a part's ORC file. */
  public static Reader openReader(FileIOFileSystem fs, String path, long length) throws IOException {
    return openReader(fs, path, length, null);
  }

  /**
   * Opens a part's ORC file; with its tail (footer, metadata, postscript, parsed by a first open)
   * no request is made until rows are read, and nothing is parsed again.
   */
  public static Reader openReader(FileIOFileSystem fs, String path, long length,
      org.apache.orc.impl.OrcTail tail) throws IOException {
    fs.knownLength(path, length);
    OrcFile.ReaderOptions o = OrcFile.readerOptions(CONF).filesystem(fs).maxLength(length).useUTCTimestamp(true);
    if (tail != null) {
      o.orcTail(tail);
    }
    return OrcFile.createReader(FileIOFileSystem.toPath(path), o);
  }
}
