package dev.travertine.io.local;

import dev.travertine.io.FileIO;
import dev.travertine.io.FileInfo;
import dev.travertine.io.InputFile;
import dev.travertine.io.IoStats;
import dev.travertine.io.OutputFile;
import dev.travertine.io.RandomAccessInput;
import dev.travertine.io.StoragePaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * {@link FileIO} on a local directory. Objects are published by writing a hidden temporary file,
 * forcing it to disk and renaming it into place (link for create-only), then forcing the directory.
 */
public final class LocalFileIO implements FileIO {
  private static final String TMP_PREFIX = ".tmp-";

  private final Path root;
  private final boolean fsync;

  /**
   * @param root directory holding the objects (created if missing)
   * @param fsync whether publishing forces data and directory entries to disk
   */
  public LocalFileIO(Path root, boolean fsync) {
    this.root = root.toAbsolutePath().normalize();
    this.fsync = fsync;
    try {
      Files.createDirectories(this.root);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create storage directory " + this.root, e);
    }
  }

  public LocalFileIO(Path root) {
    this(root, true);
  }

  public Path root() {
    return root;
  }

  /** The local file behind a relative path. */
  public Path resolve(String path) {
    return root.resolve(StoragePaths.check(path));
  }

  @Override
  public InputFile newInputFile(String path) {
    Path file = resolve(path);
    return new InputFile() {
      @Override
      public String path() {
        return path;
      }

      @Override
      public long length() throws IOException {
        return Files.size(file);
      }

      @Override
      public RandomAccessInput open() throws IOException {
        return new LocalInput(FileChannel.open(file, StandardOpenOption.READ));
      }
    };
  }

  @Override
  public OutputFile newOutputFile(String path) {
    Path file = resolve(path);
    return new OutputFile() {
      @Override
      public String path() {
        return path;
      }

      @Override
      public AbortableOutputStream create() throws IOException {
        return new LocalOutput(file, false);
      }
    };
  }

  @Override
  public void writeAtomic(String path, byte[] data) throws IOException {
    Path file = resolve(path);
    Path tmp = writeTemp(file, data);
    try {
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
    syncDir(file.getParent());
  }

  @Override
  public boolean writeIfAbsent(String path, byte[] data) throws IOException {
    Path file = resolve(path);
    Path tmp = writeTemp(file, data);
    try {
      // link(2) fails if the target exists, unlike rename(2): that makes this create-only.
      Files.createLink(file, tmp);
    } catch (FileAlreadyExistsException e) {
      return false;
    } finally {
      Files.deleteIfExists(tmp);
    }
    syncDir(file.getParent());
    return true;
  }

  private Path writeTemp(Path file, byte[] data) throws IOException {
    Files.createDirectories(file.getParent());
    Path tmp = file.resolveSibling(TMP_PREFIX + file.getFileName() + "-" + UUID.randomUUID());
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer buf = ByteBuffer.wrap(data);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      if (fsync) {
        ch.force(true);
      }
    }
    return tmp;
  }

