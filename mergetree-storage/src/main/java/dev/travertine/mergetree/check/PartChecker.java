package dev.travertine.mergetree.check;

import dev.travertine.io.FileIO;
import dev.travertine.io.RandomAccessInput;
import dev.travertine.io.hadoop.FileIOFileSystem;
import dev.travertine.mergetree.block.OrcBatches;
import dev.travertine.mergetree.part.GranuleIndex;
import dev.travertine.mergetree.part.PartInfo;
import dev.travertine.mergetree.part.PartReader;
import dev.travertine.mergetree.part.PartRef;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;

/**
 * Verifies one part against its metadata record, from the storage itself (no cached footer or
 * column): the file is there and has the recorded size, its CRC32 is the recorded one, ORC can
 * decode every row, the row count matches, rows are in sort-key order, and the granule index
 * in the footer is the one the rows give. The first problem found ends the check.
 */
public final class PartChecker {
  private static final int CHUNK = 1 << 20;

  private PartChecker() {}

  /**
   * What a check found: nothing ({@code message == null}), or the first problem. Any problem
   * makes the part broken: a wrong index or order would make pruning drop rows silently.
   */
  public record Finding(String message) {
    static final Finding OK = new Finding(null);

    public boolean passed() {
      return message == null;
    }
  }

  /**
   * @param cancelled polled between chunks and batches (a KILL of the CHECK query stops it)
   */
  public static Finding check(PartInfo info, TableDefinition def, FileIO io, FileIOFileSystem fs,
      BooleanSupplier cancelled) throws IOException {
    String path = info.path();
    long length;
    try {
      length = io.newInputFile(path).length();
    } catch (FileNotFoundException | NoSuchFileException e) {
      return new Finding("file " + path + " is missing");
    }
    if (length != info.bytesOnDisk()) {
      return new Finding("file " + path + " has " + length + " bytes, the part was written with "
          + info.bytesOnDisk());
    }
    if (!info.checksum().isEmpty()) {
      String crc = crc32(io, path, cancelled);
      if (!crc.equals(info.checksum())) {
        return new Finding("checksum mismatch: file " + path + " has CRC32 " + crc + ", the part was written with "
            + info.checksum());
      }
    }
    try {
      return decode(info, def, io, fs, cancelled);
    } catch (IOException | RuntimeException e) {
      if (cancelled.getAsBoolean()) {
        throw e;
      }
      return new Finding("cannot decode: " + e.getMessage());
    }
  }

  private static String crc32(FileIO io, String path, BooleanSupplier cancelled) throws IOException {
    CRC32 crc = new CRC32();
    byte[] buf = new byte[CHUNK];
    try (RandomAccessInput in = io.newInputFile(path).open()) {
      long len = in.length();
      for (long pos = 0; pos < len; pos += CHUNK) {
        stopIf(cancelled);
        int n = (int) Math.min(CHUNK, len - pos);
        in.readFully(pos, buf, 0, n);
        crc.update(buf, 0, n);
      }
    }
    return String.format("%08x", crc.getValue());
  }

  private static Finding decode(PartInfo info, TableDefinition def, FileIO io, FileIOFileSystem fs,
      BooleanSupplier cancelled) throws IOException {
    PartRef fresh = new PartRef(info, io, fs, null); // its own footer, read now
    GranuleIndex stored = fresh.index();
    TableSchema schema = def.schema();
    boolean sameSchema = info.fileSchema() == null || info.fileSchema().equals(schema.orcSchema().toString());
    int[] key = def.sortKeyIndexes();
    TypeKind[] kinds = new TypeKind[key.length];
    for (int i = 0; i < key.length; i++) {
      kinds[i] = schema.column(key[i]).type().kind();
    }
    GranuleIndex.Builder rebuilt = new GranuleIndex.Builder(schema, stored.granularity());
    VectorizedRowBatch prev = OrcBatches.newBatch(schema.orcSchema(), 1024);
    VectorizedRowBatch cur = OrcBatches.newBatch(schema.orcSchema(), 1024);
    long rows = 0;
    try (PartReader r = PartReader.open(fresh, schema, null, null, null, 0, -1)) {
      long fileRows = r.reader().getNumberOfRows();
      if (fileRows != info.rows()) {
        return new Finding("the file holds " + fileRows + " rows, the part was written with " + info.rows());
      }
      boolean havePrev = false;
      while (r.next(cur)) {
        stopIf(cancelled);
        if (cur.size == 0) {
          continue;
        }
        if (key.length > 0) {
          if (havePrev && compareKeys(prev, prev.size - 1, cur, 0, key, kinds) > 0) {
            return new Finding("rows are out of sort-key order at row " + rows);
          }
          for (int k = 1; k < cur.size; k++) {
            if (compareKeys(cur, k - 1, cur, k, key, kinds) > 0) {
              return new Finding("rows are out of sort-key order at row " + (rows + k));
            }
          }
        }
        if (sameSchema) {
          rebuilt.add(cur);
        }
        rows += cur.size;
        VectorizedRowBatch t = prev;
        prev = cur;
        cur = t;
        havePrev = true;
      }
    }
    if (rows != info.rows()) {
      return new Finding("decoded " + rows + " rows, the part was written with " + info.rows());
    }
    if (stored.rows() != rows || stored.granules() != info.granules()) {
      return new Finding("the granule index covers " + stored.rows() + " rows in " + stored.granules()
          + " granules; the part has " + rows + " rows in " + info.granules());
    }
    if (sameSchema && !Arrays.equals(stored.serialize(), rebuilt.build().serialize())) {
      return new Finding("the granule index does not match the rows (min/max/NULL counts differ)");
    }
    return Finding.OK;
  }

  private static int compareKeys(VectorizedRowBatch a, int ra, VectorizedRowBatch b, int rb, int[] key,
      TypeKind[] kinds) {
    for (int i = 0; i < key.length; i++) {
      int c = Vectors.compare(a.cols[key[i]], ra, b.cols[key[i]], rb, kinds[i]);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private static void stopIf(BooleanSupplier cancelled) {
    if (cancelled.getAsBoolean()) {
      throw new java.util.concurrent.CancellationException("CHECK TABLE was cancelled");
    }
  }
}
