package dev.travertine.rpc.block;

import dev.travertine.exec.op.SpillStore;
import dev.travertine.vector.Batch;
import dev.travertine.vector.BatchIterator;
import dev.travertine.vector.DataType;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * Spill files of exchange blocks ({@link BlockWriter}, LZ4): each batch one length-prefixed block,
 * in a directory of the caller's (the database's {@code tmp/}), named {@code spill-*.blocks} and
 * deleted when closed. The same columnar form the exchange sends, so any vector the engine holds
 * spills and comes back alike.
 */
public final class BlockSpillStore implements SpillStore {
  private final Path dir;
  private final dev.travertine.mergetree.EngineEvents events;

  /** @param events where the files and bytes written are counted */
  public BlockSpillStore(Path dir, dev.travertine.mergetree.EngineEvents events) {
    this.dir = dir;
    this.events = events;
  }

  @Override public SpillFile create(List<DataType> types) throws IOException {
    Files.createDirectories(dir);
    events.add(dev.travertine.mergetree.EngineEvents.EXTERNAL_JOIN_FILES, 1);
    return new File(Files.createTempFile(dir, "spill-", ".blocks"), types);
  }

  private final class File implements SpillFile {
    private final Path path;
    private final List<DataType> types;
    private final List<String> names;
    private final BlockWriter writer = new BlockWriter(Codec.LZ4, 0);
    private DataOutputStream out;
    private DataInputStream in;
    private long bytes;
    private long sequence;
    private boolean closed;

    File(Path path, List<DataType> types) throws IOException {
      this.path = path;
      this.types = List.copyOf(types);
      this.names = new ArrayList<>();
      for (int c = 0; c < types.size(); c++) {
        names.add("c" + c);
      }
      this.out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(path), 1 << 16));
    }

    @Override public void append(ColumnVector[] cols, int[] sel, int n) throws IOException {
      if (out == null) {
        throw new IllegalStateException("Spill file " + path.getFileName() + " is being read");
      }
      byte[] block = writer.marshal(sequence++, names, types, cols, sel, n);
      out.writeInt(block.length);
      out.write(block);
      bytes += 4 + block.length;
      events.add(dev.travertine.mergetree.EngineEvents.EXTERNAL_JOIN_BYTES, 4 + block.length);
    }

    @Override public BatchIterator read() throws IOException {
      if (out != null) {
        out.close();
        out = null;
      }
      in = new DataInputStream(new BufferedInputStream(Files.newInputStream(path), 1 << 16));
      DataInputStream from = in;
      return new BatchIterator() {
        @Override public Batch next() throws IOException {
          while (true) {
            int len;
            try {
              len = from.readInt();
            } catch (EOFException e) {
              return null;
            }
            byte[] block = new byte[len];
            from.readFully(block);
            WireBlock w = BlockReader.unmarshal(block);
            if (w.rows() > 0) {
              return new Batch(w.columns(), Batch.identity(w.rows()), w.rows());
            }
          }
        }

        @Override public void close() throws IOException {
          from.close();
        }
      };
    }

    @Override public long bytes() {
      return bytes;
    }

    @Override public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      try {
        if (out != null) {
          out.close();
        }
        if (in != null) {
          in.close();
        }
      } finally {
        Files.deleteIfExists(path);
      }
    }
  }
}