  private void syncDir(Path dir) {
    if (!fsync) {
      return;
    }
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some file systems refuse to open directories; the rename is still atomic there.
    }
  }

  @Override
  public boolean exists(String path) {
    return Files.exists(resolve(path));
  }

  @Override
  public List<FileInfo> list(String prefix) throws IOException {
    Path dir = resolve(prefix);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<FileInfo> out = new ArrayList<>();
    listInto(dir, out);
    out.sort(Comparator.comparing(FileInfo::path));
    return out;
  }

  /**
   * Lists a directory tree, passing over entries that vanish meanwhile (another process may be
   * publishing or removing files in it: a reader of a table that another node writes).
   */
  private void listInto(Path dir, List<FileInfo> out) throws IOException {
    try (java.nio.file.DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      for (Path p : s) {
        if (p.getFileName().toString().startsWith(TMP_PREFIX)) {
          continue;
        }
        BasicFileAttributes a;
        try {
          a = Files.readAttributes(p, BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
          continue;
        }
        if (a.isDirectory()) {
          try {
            listInto(p, out);
          } catch (NoSuchFileException e) {
            // removed while listed
          }
        } else if (a.isRegularFile()) {
          String rel = root.relativize(p).toString().replace('\\', '/');
          out.add(new FileInfo(rel, a.size(), a.lastModifiedTime().toMillis()));
        }
      }
    }
  }

  @Override
  public boolean delete(String path) throws IOException {
    return Files.deleteIfExists(resolve(path));
  }

  @Override
  public void deletePrefix(String prefix) throws IOException {
    Path dir = resolve(prefix);
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      List<Path> all = s.sorted(Comparator.reverseOrder()).toList();
      for (Path p : all) {
        Files.deleteIfExists(p);
      }
    }
  }

  @Override
  public String location() {
    return root.toString();
  }

  /** Removes temporary files left by writers that died before publishing. */
  public void removeTemporaryFiles(String prefix) throws IOException {
    Path dir = resolve(prefix);
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (p.getFileName().toString().startsWith(TMP_PREFIX)) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  /**
   * The most bytes one positional read asks the channel for. Each thread keeps the JDK's temporary
   * direct buffer of this size and reuses it; a 7 MB stripe read in one call took 25–100 ms, most of
   * it faulting in a fresh buffer, against 3 ms in 1 MiB calls (docs/benchmarks.md).
   */
  static final int READ_CHUNK = 1 << 20;

  private static final class LocalInput implements RandomAccessInput {
    private final FileChannel channel;
    private final long length;

    LocalInput(FileChannel channel) throws IOException {
      this.channel = channel;
      this.length = channel.size();
    }

    @Override
    public long length() {
      return length;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int len) throws IOException {
      RandomAccessInput.checkRange(position, offset, len, buffer, length);
      IoStats.READ_REQUESTS.increment();
      IoStats.READ_BYTES.add(len);
      ByteBuffer bb = ByteBuffer.wrap(buffer, offset, len);
      long pos = position;
      int end = offset + len;
      while (bb.hasRemaining()) {
        // At most READ_CHUNK bytes a call: the JDK reads into a heap array through a temporary direct
        // buffer of the request's size, which a large request allocates (and zeroes, and faults in) anew.
        bb.limit(bb.position() + Math.min(end - bb.position(), READ_CHUNK));
        int n = channel.read(bb, pos);
        if (n < 0) {
          throw new java.io.EOFException("Unexpected end of file at " + pos);
        }
        pos += n;
        bb.limit(end);
      }
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  private final class LocalOutput extends OutputFile.AbortableOutputStream {
    private final Path target;
    private final Path tmp;
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
    private long position;
    private boolean closed;

    LocalOutput(Path target, boolean unused) throws IOException {
      this.target = target;
      Files.createDirectories(target.getParent());
      this.tmp = target.resolveSibling(TMP_PREFIX + target.getFileName() + "-" + UUID.randomUUID());
      this.channel = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    @Override
    public void write(int b) throws IOException {
      if (!buffer.hasRemaining()) {
        drain();
      }
      buffer.put((byte) b);
      position++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (len >= buffer.capacity()) {
        drain();
        IoStats.WRITE_BYTES.add(len);
        ByteBuffer bb = ByteBuffer.wrap(b, off, len);
        while (bb.hasRemaining()) {
          channel.write(bb);
        }
      } else {
        if (buffer.remaining() < len) {
          drain();
        }
        buffer.put(b, off, len);
      }
      position += len;
    }

    private void drain() throws IOException {
      IoStats.WRITE_BYTES.add(buffer.position());
      buffer.flip();
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      buffer.clear();
    }

    @Override
    public long position() {
      return position;
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      try {
        drain();
        if (fsync) {
          channel.force(true);
        }
        channel.close();
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        syncDir(target.getParent());
      } catch (IOException | RuntimeException e) {
        abort();
        throw e;
      }
    }

    @Override
    public void abort() {
      closed = true;
      try {
        channel.close();
        Files.deleteIfExists(tmp);
      } catch (IOException e) {
        // Best effort: a leftover temporary file is removed at the next open.
      }
    }
  }
}
