package dev.travertine.formats.parquet;

import dev.travertine.io.RandomAccessInput;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Parquet's file interfaces over Travertine's storage: a Parquet file on local disk, S3 or HDFS
 * is read through {@link dev.travertine.io.InputFile} positional reads (Parquet asks for whole
 * column chunks at a time), and written through {@link dev.travertine.io.OutputFile}, which
 * publishes it whole when it is closed.
 */
public final class ParquetIO {
  private ParquetIO() {}

  /** Parquet's view of one of our objects. */
  public static InputFile input(dev.travertine.io.InputFile file) {
    return new InputFile() {
      @Override public long getLength() throws IOException {
        return file.length();
      }

      @Override public SeekableInputStream newStream() throws IOException {
        return new Stream(file.open());
      }

      @Override public String toString() {
        return file.path();
      }
    };
  }

  /** Parquet's view of a new object: its bytes go to {@code out}, which the caller closes or aborts. */
  public static OutputFile output(String path, dev.travertine.io.OutputFile.AbortableOutputStream out) {
    return new OutputFile() {
      @Override public PositionOutputStream create(long blockSizeHint) {
        return new PositionOutputStream() {
          @Override public long getPos() {
            return out.position();
          }

          @Override public void write(int b) throws IOException {
            out.write(b);
          }

          @Override public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
          }

          @Override public void flush() throws IOException {
            out.flush();
          }

          @Override public void close() {
            // the caller publishes (closes) or aborts the object once the writer is done
          }
        };
      }

      @Override public PositionOutputStream createOrOverwrite(long blockSizeHint) {
        return create(blockSizeHint);
      }

      @Override public boolean supportsBlockSize() {
        return false;
      }

      @Override public long defaultBlockSize() {
        return 0;
      }

      @Override public String getPath() {
        return path;
      }
    };
  }

  /** A seekable stream over positional reads, with a small buffer for Parquet's single-byte reads. */
  private static final class Stream extends SeekableInputStream {
    private final RandomAccessInput in;
    private final long length;
    private long pos;
    private final byte[] one = new byte[1];

    Stream(RandomAccessInput in) throws IOException {
      this.in = in;
      this.length = in.length();
    }

    @Override public long getPos() {
      return pos;
    }

    @Override public void seek(long newPos) throws IOException {
      if (newPos < 0 || newPos > length) {
        throw new EOFException("Cannot seek to " + newPos + " of " + length + " bytes");
      }
      pos = newPos;
    }

    @Override public int read() throws IOException {
      if (pos >= length) {
        return -1;
      }
      in.readFully(pos, one, 0, 1);
      pos++;
      return one[0] & 0xff;
    }

    @Override public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (pos >= length) {
        return -1;
      }
      int n = (int) Math.min(len, length - pos);
      in.readFully(pos, b, off, n);
      pos += n;
      return n;
    }

    @Override public void readFully(byte[] b) throws IOException {
      readFully(b, 0, b.length);
    }

    @Override public void readFully(byte[] b, int off, int len) throws IOException {
      in.readFully(pos, b, off, len);
      pos += len;
    }

    @Override public int read(ByteBuffer buf) throws IOException {
      int n = (int) Math.min(buf.remaining(), length - pos);
      if (n <= 0) {
        return buf.hasRemaining() ? -1 : 0;
      }
      readInto(buf, n);
      return n;
    }

    @Override public void readFully(ByteBuffer buf) throws IOException {
      int n = buf.remaining();
      if (pos + n > length) {
        throw new EOFException("Read past the end: " + n + " bytes at " + pos + " of " + length);
      }
      readInto(buf, n);
    }

    private void readInto(ByteBuffer buf, int n) throws IOException {
      if (buf.hasArray()) {
        in.readFully(pos, buf.array(), buf.arrayOffset() + buf.position(), n);
        buf.position(buf.position() + n);
      } else {
        byte[] tmp = new byte[n];
        in.readFully(pos, tmp, 0, n);
        buf.put(tmp);
      }
      pos += n;
    }

    @Override public void close() throws IOException {
      in.close();
    }
  }
}
