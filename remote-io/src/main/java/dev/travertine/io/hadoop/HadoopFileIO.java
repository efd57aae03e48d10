package dev.travertine.io.hadoop;

import dev.travertine.io.FileIO;
import dev.travertine.io.FileInfo;
import dev.travertine.io.InputFile;
import dev.travertine.io.IoStats;
import dev.travertine.io.OutputFile;
import dev.travertine.io.RandomAccessInput;
import dev.travertine.io.SizedInputFile;
import dev.travertine.io.StoragePaths;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link FileIO} on a Hadoop file system (HDFS): objects are written under a hidden temporary
 * name, synced ({@code hsync}) and renamed into place. HDFS renames are atomic and refuse an
 * existing target, which gives create-if-absent; replacing uses FileContext's OVERWRITE rename.
 */
public final class HadoopFileIO implements FileIO {
  private static final Logger LOG = LoggerFactory.getLogger(HadoopFileIO.class);
  private static final String TMP_PREFIX = ".tmp-";

  private final FileSystem fs;
  private final FileContext fc;
  private final Path root;

  public HadoopFileIO(URI location, Configuration conf) {
    try {
      this.fs = FileSystem.newInstance(location, conf);
      this.fc = FileContext.getFileContext(location, conf);
      this.root = new Path(location.getPath() == null || location.getPath().isEmpty() ? location.resolve("/") : location);
      fs.mkdirs(root);
    } catch (IOException e) {
      throw new IllegalArgumentException("Cannot open " + location + ": " + e.getMessage()
          + " (is the namenode reachable?)", e);
    }
  }

  private Path file(String path) {
    return new Path(root, StoragePaths.check(path));
  }

  @Override
  public String location() {
    return root.toString();
  }

  @Override
  public boolean remote() {
    return true;
  }

  @Override
  public InputFile newInputFile(String path) {
    return newInputFile(path, -1);
  }

  @Override
  public InputFile newInputFile(String path, long knownLength) {
    Path f = file(path);
    return new SizedInputFile(path, knownLength) {
      @Override
      protected long fetchLength() throws IOException {
        return fs.getFileStatus(f).getLen();
      }

      @Override
      protected RandomAccessInput open(long len) throws IOException {
        FSDataInputStream in = fs.open(f);
        return new RandomAccessInput() {
          @Override
          public long length() {
            return len;
          }

          @Override
          public void readFully(long position, byte[] buffer, int offset, int n) throws IOException {
            RandomAccessInput.checkRange(position, offset, n, buffer, len);
            IoStats.READ_REQUESTS.increment();
            IoStats.READ_BYTES.add(n);
            in.readFully(position, buffer, offset, n);
          }

          @Override
          public void close() throws IOException {
            in.close();
          }
        };
      }
    };
  }

  @Override
  public OutputFile newOutputFile(String path) {
    Path target = file(path);
    return new OutputFile() {
      @Override
      public String path() {
        return path;
      }

      @Override
      public AbortableOutputStream create() throws IOException {
        Path tmp = new Path(target.getParent(), TMP_PREFIX + UUID.randomUUID());
        FSDataOutputStream out = fs.create(tmp, false);
        return new AbortableOutputStream() {
          private boolean done;

          @Override
          public void write(int b) throws IOException {
            out.write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            IoStats.WRITE_BYTES.add(len);
          }

          @Override
          public long position() {
            return out.getPos();
          }

          @Override
          public void close() throws IOException {
            if (done) {
              return;
            }
            done = true;
            try {
              out.hsync();
              out.close();
              if (!fs.rename(tmp, target)) {
                throw new IOException("Cannot publish " + target + ": it exists or its directory is missing");
              }
            } catch (IOException | RuntimeException e) {
              deleteQuietly(tmp);
              throw e;
            }
          }

          @Override
          public void abort() {
            if (!done) {
              done = true;
              try {
                out.close();
              } catch (IOException e) {
                LOG.debug("Closing aborted {}: {}", tmp, e.toString());
              }
              deleteQuietly(tmp);
            }
          }
        };
      }
    };
  }

  private void deleteQuietly(Path p) {
    try {
      fs.delete(p, false);
    } catch (IOException e) {
      LOG.warn("Cannot delete temporary file {}: {}", p, e.toString());
    }
  }

  private Path writeTemp(Path target, byte[] data) throws IOException {
    Path tmp = new Path(target.getParent(), TMP_PREFIX + UUID.randomUUID());
    try (FSDataOutputStream out = fs.create(tmp, false)) {
      out.write(data);
      out.hsync();
    }
    IoStats.WRITE_BYTES.add(data.length);
    return tmp;
  }

  @Override
  public void writeAtomic(String path, byte[] data) throws IOException {
    Path target = file(path);
    fs.mkdirs(target.getParent());
    Path tmp = writeTemp(target, data);
    try {
      fc.rename(tmp, target, Options.Rename.OVERWRITE);
    } catch (IOException | RuntimeException e) {
      deleteQuietly(tmp);
      throw e;
    }
  }

  @Override
  public boolean writeIfAbsent(String path, byte[] data) throws IOException {
    Path target = file(path);
    fs.mkdirs(target.getParent());
    Path tmp = writeTemp(target, data);
    try {
      fc.rename(tmp, target, Options.Rename.NONE);
      return true;
    } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
      deleteQuietly(tmp);
      return false;
    } catch (IOException | RuntimeException e) {
      deleteQuietly(tmp);
      throw e;
    }
  }

  @Override
  public boolean exists(String path) throws IOException {
    return fs.exists(file(path));
  }

  @Override
  public List<FileInfo> list(String prefix) throws IOException {
    Path dir = file(prefix);
    List<FileInfo> out = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> it;
    try {
      it = fs.listFiles(dir, true);
    } catch (FileNotFoundException e) {
      return out;
    }
    String base = root.toUri().getPath();
    while (it.hasNext()) {
      LocatedFileStatus s = it.next();
      if (s.getPath().getName().startsWith(TMP_PREFIX)) {
        continue;
      }
      String p = s.getPath().toUri().getPath();
      out.add(new FileInfo(p.substring(base.length() + (base.endsWith("/") ? 0 : 1)), s.getLen(),
          s.getModificationTime()));
    }
    out.sort(Comparator.comparing(FileInfo::path));
    return out;
  }

  @Override
  public boolean delete(String path) throws IOException {
    return fs.delete(file(path), false);
  }

  @Override
  public void deletePrefix(String prefix) throws IOException {
    fs.delete(file(prefix), true);
  }

  @Override
  public void close() throws IOException {
    fs.close();
  }
}
