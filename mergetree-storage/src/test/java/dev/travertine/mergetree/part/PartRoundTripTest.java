package dev.travertine.mergetree.part;

import dev.travertine.mergetree.RandomValues;
import dev.travertine.mergetree.schema.OrcTypes;
import dev.travertine.mergetree.block.OrcBatches;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.io.FileIO;
import dev.travertine.io.local.LocalFileIO;
import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.zip.CRC32;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgumentFactory;
import org.apache.orc.CompressionKind;
import org.apache.orc.StripeInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parts written by {@link PartWriter} read back through {@link PartReader} as the rows written:
 * every column type with NULLs, each way of appending rows, column subsets, stripes read one at a
 * time, and granules skipped by a search argument.
 */
class PartRoundTripTest {
  @TempDir Path dir;

  private static final TableSchema SCHEMA = RandomValues.ALL_TYPES;

  /** Random rows; the key {@code k} takes few values so that a sort by it has ties. */
  private static List<Object[]> randomRows(Random rnd, int n) {
    List<Object[]> rows = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      Object[] row = new Object[SCHEMA.size()];
      row[0] = (long) rnd.nextInt(Math.max(1, n / 3));
      for (int c = 1; c < row.length; c++) {
        row[c] = rnd.nextInt(5) == 0 ? null : RandomValues.value(rnd, SCHEMA.column(c).type());
      }
      rows.add(row);
    }
    return rows;
  }

  private static Block blockOf(TableSchema schema, List<Object[]> rows) {
    Block b = new Block(schema);
    rows.forEach(b::appendRow);
    return b;
  }

  /** How rows reach the writer. */
  private enum Mode {
    /** {@code append(block, null, 0, rows)}: the whole block in its order. */
    WHOLE_BLOCK,
    /** {@code append(block, order, from, to)}: a sort order over a range of it. */
    SORT_ORDER,
    /** {@code append(vectors, row)} row by row. */
    ROW_BY_ROW
  }

  private record Written(PartRef part, PartWriter.Written result) {}

  private static Written write(FileIO io, String name, TableSchema schema, Block block, int[] order, int from, int to,
      int granularity, CompressionKind compression, Mode mode) throws Exception {
    String path = "parts/" + name + ".orc";
    PartWriter.Written w;
    try (PartWriter pw = new PartWriter(io, path, schema, granularity, compression, 64 << 10)) {
      switch (mode) {
        case WHOLE_BLOCK -> pw.append(block, null, 0, block.rows());
        case SORT_ORDER -> pw.append(block, order, from, to);
        case ROW_BY_ROW -> {
          for (int k = from; k < to; k++) {
            int r = order[k];
            pw.append(block.chunks().get(r >>> Block.CHUNK_SHIFT).cols, Block.pos(r));
          }
        }
      }
      assertEquals(to - from, pw.rows());
      w = pw.finish();
    }
    PartInfo info = new PartInfo(name, "all", 1, 1, 0, 0, w.rows(), w.bytes(), w.checksum(), 0, w.index().granules(),
        Map.of(), path, schema.orcSchema().toString(), OrcTypes.CURRENT_FORMAT);
    // No index handed over: the reader takes it from the file's footer.
    return new Written(new PartRef(info, io, OrcSupport.fileSystem(io), null), w);
  }

  /** The table column indexes of an ORC include array, all columns for null. */
  private static int[] columns(TableSchema schema, boolean[] include) {
    return IntStream.range(0, schema.size()).filter(c -> include == null || include[c + 1]).toArray();
  }

  /** Reads rows of a part (values of included columns, others null) with the given reader options. */
  private static List<Object[]> read(PartRef part, TableSchema schema, boolean[] include, SearchArgument sarg,
      long offset, long length) throws Exception {
    return read(part, schema, include, sarg, offset, length, false);
  }

  /** As above; {@code scan}: opened as a scan opens parts, our reader of ORC's streams where it reads them. */
  private static List<Object[]> read(PartRef part, TableSchema schema, boolean[] include, SearchArgument sarg,
      long offset, long length, boolean scan) throws Exception {
    List<Object[]> out = new ArrayList<>();
    String[] names = schema.columns().stream().map(Column::storage).toArray(String[]::new);
    try (PartReader reader = scan
        ? PartReader.open(part, schema, include, sarg, sarg == null ? null : names, offset, length, null, null,
            PartReader.VectorForms.HIVE, null)
        : PartReader.open(part, schema, include, sarg, sarg == null ? null : names, offset, length)) {
      VectorizedRowBatch batch = schema.orcSchema().createRowBatch(777);
      if (include != null) {
        for (int c = 0; c < schema.size(); c++) {
          if (!include[c + 1]) {
            batch.cols[c] = null; // as scans do: columns not read have no vector
          }
        }
      }
      while (reader.next(batch)) {
        for (int r = 0; r < batch.size; r++) {
          Object[] row = new Object[schema.size()];
          for (int c : columns(schema, include)) {
            row[c] = Vectors.get(batch.cols[c], schema.column(c).type().kind(), r);
          }
          out.add(row);
        }
      }
    }
    return out;
  }

  private static void assertRows(List<Object[]> expected, List<Object[]> actual, int[] cols, String what) {
    assertEquals(expected.size(), actual.size(), what + ": rows");
    for (int r = 0; r < expected.size(); r++) {
      for (int c : cols) {
        // equals: NaN equals NaN, -0.0 differs from 0.0, BigDecimal keeps its scale
        assertEquals(expected.get(r)[c], actual.get(r)[c], what + ": row " + r + " column " + c);
      }
    }
  }

  private static int[] sortOrder(List<Object[]> rows) {
    return IntStream.range(0, rows.size()).boxed()
        .sorted(Comparator.comparingLong(r -> (Long) rows.get(r)[0])).mapToInt(Integer::intValue).toArray();
  }

  /**
   * TIMESTAMPs in the last second before 1970 (which ORC alone reads back a second late, see
   * OrcTimestamps) round trip through a part for each way of writing, also a part of one value
   * (read back as a repeating vector), with NULLs between them.
   */
  @Test
  void timestampsInTheLastSecondBefore1970RoundTrip() throws Exception {
    TableSchema schema = new TableSchema(List.of(new Column("k", DataType.of(TypeKind.BIGINT), false),
        new Column("ts", DataType.of(TypeKind.TIMESTAMP), true)));
    FileIO io = new LocalFileIO(dir, false);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      rows.add(new Object[] {(long) i, i % 7 == 3 ? null : (long) -(i % 1002)}); // 0 .. -1001 ms
    }
    List<Object[]> same = new ArrayList<>();
    for (int i = 0; i < 1500; i++) {
      same.add(new Object[] {(long) i, -1L});
    }
    int[] identity = IntStream.range(0, rows.size()).toArray();
    int part = 0;
    for (List<Object[]> data : List.of(rows, same)) {
      Block block = blockOf(schema, data);
      for (Mode mode : Mode.values()) {
        part++;
        Written w = write(io, "all_" + part + "_" + part + "_0", schema, block, identity, 0, data.size(), 1000,
            CompressionKind.ZSTD, mode);
        assertRows(data, read(w.part, schema, null, null, 0, -1), new int[] {0, 1}, mode + ", " + data.size() + " rows");
        assertRows(data, read(w.part, schema, null, null, 0, -1, true), new int[] {0, 1},
            mode + ", " + data.size() + " rows, as a scan reads them");
        assertPrewhereTimestamps(w.part, schema, data, mode + ", " + data.size() + " rows");
      }
    }
  }

  /**
   * Read as a scan with a PREWHERE keeping every third row by {@code k} (a filtered batch's
   * selection reaches past its size), each kept row's time and nanoseconds agree: nanoseconds in
   * [0, 1 s) and the time's milliseconds within its second, the kept rows those written.
   */
  private static void assertPrewhereTimestamps(PartRef part, TableSchema schema, List<Object[]> data, String what)
      throws Exception {
    dev.travertine.vector.RowFilter everyThird = new dev.travertine.vector.RowFilter() {
      @Override public int[] columns() {
        return new int[] {0};
      }

      @Override public Instance create() {
        return (cols, sel, n) -> {
          long[] k = ((org.apache.hadoop.hive.ql.exec.vector.LongColumnVector) cols[0]).vector;
          int m = 0;
          for (int j = 0; j < n; j++) {
            if (k[sel[j]] % 3 == 0) {
              sel[m++] = sel[j];
            }
          }
          return m;
        };
      }
    };
    List<Object> kept = new ArrayList<>();
    try (PartReader reader = PartReader.open(part, schema, null, null, null, 0, -1, null, everyThird,
        PartReader.VectorForms.HIVE, null)) {
      VectorizedRowBatch batch = schema.orcSchema().createRowBatch(777);
      while (reader.next(batch)) {
        var ts = (org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector) batch.cols[1];
        for (int j = 0; j < batch.size; j++) {
          int r = batch.selectedInUse ? batch.selected[j] : j;
          int i = ts.isRepeating ? 0 : r;
          if (!ts.noNulls && ts.isNull[i]) {
            kept.add(null);
            continue;
          }
          assertTrue(ts.nanos[i] >= 0 && ts.nanos[i] < 1_000_000_000, what + ": nanoseconds " + ts.nanos[i]);
          assertEquals(Math.floorMod(ts.time[i], 1000L), ts.nanos[i] / 1_000_000, what + ": milliseconds of " + ts.time[i]);
          kept.add(ts.time[i]);
        }
      }
    }
    List<Object> want = new ArrayList<>();
    for (Object[] row : data) {
      if ((Long) row[0] % 3 == 0) {
        want.add(row[1]);
      }
    }
    assertEquals(want, kept, what + ": the rows a PREWHERE keeps");
  }

  /**
   * Every column type, with NULLs, round trips value by value through a part, for each way of
   * appending rows (the whole block, a sort order over all or part of a block, row by row), several
   * granularities and compression codecs. The result reports the rows, the file's size and CRC32,
   * and the granule index the footer holds.
   */
  @Test
  void everyTypeRoundTripsForEveryWayOfWriting() throws Exception {
    Random rnd = new Random(41);
    FileIO io = new LocalFileIO(dir, false);
    List<Object[]> rows = randomRows(rnd, 5000);
    Block block = blockOf(SCHEMA, rows);
    int[] sorted = sortOrder(rows);
    int[] identity = IntStream.range(0, rows.size()).toArray();
    // Granularities are within index_granularity's range (1000 .. 2^20): ORC's row index stride needs 1000.
    Object[][] cases = { // mode, granularity, from, to, compression
        {Mode.WHOLE_BLOCK, 1024, 0, 5000, CompressionKind.ZSTD},
        {Mode.WHOLE_BLOCK, 1000, 0, 5000, CompressionKind.NONE},
        {Mode.SORT_ORDER, 1024, 0, 5000, CompressionKind.LZ4},
        {Mode.SORT_ORDER, 1333, 1000, 4500, CompressionKind.ZSTD}, // most of the block: sorted by a scatter
        {Mode.SORT_ORDER, 2000, 100, 1300, CompressionKind.ZLIB}, // a small share of it: gathered
        {Mode.ROW_BY_ROW, 4096, 0, 5000, CompressionKind.SNAPPY},
        {Mode.ROW_BY_ROW, 1000, 4990, 5000, CompressionKind.ZSTD}};
    for (int i = 0; i < cases.length; i++) {
      Mode mode = (Mode) cases[i][0];
      int granularity = (Integer) cases[i][1];
      int from = (Integer) cases[i][2];
      int to = (Integer) cases[i][3];
      int[] order = mode == Mode.WHOLE_BLOCK ? identity : sorted;
      String what = Arrays.toString(cases[i]);
      Written w = write(io, "all_" + i + "_" + i + "_0", SCHEMA, block, order, from, to, granularity,
          (CompressionKind) cases[i][4], mode);
      List<Object[]> expected = new ArrayList<>();
      for (int k = from; k < to; k++) {
        expected.add(rows.get(order[k]));
      }
      assertRows(expected, read(w.part, SCHEMA, null, null, 0, -1), columns(SCHEMA, null), what);
      assertRows(expected, read(w.part, SCHEMA, null, null, 0, -1, true), columns(SCHEMA, null), what + ", as a scan");
      int n = to - from;
      assertEquals(n, w.result.rows(), what);
      Path file = dir.resolve(w.part.info().path());
      assertEquals(Files.size(file), w.result.bytes(), what + ": bytes");
      CRC32 crc = new CRC32();
      crc.update(Files.readAllBytes(file));
      assertEquals(String.format("%08x", crc.getValue()), w.result.checksum(), what + ": checksum");
      GranuleIndex gi = w.part.index();
      assertEquals((n + granularity - 1) / granularity, gi.granules(), what + ": granules");
      assertArrayEquals(w.result.index().serialize(), gi.serialize(), what + ": the footer holds the index");
      try (var reader = w.part.openReader()) {
        assertEquals(n, reader.getNumberOfRows());
        assertEquals(granularity, reader.getRowIndexStride(), what + ": ORC row groups are granules");
      }
    }
  }

  /**
   * Blocks made of chunks handed over whole (as readers produce them) may hold repeating vectors:
   * one value, or NULL, for every row of a chunk, with stale values behind it. Each way of writing
   * stores what each row shows.
   */
  @Test
  void repeatingVectorsRoundTrip() throws Exception {
    Random rnd = new Random(46);
    FileIO io = new LocalFileIO(dir, false);
    Block block = new Block(SCHEMA);
    List<Object[]> rows = new ArrayList<>();
    for (int chunk = 0; chunk < 4; chunk++) {
      int size = chunk < 3 ? Block.CHUNK : 500;
      List<Object[]> chunkRows = randomRows(rnd, size);
      VectorizedRowBatch batch = OrcBatches.newBatch(SCHEMA.orcSchema(), Block.CHUNK);
      for (int c = 0; c < SCHEMA.size(); c++) {
        DataType t = SCHEMA.column(c).type();
        int mode = c == 0 ? 0 : rnd.nextInt(3); // 0: values, 1: one repeated value, 2: repeated NULL
        if (mode == 0) {
          for (int r = 0; r < size; r++) {
            Vectors.set(batch.cols[c], t, r, chunkRows.get(r)[c]);
          }
          continue;
        }
        Object v = mode == 1 ? RandomValues.value(rnd, t) : null;
        for (int r = 0; r < size; r++) {
          chunkRows.get(r)[c] = v;
          Vectors.set(batch.cols[c], t, r, RandomValues.value(rnd, t)); // stale, hidden by isRepeating
        }
        Vectors.set(batch.cols[c], t, 0, v);
        batch.cols[c].isRepeating = true;
      }
      batch.size = size;
      block.addChunk(batch, 0);
      rows.addAll(chunkRows);
    }
    int[] sorted = sortOrder(rows);
    int[] identity = IntStream.range(0, rows.size()).toArray();
    int i = 0;
    for (Mode mode : Mode.values()) {
      for (int granularity : new int[] {1024, 1500}) {
        int[] order = mode == Mode.WHOLE_BLOCK ? identity : sorted;
        int from = mode == Mode.SORT_ORDER && granularity == 1500 ? 2000 : 0; // a small share: gathered
        Written w = write(io, "all_" + i + "_" + i + "_0", SCHEMA, block, order, from, rows.size(), granularity,
            CompressionKind.ZSTD, mode);
        i++;
        List<Object[]> expected = Arrays.stream(order, from, rows.size()).mapToObj(rows::get).toList();
        assertRows(expected, read(w.part, SCHEMA, null, null, 0, -1), columns(SCHEMA, null),
            mode + ", granularity " + granularity);
      }
    }
  }

  /** Reading a subset of the columns (in any order of the schema) gives those columns' values. */
  @Test
  void subsetsOfColumnsReadTheirValues() throws Exception {
    Random rnd = new Random(42);
    FileIO io = new LocalFileIO(dir, false);
    List<Object[]> rows = randomRows(rnd, 3000);
    int[] order = sortOrder(rows);
    Written w = write(io, "all_1_1_0", SCHEMA, blockOf(SCHEMA, rows), order, 0, rows.size(), 1000,
        CompressionKind.ZSTD, Mode.SORT_ORDER);
    List<Object[]> expected = Arrays.stream(order).mapToObj(rows::get).toList();
    for (int round = 0; round < 12; round++) {
      boolean[] include = new boolean[SCHEMA.size() + 1];
      include[0] = true;
      if (round < SCHEMA.size()) {
        include[round + 1] = true; // each column alone
      } else {
        for (int c = 0; c < SCHEMA.size(); c++) {
          include[c + 1] = rnd.nextBoolean();
        }
      }
      int[] cols = columns(SCHEMA, include);
      assertRows(expected, read(w.part, SCHEMA, include, null, 0, -1), cols, "columns " + Arrays.toString(cols));
    }
  }

  /**
   * A part of more rows than a stripe holds is cut into stripes at granule boundaries (every
   * stripe but the last holds {@link PartWriter#granulesPerStripe} granules), and reading one
   * stripe's byte range gives exactly its rows.
   */
  @Test
  void stripesAreCutAtGranulesAndReadOneByOne() throws Exception {
    TableSchema schema = new TableSchema(List.of(
        new Column("k", DataType.of(TypeKind.BIGINT), false),
        new Column("v", DataType.of(TypeKind.INTEGER), true)));
    Random rnd = new Random(43);
    FileIO io = new LocalFileIO(dir, false);
    for (int granularity : new int[] {1 << 20, 3000}) { // the block's chunks as they are; copied batches
      long stripeRows = (long) PartWriter.granulesPerStripe(granularity) * granularity;
      int n = (int) stripeRows + Math.min(2 * granularity, 20_000) + 5;
      List<Object[]> rows = new ArrayList<>(n);
      for (int r = 0; r < n; r++) {
        rows.add(new Object[] {(long) r, rnd.nextInt(10) == 0 ? null : rnd.nextInt()});
      }
      Written w = write(io, "all_" + granularity + "_" + granularity + "_0", schema, blockOf(schema, rows), null, 0, n,
          granularity, CompressionKind.LZ4, Mode.WHOLE_BLOCK);
      List<StripeInformation> stripes = w.part.stripes();
      assertEquals(2, stripes.size(), "granularity " + granularity);
      assertEquals(stripeRows, stripes.get(0).getNumberOfRows());
      assertEquals(0, stripes.get(0).getNumberOfRows() % granularity, "a stripe holds whole granules");
      int first = 0;
      for (StripeInformation s : stripes) {
        List<Object[]> got = read(w.part, schema, null, null, s.getOffset(), s.getLength());
        assertRows(rows.subList(first, first + (int) s.getNumberOfRows()), got, new int[] {0, 1},
            "stripe at row " + first);
        first += (int) s.getNumberOfRows();
      }
      assertEquals(n, first);
    }
  }

  /**
   * With a search argument on the sort key, the reader returns exactly the granules the granule
   * index keeps for the same range ({@link Predicate#mayMatch}), whole, in order: ORC's row groups
   * are the index's granules. Every row in the range is among them.
   */
  @Test
  void searchArgumentReadsTheGranulesTheIndexSelects() throws Exception {
    TableSchema schema = new TableSchema(List.of(
        new Column("k", DataType.of(TypeKind.BIGINT), false),
        new Column("v", DataType.of(TypeKind.INTEGER), true)));
    Random rnd = new Random(44);
    FileIO io = new LocalFileIO(dir, false);
    int n = 20_000;
    int granularity = 1000;
    List<Object[]> rows = new ArrayList<>();
    long k = 0;
    for (int r = 0; r < n; r++) {
      k += rnd.nextInt(3); // ascending with ties and gaps
      rows.add(new Object[] {k, rnd.nextInt(10) == 0 ? null : rnd.nextInt(1000)});
    }
    Written w = write(io, "all_1_1_0", schema, blockOf(schema, rows), null, 0, n, granularity,
        CompressionKind.ZSTD, Mode.WHOLE_BLOCK);
    GranuleIndex gi = w.part.index();
    long maxKey = k;
    int partial = 0;
    for (int round = 0; round < 25; round++) {
      long a = rnd.nextLong(maxKey + 10) - 5;
      long b = round % 5 == 0 ? a : a + rnd.nextLong(maxKey / 4);
      SearchArgument sarg = SearchArgumentFactory.newBuilder().startAnd()
          .between("k", PredicateLeaf.Type.LONG, a, b).end().build();
      Predicate p = new Predicate.And(List.of(new Predicate.Compare(0, Predicate.Op.GE, a),
          new Predicate.Compare(0, Predicate.Op.LE, b)));
      List<Object[]> expected = new ArrayList<>();
      boolean[] kept = new boolean[gi.granules()];
      for (int g = 0; g < gi.granules(); g++) {
        kept[g] = p.mayMatch(gi.granule(g));
        if (kept[g]) {
          expected.addAll(rows.subList(g * granularity, Math.min(n, (g + 1) * granularity)));
        }
      }
      for (int r = 0; r < n; r++) {
        long key = (Long) rows.get(r)[0];
        if (key >= a && key <= b) {
          assertTrue(kept[r / granularity], "the index keeps the granule of key " + key);
        }
      }
      partial += expected.size() > 0 && expected.size() < n ? 1 : 0;
      assertRows(expected, read(w.part, schema, null, sarg, 0, -1), new int[] {0, 1}, "k between " + a + " and " + b);
    }
    assertTrue(partial > 10, "most ranges select some granules but not all: " + partial);
  }

  /** A writer closed without {@link PartWriter#finish} publishes nothing: no part file, no temporary file. */
  @Test
  void abandonedWriterLeavesNoFile() throws Exception {
    FileIO io = new LocalFileIO(dir, false);
    List<Object[]> rows = randomRows(new Random(45), 2000);
    try (PartWriter pw = new PartWriter(io, "parts/all_1_1_0.orc", SCHEMA, 1000, CompressionKind.ZSTD, 64 << 10)) {
      pw.append(blockOf(SCHEMA, rows), null, 0, rows.size());
      assertEquals(rows.size(), pw.rows());
    }
    assertFalse(io.exists("parts/all_1_1_0.orc"));
    assertEquals(List.of(), io.list("parts"));
    try (var files = Files.list(dir.resolve("parts"))) {
      assertEquals(0, files.count(), "no temporary file either");
    }
  }
}
