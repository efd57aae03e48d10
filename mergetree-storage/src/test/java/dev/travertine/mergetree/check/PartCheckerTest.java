package dev.travertine.mergetree.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.io.FileIO;
import dev.travertine.mergetree.schema.OrcTypes;
import dev.travertine.io.hadoop.FileIOFileSystem;
import dev.travertine.io.local.LocalFileIO;
import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.part.OrcSupport;
import dev.travertine.mergetree.part.PartInfo;
import dev.travertine.mergetree.part.PartWriter;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.zip.CRC32;
import org.apache.orc.CompressionKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each check of a part against its record, on files written here. */
class PartCheckerTest {
  @TempDir Path dir;

  private static final TableDefinition DEF = new TableDefinition("t", new TableSchema(List.of(
      new Column("k", DataType.of(TypeKind.BIGINT), true),
      new Column("s", DataType.varchar(-1), true))), List.of("k"), null, List.of(), Map.of(), List.of());

  private PartInfo write(FileIO io, String name, long[] keys) throws Exception {
    Block b = new Block(DEF.schema());
    Random rnd = new Random(keys.length);
    for (long k : keys) {
      b.appendRow(new Object[] {k, rnd.nextBoolean() ? null : "v" + rnd.nextInt(100)});
    }
    PartWriter.Written w;
    String path = "parts/" + name + ".orc";
    try (PartWriter pw = new PartWriter(io, path, DEF.schema(), 1024, CompressionKind.ZSTD, 64 << 10)) {
      pw.append(b, null, 0, b.rows());
      w = pw.finish();
    }
    return new PartInfo(name, "all", 1, 1, 0, 0, w.rows(), w.bytes(), w.checksum(), 0, w.index().granules(),
        Map.of(), path, DEF.schema().orcSchema().toString(), OrcTypes.CURRENT_FORMAT);
  }

  private static long[] sorted(int n) {
    long[] k = new long[n];
    for (int i = 0; i < n; i++) {
      k[i] = i / 3;
    }
    return k;
  }

  private static String check(PartInfo p, FileIO io) throws Exception {
    FileIOFileSystem fs = OrcSupport.fileSystem(io);
    return PartChecker.check(p, DEF, io, fs, () -> false).message();
  }

  @Test
  void aSoundPartPasses() throws Exception {
    try (FileIO io = new LocalFileIO(dir)) {
      assertNull(check(write(io, "all_1_1_0", sorted(2500)), io));
    }
  }

  @Test
  void rowsOutOfOrderAreFound() throws Exception {
    try (FileIO io = new LocalFileIO(dir)) {
      long[] keys = sorted(2500);
      keys[1700] = 5; // smaller than its predecessor (566)
      String m = check(write(io, "all_1_1_0", keys), io);
      assertEquals("rows are out of sort-key order at row 1700", m);
      long[] across = sorted(2048);
      across[1024] = 0; // the first row of the second batch
      assertEquals("rows are out of sort-key order at row 1024", check(write(io, "all_2_2_0", across), io));
    }
  }

  @Test
  void aRecordThatDisagreesWithTheFileIsFound() throws Exception {
    try (FileIO io = new LocalFileIO(dir)) {
      PartInfo p = write(io, "all_1_1_0", sorted(5000));
      PartInfo rows = new PartInfo(p.name(), "all", 1, 1, 0, 0, 5001, p.bytesOnDisk(), p.checksum(), 0, p.granules(),
          Map.of(), p.path(), p.fileSchema(), p.format());
      assertEquals("the file holds 5000 rows, the part was written with 5001", check(rows, io));
      PartInfo crc = new PartInfo(p.name(), "all", 1, 1, 0, 0, 5000, p.bytesOnDisk(), "00000000", 0, p.granules(),
          Map.of(), p.path(), p.fileSchema(), p.format());
      assertTrue(check(crc, io).startsWith("checksum mismatch: file parts/all_1_1_0.orc has CRC32 "), check(crc, io));
      PartInfo granules = new PartInfo(p.name(), "all", 1, 1, 0, 0, 5000, p.bytesOnDisk(), p.checksum(), 0, 9,
          Map.of(), p.path(), p.fileSchema(), p.format());
      assertTrue(check(granules, io).startsWith("the granule index covers 5000 rows in 5 granules; the part has 5000 rows in 9"),
          check(granules, io));
    }
  }

  @Test
  void bytesThatAreNotOrcAreFoundUndecodable() throws Exception {
    try (FileIO io = new LocalFileIO(dir)) {
      byte[] junk = new byte[4096];
      new Random(1).nextBytes(junk);
      io.writeAtomic("parts/all_1_1_0.orc", junk);
      CRC32 crc = new CRC32();
      crc.update(junk);
      PartInfo p = new PartInfo("all_1_1_0", "all", 1, 1, 0, 0, 10, junk.length, String.format("%08x", crc.getValue()),
          0, 1, Map.of(), null, null, OrcTypes.CURRENT_FORMAT);
      assertTrue(check(p, io).startsWith("cannot decode: "), check(p, io));
    }
  }

  @Test
  void aCancelledCheckStops() throws Exception {
    try (FileIO io = new LocalFileIO(dir)) {
      PartInfo p = write(io, "all_1_1_0", sorted(500));
      assertThrows(CancellationException.class,
          () -> PartChecker.check(p, DEF, io, OrcSupport.fileSystem(io), () -> true));
    }
  }
}
