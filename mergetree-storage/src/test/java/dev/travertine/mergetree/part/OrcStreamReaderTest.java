package dev.travertine.mergetree.part;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcConf;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our reader of ORC streams against ORC's own reader of the same files, batch by batch: every type
 * it decodes, values shaped to make ORC's writer use each run-length encoding (short repeats,
 * direct, patched base, delta), NULLs at several densities (none, some, stripes of NULLs only),
 * strings with and without dictionaries, every compression codec, several stripes read whole or as
 * a range, column subsets and batch sizes. Types it does not decode make {@link OrcStreamReader#open}
 * decline.
 */
class OrcStreamReaderTest {
  @TempDir Path dir;

  private static final TypeDescription SCHEMA = TypeDescription.fromString("struct<b:boolean,ti:tinyint,si:smallint,"
      + "i:int,l:bigint,seq:bigint,dt:date,r:float,d:double,s:string,u:string,vc:string,ts:timestamp>");

  private static final int ROWS = 23_000;
  private static final int STRIPE_ROWS = 5_000;

  /** Writes {@link #SCHEMA} rows; {@code dictionaryThreshold}: ORC's dictionary key size threshold (0: no dictionaries). */
  private Path write(String name, CompressionKind compression, double dictionaryThreshold, long seed) throws Exception {
    return write(name, compression, dictionaryThreshold, seed, 1000);
  }

  /** As above, with row groups (granules) of {@code stride} rows. */
  private Path write(String name, CompressionKind compression, double dictionaryThreshold, long seed, int stride)
      throws Exception {
    Path file = dir.resolve(name + ".orc");
    Configuration conf = new Configuration(false);
    OrcConf.STRIPE_ROW_COUNT.setLong(conf, STRIPE_ROWS);
    OrcConf.DICTIONARY_KEY_SIZE_THRESHOLD.setDouble(conf, dictionaryThreshold);
    Random rnd = new Random(seed);
    try (Writer w = OrcFile.createWriter(new org.apache.hadoop.fs.Path(file.toString()),
        OrcFile.writerOptions(conf).setSchema(SCHEMA).compress(compression).rowIndexStride(stride).useUTCTimestamp(true)
            .bufferSize(8 * 1024).fileSystem(FileSystem.getLocal(conf)))) {
      VectorizedRowBatch b = SCHEMA.createRowBatch(1000);
      long seq = -50_000;
      for (int r = 0; r < ROWS; r++) {
        int row = b.size++;
        int stripe = r / STRIPE_ROWS;
        seq += r % 3000 < 1500 ? 1 : r % 3000 < 2000 ? rnd.nextInt(40) : -rnd.nextInt(5); // fixed and varying deltas
        for (int c = 0; c < SCHEMA.getChildren().size(); c++) {
          ColumnVector v = b.cols[c];
          // column 0 has no NULL, column 1 NULLs in stripe 2 only (all of it), the others some
          boolean isNull = c == 0 ? false : c == 1 ? stripe == 2 : rnd.nextInt(c + 3) == 0;
          if (isNull) {
            v.noNulls = false;
            v.isNull[row] = true;
            continue;
          }
          v.isNull[row] = false;
          switch (c) {
            case 0 -> ((LongColumnVector) v).vector[row] = rnd.nextInt(7) == 0 ? 1 : r / 700 % 2; // runs and noise
            case 1 -> ((LongColumnVector) v).vector[row] = r % 400 < 200 ? 5 : (byte) rnd.nextInt();
            case 2 -> ((LongColumnVector) v).vector[row] = r / 37 % 5 == 0 ? (short) rnd.nextInt() : r / 37 % 5 - 2;
            case 3 -> ((LongColumnVector) v).vector[row] = rnd.nextInt(50) == 0
                ? (rnd.nextBoolean() ? Integer.MAX_VALUE : Integer.MIN_VALUE) // patched base
                : rnd.nextInt(100) - (r % 2000 < 1000 ? 0 : 70);
            case 4 -> ((LongColumnVector) v).vector[row] = switch (rnd.nextInt(8)) {
              case 0 -> Long.MIN_VALUE;
              case 1 -> Long.MAX_VALUE;
              case 2 -> rnd.nextInt(1000);
              default -> rnd.nextLong();
            };
            case 5 -> ((LongColumnVector) v).vector[row] = seq;
            case 6 -> ((LongColumnVector) v).vector[row] = 10_000 + r / 50 + rnd.nextInt(3);
            case 7 -> ((DoubleColumnVector) v).vector[row] = switch (rnd.nextInt(10)) {
              case 0 -> Float.NaN;
              case 1 -> -0.0f;
              case 2 -> Float.NEGATIVE_INFINITY;
              default -> (rnd.nextFloat() - 0.5f) * 1e6f;
            };
            case 8 -> ((DoubleColumnVector) v).vector[row] = switch (rnd.nextInt(10)) {
              case 0 -> Double.NaN;
              case 1 -> Double.MIN_VALUE;
              case 2 -> Double.MAX_VALUE;
              default -> (rnd.nextDouble() - 0.5) * 1e12;
            };
            case 9 -> ((BytesColumnVector) v).setVal(row, ("flag" + rnd.nextInt(6) + (r % 2 == 0 ? "é" : ""))
                .getBytes(StandardCharsets.UTF_8));
            case 10 -> ((BytesColumnVector) v).setVal(row, (rnd.nextInt(20) == 0 ? "" : "u" + rnd.nextLong() + "\u4e2d")
                .getBytes(StandardCharsets.UTF_8));
            case 12 -> {
              // seconds from 1906 to 2033, before and after ORC's base (2015) and 1970; nanoseconds with
              // 0 to 8 trailing zeros (ORC's encoding takes them off), runs of one time and of steps
              long sec = r % 2000 < 300 ? 1_600_000_000L + r / 100 : r % 2000 < 600 ? 1_420_070_400L + r
                  : rnd.nextInt(8) == 0 ? -rnd.nextInt(3) : (long) rnd.nextInt() * 2;
              int nano = switch (rnd.nextInt(5)) {
                case 0 -> 0;
                case 1 -> rnd.nextInt(1000) * 1_000_000;
                case 2 -> rnd.nextInt(10) * 100_000_000;
                default -> rnd.nextInt(1_000_000_000);
              };
              TimestampColumnVector t = (TimestampColumnVector) v;
              t.time[row] = sec * 1000 + nano / 1_000_000;
              t.nanos[row] = nano;
            }
            // few distinct values in even stripes, nearly all distinct in odd ones: the writer may choose per stripe
            default -> ((BytesColumnVector) v).setVal(row, ("v" + (stripe % 2 == 0 ? rnd.nextInt(30) : rnd.nextLong()))
                .getBytes(StandardCharsets.UTF_8));
          }
        }
        if (b.size == b.getMaxSize()) {
          w.addRowBatch(b);
          b.reset();
        }
      }
      if (b.size > 0) {
        w.addRowBatch(b);
      }
    }
    return file;
  }

  private static Reader reader(Path file) throws Exception {
    Configuration conf = new Configuration(false);
    return OrcFile.createReader(new org.apache.hadoop.fs.Path(file.toString()),
        OrcFile.readerOptions(conf).filesystem(FileSystem.getLocal(conf)).useUTCTimestamp(true)); // as parts are read
  }

  private static OrcStreamReader ours(Path file, Reader r, boolean[] include, long offset, long length)
      throws Exception {
    Configuration conf = new Configuration(false);
    FileSystem fs = FileSystem.getLocal(conf);
    return OrcStreamReader.open(() -> fs.open(new org.apache.hadoop.fs.Path(file.toString())), r, include, offset,
        length);
  }

  /** Reads the file both ways with batches of {@code batchSize} rows and compares them batch by batch. */
  private static void compare(Path file, boolean[] include, long offset, long length, int batchSize, String what)
      throws Exception {
    compare(file, include, offset, length, batchSize, false, false, what);
    compare(file, include, offset, length, batchSize, true, false, what + ", dictionary vectors");
    compare(file, include, offset, length, batchSize, true, true, what + ", dictionary and narrow vectors");
  }

  private static void compare(Path file, boolean[] include, long offset, long length, int batchSize,
      boolean dictionaryStrings, boolean narrow, String what) throws Exception {
    try (Reader r = reader(file)) {
      Reader.Options o = r.options();
      if (include != null) {
        o.include(include);
      }
      if (length >= 0) {
        o.range(offset, length);
      }
      long rows = 0;
      try (RecordReader theirs = r.rows(o); OrcStreamReader ours = ours(file, r, include, offset, length)) {
        assertNotNull(ours, what + ": our reader declined");
        ours.dictionaryStrings(dictionaryStrings);
        ours.narrowIntegers(narrow);
        VectorizedRowBatch expected = SCHEMA.createRowBatch(batchSize);
        VectorizedRowBatch actual = SCHEMA.createRowBatch(batchSize);
        int batch = 0;
        while (true) {
          boolean e = theirs.nextBatch(expected);
          boolean a = ours.next(actual);
          assertEquals(e && expected.size > 0, a, what + ": batch " + batch + " exists");
          if (!a) {
            break;
          }
          assertEquals(expected.size, actual.size, what + ": batch " + batch + " rows");
          for (int c = 0; c < SCHEMA.getChildren().size(); c++) {
            if (include == null || include[c + 1]) {
              assertColumn(expected.cols[c], actual.cols[c], expected.size, what + ": batch " + batch + " column " + c);
              assertEquals(narrow && NARROW_COLUMNS.contains(c),
                  actual.cols[c] instanceof dev.travertine.vector.IntegerVector, what + ": column " + c + " narrow");
            }
          }
          rows += actual.size;
          batch++;
        }
      }
      long want = 0;
      for (StripeInformation s : r.getStripes()) {
        if (length < 0 || s.getOffset() >= offset && s.getOffset() < offset + length) {
          want += s.getNumberOfRows();
        }
      }
      assertEquals(want, rows, what + ": rows read");
    }
  }

  private static void assertColumn(ColumnVector e, ColumnVector a, int n, String what) {
    if ((a instanceof LongColumnVector || a instanceof dev.travertine.vector.IntegerVector) && e.noNulls && n > 1) {
      assertEquals(e.isRepeating, a.isRepeating, what + ": one value throughout, as ORC's reader marks it");
    }
    for (int i = 0; i < n; i++) {
      int ie = e.isRepeating ? 0 : i;
      boolean nullE = !e.noNulls && e.isNull[ie];
      boolean nullA = !a.noNulls && a.isNull[i];
      assertEquals(nullE, nullA, what + " row " + i + " NULL");
      if (nullE) {
        continue;
      }
      if (a instanceof dev.travertine.vector.IntegerVector iv) {
        assertEquals(((LongColumnVector) e).vector[ie], iv.get(i), what + " row " + i + " (narrow)");
      } else if (e instanceof LongColumnVector le) {
        assertEquals(le.vector[ie], ((LongColumnVector) a).vector[i], what + " row " + i);
      } else if (e instanceof TimestampColumnVector te) {
        TimestampColumnVector ta = (TimestampColumnVector) a;
        assertEquals(te.time[ie], ta.time[i], what + " row " + i + " milliseconds");
        assertEquals(te.nanos[ie], ta.nanos[i], what + " row " + i + " nanoseconds");
      } else if (e instanceof DoubleColumnVector de) {
        assertEquals(Double.doubleToRawLongBits(de.vector[ie]),
            Double.doubleToRawLongBits(((DoubleColumnVector) a).vector[i]), what + " row " + i);
      } else {
        BytesColumnVector be = (BytesColumnVector) e;
        byte[] want = Arrays.copyOfRange(be.vector[ie], be.start[ie], be.start[ie] + be.length[ie]);
        if (a instanceof dev.travertine.vector.DictionaryVector d) {
          int id = d.ids[i];
          assertArrayEquals(want, Arrays.copyOfRange(d.arena, d.offsets[id], d.offsets[id + 1]), what + " row " + i);
          continue;
        }
        BytesColumnVector ba = (BytesColumnVector) a;
        assertArrayEquals(want, Arrays.copyOfRange(ba.vector[i], ba.start[i], ba.start[i] + ba.length[i]),
            what + " row " + i);
      }
    }
  }

  @Test
  void everyColumnMatchesOrcsReaderForEveryCodec() throws Exception {
    long seed = 1;
    for (CompressionKind kind : List.of(CompressionKind.LZ4, CompressionKind.ZSTD, CompressionKind.ZLIB,
        CompressionKind.SNAPPY, CompressionKind.NONE)) {
      Path file = write("all_" + kind, kind, 0.8, seed++);
      compare(file, null, 0, -1, 1024, kind.toString());
      compare(file, null, 0, -1, 777, kind + ", batches of 777");
    }
  }

  @Test
  void lz4ChunksReadTheSameByNativeCodeAndByOrcsCodec() throws Exception {
    // lz4-java's native library ships for this platform (x86-64 and arm64 Linux); without it the
    // reader falls back to ORC's codec, which the second pass reads with
    assertNotNull(NativeLz4.decompressor(), "lz4-java's native decompressor loads");
    Path file = write("lz4_both", CompressionKind.LZ4, 0.5, 17);
    compare(file, null, 0, -1, 1024, "LZ4, native");
    System.setProperty("travertine.scan.nativeLz4", "false");
    try {
      assertNull(NativeLz4.decompressor());
      compare(file, null, 0, -1, 1024, "LZ4, ORC's codec");
    } finally {
      System.clearProperty("travertine.scan.nativeLz4");
    }
  }

  @Test
  void aCorruptLz4ChunkIsAnError() {
    // a token promising 15 + 200 literal bytes, of which 3 are present
    byte[] chunk = {(byte) 0xF0, (byte) 200, 1, 2, 3};
    byte[] out = new byte[1 << 16];
    IOException e = assertThrows(IOException.class, () -> NativeLz4.decompress(
        NativeLz4.decompressor(), chunk, 0, chunk.length, out, 0, out.length));
    assertTrue(e.getMessage().contains("corrupt LZ4 chunk"), e.getMessage());
    // and a chunk that decompresses past the room it has
    byte[] literals = {(byte) 0x50, 1, 2, 3, 4, 5};
    assertThrows(IOException.class, () -> NativeLz4.decompress(
        NativeLz4.decompressor(), literals, 0, literals.length, out, 0, 3));
  }

  /** A cell as text: NULL, a long, a double's bits, or a string's bytes. */
  private static String cell(ColumnVector v, int i) {
    int at = v.isRepeating ? 0 : i;
    if (!v.noNulls && v.isNull[at]) {
      return "NULL";
    }
    if (v instanceof LongColumnVector l) {
      return Long.toString(l.vector[at]);
    }
    if (v instanceof DoubleColumnVector d) {
      return Long.toHexString(Double.doubleToRawLongBits(d.vector[at]));
    }
    if (v instanceof TimestampColumnVector t) {
      return t.time[at] + "ms " + t.nanos[at] + "ns";
    }
    if (v instanceof dev.travertine.vector.DictionaryVector d) {
      int id = d.ids[i];
      return new String(d.arena, d.offsets[id], d.offsets[id + 1] - d.offsets[id], StandardCharsets.UTF_8);
    }
    BytesColumnVector b = (BytesColumnVector) v;
    return new String(b.vector[at], b.start[at], b.length[at], StandardCharsets.UTF_8);
  }

  /**
   * Reads {@code file} with our reader told to read only the granules {@code mask} marks, and
   * compares its rows with ORC's reader's rows of those row groups (ORC numbers a stripe's row
   * groups from its first row).
   */
  private static void compareGranules(Path file, boolean[] mask, int stride, int batchSize,
      boolean dictionaryStrings, String what) throws Exception {
    int columns = SCHEMA.getChildren().size();
    List<String> expected = new ArrayList<>();
    List<String> actual = new ArrayList<>();
    try (Reader r = reader(file)) {
      try (RecordReader theirs = r.rows(r.options())) {
        VectorizedRowBatch b = SCHEMA.createRowBatch(1000);
        int granule = 0;
        int stripe = 0;
        long inStripe = 0;
        List<StripeInformation> stripes = r.getStripes();
        while (theirs.nextBatch(b)) {
          for (int i = 0; i < b.size; i++) {
            if (inStripe == stripes.get(stripe).getNumberOfRows()) {
              granule += (int) ((inStripe + stride - 1) / stride);
              stripe++;
              inStripe = 0;
            }
            int g = granule + (int) (inStripe / stride);
            inStripe++;
            if (g < mask.length && !mask[g]) {
              continue;
            }
            StringBuilder row = new StringBuilder();
            for (int c = 0; c < columns; c++) {
              row.append(cell(b.cols[c], i)).append('|');
            }
            expected.add(row.toString());
          }
        }
      }
      try (OrcStreamReader ours = ours(file, r, null, 0, -1)) {
        ours.dictionaryStrings(dictionaryStrings);
        ours.granules(mask, stride);
        VectorizedRowBatch b = SCHEMA.createRowBatch(batchSize);
        while (ours.next(b)) {
          assertTrue(b.size > 0, what + ": an empty batch");
          for (int i = 0; i < b.size; i++) {
            StringBuilder row = new StringBuilder();
            for (int c = 0; c < columns; c++) {
              row.append(cell(b.cols[c], i)).append('|');
            }
            actual.add(row.toString());
          }
        }
      }
    }
    assertEquals(expected.size(), actual.size(), what + ": rows");
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.get(i), actual.get(i), what + ": row " + i);
    }
  }

  @Test
  void onlyTheSelectedGranulesRowsAsOrcSkipsRowGroups() throws Exception {
    long seed = 11;
    for (CompressionKind kind : List.of(CompressionKind.LZ4, CompressionKind.ZSTD, CompressionKind.NONE)) {
      Path file = write("granules_" + kind, kind, 0.8, seed++);
      int granules = 4 * (STRIPE_ROWS / 1000) + (ROWS - 4 * STRIPE_ROWS + 999) / 1000; // 23
      Random rnd = new Random(seed);
      List<boolean[]> masks = new ArrayList<>();
      boolean[] all = new boolean[granules];
      Arrays.fill(all, true);
      masks.add(all);
      masks.add(new boolean[granules]); // none: no row
      boolean[] alternate = new boolean[granules];
      for (int g = 0; g < granules; g++) {
        alternate[g] = g % 2 == 1;
      }
      masks.add(alternate);
      boolean[] lastOfStripes = new boolean[granules]; // a stripe's start passed over, its end read
      for (int g = 4; g < granules; g += 5) {
        lastOfStripes[g] = true;
      }
      masks.add(lastOfStripes);
      for (int m = 0; m < 4; m++) {
        boolean[] random = new boolean[granules];
        for (int g = 0; g < granules; g++) {
          random[g] = rnd.nextInt(3) == 0;
        }
        masks.add(random);
      }
      for (int m = 0; m < masks.size(); m++) {
        for (int batch : new int[] {1000, 777}) {
          compareGranules(file, masks.get(m), 1000, batch, m % 2 == 0, kind + ", mask " + m + ", batches of " + batch);
        }
      }
    }
    // strings without a dictionary: their lengths are decoded to pass over their bytes
    Path direct = write("granules_direct", CompressionKind.LZ4, 0, 99);
    boolean[] mask = new boolean[23];
    for (int g = 0; g < mask.length; g++) {
      mask[g] = g % 3 == 2;
    }
    compareGranules(direct, mask, 1000, 1000, false, "direct strings");
    // granules of an odd number of rows (ORC takes no fewer than 1,000): NULL flags and booleans passed over mid-byte
    Path odd = write("granules_odd", CompressionKind.LZ4, 0.8, 7, 1003);
    for (int m = 0; m < 3; m++) {
      boolean[] some = new boolean[23];
      for (int g = 0; g < some.length; g++) {
        some[g] = rnd(m, g);
      }
      compareGranules(odd, some, 1003, 1000, m == 1, "granules of 1003 rows, mask " + m);
      compareGranules(odd, some, 1003, 100, false, "granules of 1003 rows, batches of 100, mask " + m);
    }
  }

  private static boolean rnd(int m, int g) {
    return new Random(m * 1000L + g).nextInt(m + 2) == 0;
  }

  @Test
  void batchesOfOneValueAreMarkedRepeatingAsOrcMarksThem() throws Exception {
    TypeDescription schema = TypeDescription.fromString("struct<k:bigint,f:boolean,t:tinyint,d:date>");
    Path file = dir.resolve("repeating.orc");
    Configuration conf = new Configuration(false);
    try (Writer w = OrcFile.createWriter(new org.apache.hadoop.fs.Path(file.toString()),
        OrcFile.writerOptions(conf).setSchema(schema).compress(CompressionKind.LZ4)
            .fileSystem(FileSystem.getLocal(conf)))) {
      VectorizedRowBatch b = schema.createRowBatch(1000);
      for (int r = 0; r < 10_000; r++) {
        int row = b.size++;
        ((LongColumnVector) b.cols[0]).vector[row] = r < 3000 ? 7 : r < 6000 ? r : -1L << 40; // constant, varying, constant
        ((LongColumnVector) b.cols[1]).vector[row] = r < 2000 || r % 2 == 0 ? 1 : 0;
        ((LongColumnVector) b.cols[2]).vector[row] = r < 5000 ? -3 : r % 7;
        ((LongColumnVector) b.cols[3]).vector[row] = 19_000 + r / 4000;
        if (b.size == b.getMaxSize()) {
          w.addRowBatch(b);
          b.reset();
        }
      }
    }
    int repeating = 0;
    try (Reader r = reader(file); RecordReader theirs = r.rows(r.options());
        OrcStreamReader ours = ours(file, r, null, 0, -1)) {
      VectorizedRowBatch expected = schema.createRowBatch(1000);
      VectorizedRowBatch actual = schema.createRowBatch(1000);
      while (theirs.nextBatch(expected)) {
        assertTrue(ours.next(actual));
        for (int c = 0; c < 4; c++) {
          assertColumn(expected.cols[c], actual.cols[c], expected.size, "column " + c);
          repeating += actual.cols[c].isRepeating ? 1 : 0;
        }
      }
      assertFalse(ours.next(actual));
    }
    assertEquals(3 + 4 + 2 + 5 + 10, repeating, "batches of one value (k: 3 + 4, f: 2, t: 5, d: 10)");
  }

  @Test
  void streamsFetchedAheadDecodeAsReadOnes() throws Exception {
    Path file = write("ahead", CompressionKind.LZ4, 0.8, 21);
    try (Reader r = reader(file); RecordReader theirs = r.rows(r.options());
        OrcStreamReader ours = ours(file, r, null, 0, -1)) {
      ours.fetchNext(); // as a prefetch does: the first stripe's stored bytes, nothing decoded
      ours.fetchNext(); // asked twice: still the first stripe, fetched once
      VectorizedRowBatch expected = SCHEMA.createRowBatch(1000);
      VectorizedRowBatch actual = SCHEMA.createRowBatch(1000);
      int batch = 0;
      while (theirs.nextBatch(expected)) {
        assertTrue(ours.next(actual), "batch " + batch);
        assertEquals(expected.size, actual.size);
        for (int c = 0; c < SCHEMA.getChildren().size(); c++) {
          assertColumn(expected.cols[c], actual.cols[c], expected.size, "batch " + batch + " column " + c);
        }
        if (batch % 3 == 1) {
          ours.fetchNext(); // the next stripe while this one is decoded
        }
        batch++;
      }
      assertFalse(ours.next(actual));
      assertEquals(23, batch);
    }
  }

  /** The string columns' encodings in each stripe of {@code file}, as "column:kind". */
  private static java.util.Set<String> stringEncodings(Path file) throws Exception {
    try (Reader r = reader(file); OrcStreamReader ours = ours(file, r, null, 0, -1)) {
      java.util.Set<String> kinds = new java.util.TreeSet<>();
      for (org.apache.orc.OrcProto.StripeFooter f : ours.footers()) {
        for (int c : new int[] {10, 11, 12}) {
          kinds.add(c + ":" + f.getColumns(c).getKind());
        }
      }
      return kinds;
    }
  }

  /**
   * The files cover both string encodings; and a batch that holds our dictionary vector from an
   * earlier read (a reused batch) gets Hive's vector back for strings without a dictionary.
   */
  @Test
  void bothStringEncodingsAndABatchReusedAcrossThem() throws Exception {
    Path dict = write("dictionaries", CompressionKind.LZ4, 0.8, 9);
    Path direct = write("direct_strings", CompressionKind.LZ4, 0, 10);
    assertEquals(java.util.Set.of("10:DICTIONARY_V2", "11:DIRECT_V2", "12:DICTIONARY_V2"), stringEncodings(dict));
    assertEquals(java.util.Set.of("10:DIRECT_V2", "11:DIRECT_V2", "12:DIRECT_V2"), stringEncodings(direct));
    VectorizedRowBatch batch = SCHEMA.createRowBatch(1000);
    try (Reader r = reader(dict); OrcStreamReader ours = ours(dict, r, null, 0, -1)) {
      ours.dictionaryStrings(true);
      assertTrue(ours.next(batch));
      assertTrue(batch.cols[9] instanceof dev.travertine.vector.DictionaryVector, "column s as our dictionary vector");
    }
    try (Reader r = reader(direct); OrcStreamReader ours = ours(direct, r, null, 0, -1);
        RecordReader theirs = r.rows()) {
      ours.dictionaryStrings(true);
      VectorizedRowBatch expected = SCHEMA.createRowBatch(1000);
      for (int b = 0; b < 3; b++) {
        assertTrue(ours.next(batch));
        assertTrue(theirs.nextBatch(expected));
        assertTrue(batch.cols[9] instanceof BytesColumnVector, "Hive's vector again");
        assertColumn(expected.cols[9], batch.cols[9], expected.size, "reused batch " + b);
      }
    }
  }

  /** The columns of {@link #SCHEMA} that come as our narrow vectors (boolean, tinyint, smallint, int, date). */
  private static final java.util.Set<Integer> NARROW_COLUMNS = java.util.Set.of(0, 1, 2, 3, 6);

  /**
   * Narrow vectors are filled again only when their batch comes back to the reader: a batch handed
   * back gets its arrays refilled, a fresh batch gets new ones, and a vector kept from an earlier
   * batch keeps its values.
   */
  @Test
  void narrowVectorsAreRefilledOnlyWhenTheirBatchComesBack() throws Exception {
    Path file = write("narrow", CompressionKind.LZ4, 0.8, 12);
    try (Reader r = reader(file); OrcStreamReader ours = ours(file, r, null, 0, -1); RecordReader theirs = r.rows()) {
      ours.dictionaryStrings(true);
      ours.narrowIntegers(true);
      VectorizedRowBatch expected = SCHEMA.createRowBatch(1000);
      VectorizedRowBatch first = SCHEMA.createRowBatch(1000);
      assertTrue(ours.next(first));
      assertTrue(theirs.nextBatch(expected));
      dev.travertine.vector.Int16Vector kept = (dev.travertine.vector.Int16Vector) first.cols[2];
      short[] keptValues = Arrays.copyOf(kept.values, first.size);
      boolean[] keptNulls = Arrays.copyOf(kept.isNull, first.size);
      VectorizedRowBatch fresh = SCHEMA.createRowBatch(1000);
      assertTrue(ours.next(fresh));
      assertTrue(theirs.nextBatch(expected));
      assertColumn(expected.cols[2], fresh.cols[2], expected.size, "a fresh batch");
      assertTrue(((dev.travertine.vector.Int16Vector) fresh.cols[2]).values != kept.values, "new arrays");
      assertArrayEquals(keptValues, Arrays.copyOf(kept.values, first.size), "the kept vector's values");
      assertArrayEquals(keptNulls, Arrays.copyOf(kept.isNull, first.size), "the kept vector's NULLs");
      assertTrue(ours.next(first)); // the first batch handed back
      assertTrue(theirs.nextBatch(expected));
      for (int c : NARROW_COLUMNS) {
        assertColumn(expected.cols[c], first.cols[c], expected.size, "a batch handed back, column " + c);
      }
      assertTrue(((dev.travertine.vector.Int16Vector) first.cols[2]).values == kept.values, "its arrays refilled");
      assertTrue(first.cols[2] != kept, "in a vector of its own");
    }
  }

  @Test
  void stringsWithoutDictionariesAndLargeBatches() throws Exception {
    Path file = write("direct", CompressionKind.LZ4, 0, 7);
    try (Reader r = reader(file)) {
      // the writer was told to keep no dictionary: both string encodings are covered between the two files
      assertEquals(ROWS, r.getNumberOfRows());
    }
    compare(file, null, 0, -1, 65_536, "direct strings");
    compare(file, null, 0, -1, 1, "batches of one row");
  }

  @Test
  void columnSubsetsAndStripeRanges() throws Exception {
    Path file = write("ranges", CompressionKind.ZSTD, 0.8, 3);
    int fields = SCHEMA.getChildren().size();
    Random rnd = new Random(5);
    for (int t = 0; t < 6; t++) {
      boolean[] include = new boolean[fields + 1];
      include[0] = true;
      for (int c = 1; c <= fields; c++) {
        include[c] = rnd.nextBoolean();
      }
      compare(file, include, 0, -1, 1000, "columns " + Arrays.toString(include));
    }
    try (Reader r = reader(file)) {
      List<StripeInformation> stripes = r.getStripes();
      assertTrue(stripes.size() >= 4, "stripes: " + stripes.size());
      StripeInformation second = stripes.get(1);
      compare(file, null, second.getOffset(), second.getLength(), 1000, "the second stripe");
      compare(file, null, second.getOffset(), stripes.get(3).getOffset() - second.getOffset() + 1, 1000,
          "stripes 2 to 4");
      compare(file, null, stripes.get(stripes.size() - 1).getOffset() + 1, 1 << 30, 1000, "no stripe starts there");
    }
  }

  @Test
  void typesItDoesNotDecodeAreLeftToOrc() throws Exception {
    TypeDescription schema = TypeDescription.fromString("struct<k:bigint,ts:timestamp,c:char(3),dec:decimal(20,2)>");
    Path file = dir.resolve("other.orc");
    Configuration conf = new Configuration(false);
    // timestamps written in a zone other than UTC (ORC stores seconds from 2015-01-01 in the writer's
    // zone, and its reader converts them): parts write UTC, and our reader decodes only that
    java.util.TimeZone zone = java.util.TimeZone.getDefault();
    java.util.TimeZone.setDefault(java.util.TimeZone.getTimeZone("America/New_York"));
    try (Writer w = OrcFile.createWriter(new org.apache.hadoop.fs.Path(file.toString()),
        OrcFile.writerOptions(conf).setSchema(schema).fileSystem(FileSystem.getLocal(conf)))) {
      VectorizedRowBatch b = schema.createRowBatch();
      for (int i = 0; i < 3; i++) {
        ((BytesColumnVector) b.cols[2]).setVal(i, "abc".getBytes(StandardCharsets.UTF_8));
      }
      b.size = 3;
      w.addRowBatch(b);
    } finally {
      java.util.TimeZone.setDefault(zone);
    }
    try (Reader r = reader(file)) {
      for (int c = 2; c <= 4; c++) {
        boolean[] include = {true, true, false, false, false};
        include[c] = true;
        assertNull(ours(file, r, include, 0, -1), "column " + c);
      }
      try (OrcStreamReader ours = ours(file, r, new boolean[] {true, true, false, false, false}, 0, -1)) {
        assertNotNull(ours, "BIGINT alone");
        VectorizedRowBatch b = schema.createRowBatch();
        b.cols[1] = b.cols[2] = b.cols[3] = null;
        assertTrue(ours.next(b));
        assertEquals(3, b.size);
        assertFalse(ours.next(b));
      }
    }
  }

  /** Supported types at the table level: a scaled DECIMAL among them. */
  private static final dev.travertine.mergetree.schema.TableSchema TABLE = new dev.travertine.mergetree.schema.TableSchema(
      List.of(new dev.travertine.mergetree.schema.Column("k", dev.travertine.vector.DataType.of(dev.travertine.vector.TypeKind.BIGINT), false),
          new dev.travertine.mergetree.schema.Column("i", dev.travertine.vector.DataType.of(dev.travertine.vector.TypeKind.INTEGER), true),
          new dev.travertine.mergetree.schema.Column("b", dev.travertine.vector.DataType.of(dev.travertine.vector.TypeKind.BOOLEAN), true),
          new dev.travertine.mergetree.schema.Column("ti", dev.travertine.vector.DataType.of(dev.travertine.vector.TypeKind.TINYINT), true),
          new dev.travertine.mergetree.schema.Column("si", dev.travertine.vector.DataType.of(dev.travertine.vector.TypeKind.SMALLINT), true),
          new dev.travertine.mergetree.schema.Column("r", dev.travertine.vector.DataType.of(dev.travertine.vector.TypeKind.REAL), true),
          new dev.travertine.mergetree.schema.Column("d", dev.travertine.vector.DataType.of(dev.travertine.vector.TypeKind.DOUBLE), true),
          new dev.travertine.mergetree.schema.Column("dec", dev.travertine.vector.DataType.decimal(18, 4), true),
          new dev.travertine.mergetree.schema.Column("vc", dev.travertine.vector.DataType.varchar(-1), true),
          new dev.travertine.mergetree.schema.Column("dt", dev.travertine.vector.DataType.of(dev.travertine.vector.TypeKind.DATE), true),
          new dev.travertine.mergetree.schema.Column("flag", dev.travertine.vector.DataType.varchar(-1), true)));

  /** PREWHERE on {@code i}: rows whose value is a multiple of 3 and, when {@code firstRows} is set, only the first 700 rows by k. */
  private static dev.travertine.vector.RowFilter prewhere(boolean firstRows) {
    return new dev.travertine.vector.RowFilter() {
      @Override public int[] columns() {
        return firstRows ? new int[] {0, 1} : new int[] {1};
      }

      @Override public Instance create() {
        return (cols, sel, n) -> {
          LongColumnVector i = (LongColumnVector) cols[1];
          LongColumnVector k = (LongColumnVector) cols[0];
          int m = 0;
          for (int j = 0; j < n; j++) {
            int r = sel[j];
            boolean pass = (i.noNulls || !i.isNull[r]) && i.vector[r] % 3 == 0 && (!firstRows || k.vector[r] < 700);
            if (pass) {
              sel[m++] = r;
            }
          }
          return m;
        };
      }
    };
  }

  /** Through a part: a PREWHERE, scaled DECIMALs and every supported type give the rows ORC's reader gives. */
  @Test
  void partsReadWithPrewhereAsOrcReadsThem() throws Exception {
    dev.travertine.io.FileIO io = new dev.travertine.io.local.LocalFileIO(dir, false);
    Random rnd = new Random(11);
    dev.travertine.mergetree.block.Block block = new dev.travertine.mergetree.block.Block(TABLE);
    int rows = 9000;
    for (int r = 0; r < rows; r++) {
      Object[] row = new Object[TABLE.size()];
      row[0] = (long) r;
      for (int c = 1; c < row.length - 1; c++) {
        row[c] = rnd.nextInt(6) == 0 ? null
            : dev.travertine.mergetree.RandomValues.value(rnd, TABLE.column(c).type());
      }
      row[row.length - 1] = rnd.nextInt(6) == 0 ? null : "flag" + rnd.nextInt(4); // a dictionary's strings
      block.appendRow(row);
    }
    String path = "parts/all_1_1_0.orc";
    PartWriter.Written w;
    try (PartWriter pw = new PartWriter(io, path, TABLE, 1024, CompressionKind.LZ4, 64 << 10)) {
      pw.append(block, null, 0, rows);
      w = pw.finish();
    }
    PartInfo info = new PartInfo("all_1_1_0", "all", 1, 1, 0, 0, w.rows(), w.bytes(), w.checksum(), 0,
        w.index().granules(), java.util.Map.of(), path, TABLE.orcSchema().toString(),
        dev.travertine.mergetree.schema.OrcTypes.CURRENT_FORMAT);
    PartRef part = new PartRef(info, io, OrcSupport.fileSystem(io), null);
    for (dev.travertine.vector.RowFilter f : java.util.Arrays.asList(null, prewhere(false), prewhere(true))) {
      List<String> expected = readPart(part, f, false, false, TypeDescription.RowBatchVersion.USE_DECIMAL64);
      List<String> actual = readPart(part, f, true, false, TypeDescription.RowBatchVersion.USE_DECIMAL64);
      assertEquals(expected.size(), actual.size(), "rows, filter " + f);
      assertTrue(f == null ? expected.size() == rows : expected.size() < rows / 2, "rows " + expected.size());
      for (int r = 0; r < expected.size(); r++) {
        assertEquals(expected.get(r), actual.get(r), "row " + r + " of " + (f == null ? "all" : "the filtered"));
      }
    }
    // Hive's decimal objects (a scaled column converted through a scratch vector) beside our dictionary vectors
    assertEquals(readPart(part, null, false, false, TypeDescription.RowBatchVersion.ORIGINAL),
        readPart(part, null, true, true, TypeDescription.RowBatchVersion.ORIGINAL));
    try (PartReader r = PartReader.open(part, TABLE, null, null, null, 0, -1, null, null,
        PartReader.VectorForms.DICTIONARY_STRINGS, true, null)) {
      VectorizedRowBatch b = TABLE.orcSchema().createRowBatch(TypeDescription.RowBatchVersion.ORIGINAL, 1000);
      assertTrue(r.next(b));
      assertTrue(b.cols[TABLE.size() - 1] instanceof dev.travertine.vector.DictionaryVector,
          "the low-cardinality column comes as our dictionary vector");
    }
  }

  /** Every row a PartReader hands out, as text, with its batch's size when there is no filter. */
  private static List<String> readPart(PartRef part, dev.travertine.vector.RowFilter f, boolean own,
      boolean dictionaryStrings, TypeDescription.RowBatchVersion version) throws Exception {
    List<String> out = new ArrayList<>();
    try (PartReader r = PartReader.open(part, TABLE, null, null, null, 0, -1, null, f,
        dictionaryStrings ? PartReader.VectorForms.DICTIONARY_STRINGS : PartReader.VectorForms.HIVE, own, null)) {
      assertEquals(f != null, r.rowFiltered());
      VectorizedRowBatch b = TABLE.orcSchema().createRowBatch(version, 1000);
      while (r.next(b)) {
        for (int j = 0; j < b.size; j++) {
          int row = b.selectedInUse ? b.selected[j] : j;
          // batch sizes compare without a filter only: with one, ORC's reader also ends batches at row groups
          StringBuilder sb = new StringBuilder().append(f == null ? b.size : 0).append(':');
          for (int c = 0; c < TABLE.size(); c++) {
            sb.append(dev.travertine.vector.Vectors.get(dev.travertine.vector.Vectors.wide(b.cols[c]),
                TABLE.column(c).type().kind(), row)).append('|');
          }
          out.add(sb.toString());
        }
      }
      if (f != null) {
        assertEquals(9000, r.filteredRows(), "rows examined");
      }
    }
    return out;
  }

  @Test
  void aStreamCutShortIsAnErrorNotValues() {
    // DIRECT run of 10 values of 8 bits, only 4 bytes present
    byte[] direct = {(byte) 0x4e, 9, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0};
    RleV2Reader r = new RleV2Reader(direct, 0, 6, false);
    long[] out = new long[10];
    assertThrows(IllegalStateException.class, () -> r.read(out, 0, 10));
    // no run at all
    RleV2Reader empty = new RleV2Reader(new byte[8], 0, 0, true);
    assertThrows(IllegalStateException.class, () -> empty.read(out, 0, 1));
    // a byte run header without its value
    ByteRleReader bytes = new ByteRleReader(new byte[] {5, 0, 0, 0, 0, 0, 0, 0, 0}, 0, 1);
    assertThrows(IllegalStateException.class, bytes::next);
    // passing over rows checks the same bounds: a whole run, part of one, past the end
    assertThrows(IllegalStateException.class, () -> new RleV2Reader(direct, 0, 6, false).skip(10));
    assertThrows(IllegalStateException.class, () -> new RleV2Reader(direct, 0, 6, false).skip(3));
    assertThrows(IllegalStateException.class, () -> new RleV2Reader(new byte[8], 0, 0, true).skip(1));
    assertThrows(IllegalStateException.class, () -> new ByteRleReader(new byte[] {5, 0, 0, 0, 0, 0, 0, 0, 0}, 0, 1)
        .skip(2));
    // a literal run of 4 bytes with 2 present
    assertThrows(IllegalStateException.class, () -> new ByteRleReader(new byte[] {-4, 1, 2, 0, 0, 0, 0, 0, 0}, 0, 3)
        .skipBits(20));
  }

  @Test
  void fixedWidthsOfTheSpecification() {
    int[] widths = new int[32];
    for (int e = 0; e < 32; e++) {
      widths[e] = RleV2Reader.decodeWidth(e);
    }
    assertEquals(1, widths[0]);
    assertEquals(24, widths[23]);
    assertArrayEquals(new int[] {26, 28, 30, 32, 40, 48, 56, 64}, Arrays.copyOfRange(widths, 24, 32));
    List<Integer> closest = new ArrayList<>();
    for (int n : new int[] {0, 1, 24, 25, 27, 31, 33, 41, 57, 64}) {
      closest.add(RleV2Reader.closestFixedBits(n));
    }
    assertEquals(List.of(1, 1, 24, 26, 28, 32, 40, 48, 64, 64), closest);
  }
}
