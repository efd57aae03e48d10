package dev.travertine.io.hadoop;

import dev.travertine.io.FileIO;
import dev.travertine.io.FileInfo;
import dev.travertine.io.OutputFile;
import dev.travertine.io.RandomAccessInput;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * A Hadoop {@link FileSystem} view of a {@link FileIO}, so that libraries that speak Hadoop
 * (Apache ORC) read and write through our storage layer. Paths are {@code travertine:///rel/path}
 * or plain {@code /rel/path}; both map to the relative object path {@code rel/path}.
 *
 * <p>New files appear atomically when their stream closes ({@link OutputFile}); rename and append
 * are not supported, which is what object stores offer.
 */
public final class FileIOFileSystem extends FileSystem {
  public static final String SCHEME = "travertine";

  private final FileIO io;
  private Path workingDir = new Path("/");

  public FileIOFileSystem(FileIO io, Configuration conf) {
    this.io = io;
    try {
      initialize(URI.create(SCHEME + ":///"), conf);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    setConf(conf);
  }

  public FileIO fileIO() {
    return io;
  }

  /** The Hadoop path of a relative object path. */
  public static Path toPath(String relative) {
    return new Path(SCHEME + ":///" + relative);
  }

  static String relative(Path path) {
    String p = path.toUri().getPath();
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    return p;
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public URI getUri() {
    return URI.create(SCHEME + ":///");
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    String rel = relative(f);
    RandomAccessInput in;
    try {
      in = io.newInputFile(rel).open();
    } catch (java.nio.file.NoSuchFileException e) {
      throw new FileNotFoundException(rel);
    }
    return new FSDataInputStream(new PositionalInputStream(in));
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    String rel = relative(f);
    if (!overwrite && io.exists(rel)) {
      throw new org.apache.hadoop.fs.FileAlreadyExistsException(rel);
    }
    OutputFile.AbortableOutputStream out = io.newOutputFile(rel).create();
    return new FSDataOutputStream(out, statistics);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
    throw new UnsupportedOperationException("Cannot append: objects are immutable (" + f + ")");
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    throw new UnsupportedOperationException("Cannot rename: not an object-store operation (" + src + ")");
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    String rel = relative(f);
    if (io.delete(rel)) {
      return true;
    }
    if (recursive) {
      io.deletePrefix(rel);
      return true;
    }
    return false;
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    String rel = relative(f);
    List<FileStatus> out = new ArrayList<>();
    Set<String> dirs = new HashSet<>();
    for (FileInfo fi : io.list(rel)) {
      String rest = fi.path().substring(rel.length() + 1);
      int slash = rest.indexOf('/');
      if (slash >= 0) {
        String dir = rest.substring(0, slash);
        if (dirs.add(dir)) {
          out.add(new FileStatus(0, true, 1, 0, 0, toPath(rel + "/" + dir)));
        }
      } else {
        out.add(status(fi));
      }
    }
    return out.toArray(new FileStatus[0]);
  }

  private static FileStatus status(FileInfo fi) {
    return new FileStatus(fi.length(), false, 1, 64L << 20, fi.modificationTimeMillis(), toPath(fi.path()));
  }

  @Override
  public void setWorkingDirectory(Path newDir) {
    workingDir = newDir;
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDir;
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) {
    return true; // Object stores have no directories; writers create parents as needed.
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    String rel = relative(f);
    if (io.exists(rel)) {
      return new FileStatus(io.newInputFile(rel).length(), false, 1, 64L << 20, 0, toPath(rel));
    }
    if (!io.list(rel).isEmpty()) {
      return new FileStatus(0, true, 1, 0, 0, toPath(rel));
    }
    throw new FileNotFoundException(rel);
  }

  /** Hadoop's seekable stream over a {@link RandomAccessInput}. */
  static final class PositionalInputStream extends FSInputStream {
    private final RandomAccessInput in;
    private final long length;
    private long pos;
    private final byte[] one = new byte[1];

    PositionalInputStream(RandomAccessInput in) throws IOException {
      this.in = in;
      this.length = in.length();
    }

    @Override
    public void seek(long p) throws IOException {
      if (p < 0 || p > length) {
        throw new java.io.EOFException("Cannot seek to " + p + " (length " + length + ")");
      }
      pos = p;
    }

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int read() throws IOException {
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = read(pos, b, off, len);
      if (n > 0) {
        pos += n;
      }
      return n;
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int len) throws IOException {
      if (position >= length) {
        return len == 0 ? 0 : -1;
      }
      int n = (int) Math.min(len, length - position);
      in.readFully(position, buffer, offset, n);
      return n;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int len) throws IOException {
      in.readFully(position, buffer, offset, len);
    }

    @Override
    public int available() {
      return (int) Math.min(Integer.MAX_VALUE, length - pos);
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
