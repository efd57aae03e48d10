package dev.travertine.formats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.formats.parquet.ParquetFileBatches;
import dev.travertine.formats.parquet.ParquetIO;
import dev.travertine.formats.parquet.ParquetRowWriter;
import dev.travertine.io.OutputFile;
import dev.travertine.io.local.LocalFileIO;
import dev.travertine.mergetree.Database;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.scan.ScanRequest;
import dev.travertine.mergetree.scan.TableScanner;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Parquet and ORC files loaded through {@link FileLoad}: real files written by the real libraries. */
class FileLoadTest {
  @TempDir Path dir;
  private Database db;

  @BeforeEach void open() throws IOException {
    db = Database.open(dir.resolve("db"));
  }

  @AfterEach void close() throws IOException {
    db.close();
  }

  static final TableSchema ALL = new TableSchema(List.of(
      new Column("id", DataType.of(TypeKind.BIGINT), false),
      new Column("b", DataType.of(TypeKind.BOOLEAN), true),
      new Column("t", DataType.of(TypeKind.TINYINT), true),
      new Column("sm", DataType.of(TypeKind.SMALLINT), true),
      new Column("i", DataType.of(TypeKind.INTEGER), true),
      new Column("r", DataType.of(TypeKind.REAL), true),
      new Column("d", DataType.of(TypeKind.DOUBLE), true),
      new Column("dec", DataType.decimal(12, 3), true),
      new Column("big", DataType.decimal(30, 5), true),
      new Column("c", new DataType(TypeKind.CHAR, 3, 0), true),
      new Column("s", DataType.varchar(-1), true),
      new Column("dt", DataType.of(TypeKind.DATE), true),
      new Column("ts", DataType.of(TypeKind.TIMESTAMP), true)));

  /** A table ORDER BY its first column, granules of 1,024 rows. */
  static MergeTreeTable create(Database db, String name, TableSchema schema) throws IOException {
    return create(db, name, schema, Map.of());
  }

  static MergeTreeTable create(Database db, String name, TableSchema schema, Map<String, String> settings)
      throws IOException {
    Map<String, String> all = new java.util.HashMap<>(settings);
    all.put("index_granularity", "1024");
    db.createTable(new TableDefinition(name, schema, List.of(schema.column(0).name()), null, List.of(),
        all, List.of()), false);
    return db.table(name);
  }

  /** Random rows of {@link #ALL}: every nullable column NULL now and then, ids 0..n-1. */
  static List<Object[]> randomRows(int n, long seed) {
    Random rnd = new Random(seed);
    List<Object[]> rows = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      Object[] r = {
          (long) k,
          rnd.nextBoolean(),
          (byte) rnd.nextInt(256),
          (short) rnd.nextInt(65536),
          rnd.nextInt(),
          rnd.nextFloat() * 100,
          rnd.nextGaussian() * 1e6,
          BigDecimal.valueOf(rnd.nextLong() % 1_000_000_000L, 3),
          new BigDecimal(new java.math.BigInteger(90, rnd), 5).negate(),
          "a" + (char) ('a' + rnd.nextInt(26)) + "c",
          "s" + rnd.nextInt(1000) + (rnd.nextInt(10) == 0 ? " ünï \"q\", \n" : ""),
          rnd.nextInt(40_000) - 10_000,
          rnd.nextLong() % 4_000_000_000_000L};
      for (int c = 1; c < r.length; c++) {
        if (rnd.nextInt(7) == 0) {
          r[c] = null;
        }
      }
      rows.add(r);
    }
    return rows;
  }

  static void writeParquet(Path file, TableSchema schema, List<Object[]> rows, long rowGroupBytes) throws IOException {
    OutputFile of = new LocalFileIO(file.getParent(), false).newOutputFile(file.getFileName().toString());
    OutputFile.AbortableOutputStream out = of.create();
    try (ParquetRowWriter w = new ParquetRowWriter(ParquetIO.output(file.toString(), out), schema, rowGroupBytes)) {
      for (Object[] r : rows) {
        w.write(r);
      }
    } catch (IOException | RuntimeException e) {
      out.abort();
      throw e;
    }
    out.close();
  }

  static List<Object[]> rows(MergeTreeTable t) throws IOException {
    int n = t.definition().schema().size();
    int[] cols = new int[n];
    for (int i = 0; i < n; i++) {
      cols[i] = i;
    }
    List<Object[]> out = new ArrayList<>();
    try (TableScanner s = TableScanner.open(t.snapshot(), new ScanRequest(cols, null, -1, true, 1, 1024, true),
        t.context())) {
      Batch b;
      while ((b = s.next()) != null) {
        for (int k = 0; k < b.size(); k++) {
          Object[] row = new Object[n];
          for (int c = 0; c < n; c++) {
            row[c] = Vectors.get(b.cols()[c], t.definition().schema().column(c).type().kind(), b.sel()[k]);
          }
          out.add(row);
        }
      }
    }
    out.sort(Comparator.comparingLong(r -> (Long) r[0]));
    return out;
  }

  private static BulkLoad.Options options(int threads) {
    return new BulkLoad.Options(null, threads, 0, 4096, 1 << 20, null, null);
  }

  private static List<FileLoad.Input> inputs(Path... files) throws IOException {
    List<FileLoad.Input> l = new ArrayList<>();
    for (Path f : files) {
      l.add(FileLoad.Input.local(f));
    }
    return l;
  }

  @Test void everyTypeWithNullsRoundTripsThroughParquetAcrossRowGroupsAndFiles() throws IOException {
    List<Object[]> a = randomRows(7000, 1);
    List<Object[]> b = randomRows(3000, 2);
    for (Object[] r : b) {
      r[0] = (Long) r[0] + 7000;
    }
    Path fa = dir.resolve("a.parquet");
    Path fb = dir.resolve("b.parquet");
    writeParquet(fa, ALL, a, 64 << 10);
    writeParquet(fb, ALL, b, 1 << 20);
    try (ParquetFileBatches f = ParquetFileBatches.open(new LocalFileIO(dir, false).newInputFile("a.parquet"), "a")) {
      assertTrue(f.rowGroups() > 1, "several row groups: " + f.rowGroups());
      assertEquals(7000, f.totalRows());
      List<DataType> types = f.schema().columns().stream().map(Column::type).toList();
      List<DataType> expected = new ArrayList<>(ALL.columns().stream().map(Column::type).toList());
      expected.set(9, DataType.varchar(-1)); // CHAR(3) is written as a Parquet string
      assertEquals(expected, types);
      assertEquals(false, f.schema().column(0).nullable());
    }
    // Every worker's last block becomes a part of its own (not the insert buffer), so however the
    // three workers share the row groups, 10,000 rows in blocks of 4,096 make at least two parts.
    MergeTreeTable t = create(db, "all_types", ALL, Map.of("min_insert_rows_for_direct_part", "1"));
    BulkLoad.Result r = FileLoad.load(t, inputs(fa, fb), FileLoad.Kind.PARQUET, null, true, options(3));
    assertEquals(10_000, r.rows());
    assertTrue(r.parts() >= 2, "parts written in parallel: " + r.parts());
    List<Object[]> expected = new ArrayList<>(a);
    expected.addAll(b);
    List<Object[]> got = rows(t);
    assertEquals(expected.size(), got.size());
    for (int i = 0; i < got.size(); i++) {
      assertArrayEquals(expected.get(i), got.get(i), "row " + i);
    }
  }

  @Test void columnsGoByNameConvertedWithDefaultsForMissingOnesAndExtraOnesIgnored() throws IOException {
    TableSchema file = new TableSchema(List.of(
        new Column("EXTRA", DataType.varchar(-1), true),
        new Column("v", DataType.of(TypeKind.INTEGER), true),
        new Column("ID", DataType.of(TypeKind.INTEGER), false),
        new Column("when", DataType.of(TypeKind.DATE), true),
        new Column("n", DataType.varchar(-1), true)));
    Path f = dir.resolve("conv.parquet");
    writeParquet(f, file, List.of(
        new Object[] {"x", 5, 1, 0, "12"},
        new Object[] {"y", null, 2, 1, null},
        new Object[] {"z", -7, 3, null, "-3"}), 1 << 20);
    TableSchema table = new TableSchema(List.of(
        new Column("id", DataType.of(TypeKind.BIGINT), false),
        new Column("v", DataType.decimal(10, 2), false),
        new Column("when", DataType.of(TypeKind.TIMESTAMP), true),
        new Column("n", DataType.of(TypeKind.SMALLINT), true),
        new Column("missing", DataType.varchar(-1), false, "'dflt'"),
        new Column("gone", DataType.of(TypeKind.DOUBLE), true)));
    MergeTreeTable t = create(db, "conv", table);
    Object[] defaults = {null, null, null, null, "dflt", null};
    FileLoad.load(t, inputs(f), FileLoad.Kind.PARQUET, defaults, true, options(1));
    List<Object[]> got = rows(t);
    assertArrayEquals(new Object[] {1L, new BigDecimal("5.00"), 0L, (short) 12, "dflt", null}, got.get(0));
    assertArrayEquals(new Object[] {2L, new BigDecimal("0.00"), 86_400_000L, null, "dflt", null}, got.get(1));
    assertArrayEquals(new Object[] {3L, new BigDecimal("-7.00"), null, (short) -3, "dflt", null}, got.get(2));

    // NULL in a NOT NULL column without null-as-default: the load fails, nothing is added
    var e = assertThrows(BulkLoad.BadInputException.class,
        () -> FileLoad.load(t, inputs(f), FileLoad.Kind.PARQUET, defaults, false, options(1)));
    assertTrue(e.getMessage().contains("conv.parquet: row group 0, row 2: column v: NULL in a NOT NULL column"),
        e.getMessage());
    assertEquals(3, rows(t).size());
  }

  @Test void aValueThatDoesNotFitFailsTheWholeLoadNamingItsRow() throws IOException {
    TableSchema file = new TableSchema(List.of(new Column("id", DataType.of(TypeKind.BIGINT), false),
        new Column("x", DataType.of(TypeKind.INTEGER), true)));
    List<Object[]> good = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      good.add(new Object[] {(long) i, i % 100});
    }
    List<Object[]> bad = new ArrayList<>(good);
    bad.set(4321, new Object[] {4321L, 300});
    writeParquet(dir.resolve("good.parquet"), file, good, 1 << 20);
    writeParquet(dir.resolve("bad.parquet"), file, bad, 1 << 20);
    MergeTreeTable t = create(db, "narrow", new TableSchema(List.of(new Column("id", DataType.of(TypeKind.BIGINT), false),
        new Column("x", DataType.of(TypeKind.TINYINT), true))));
    var e = assertThrows(BulkLoad.BadInputException.class, () -> FileLoad.load(t,
        inputs(dir.resolve("good.parquet"), dir.resolve("bad.parquet")), FileLoad.Kind.PARQUET, null, true,
        options(2)));
    assertTrue(e.getMessage().contains("bad.parquet: row group 0, row 4322: column x: 300 is out of range for TINYINT"),
        e.getMessage());
    assertEquals(0, rows(t).size(), "nothing of the load is visible");
    assertEquals(List.of(), t.snapshot().parts(), "no part was committed");

    // a type that cannot be loaded is refused before reading
    MergeTreeTable d = create(db, "dates", new TableSchema(List.of(new Column("id", DataType.of(TypeKind.BIGINT), false),
        new Column("x", DataType.of(TypeKind.DATE), true))));
    var e2 = assertThrows(IllegalArgumentException.class, () -> FileLoad.load(d, inputs(dir.resolve("good.parquet")),
        FileLoad.Kind.PARQUET, null, true, options(1)));
    assertTrue(e2.getMessage().contains("good.parquet: column x: cannot load INTEGER values into DATE"), e2.getMessage());
  }

  /**
   * With a budget of bad rows (input_format_allow_errors_num, --max-errors) the rows whose values
   * do not fit are skipped and named; the rest load, also the good rows around them in the same
   * batch. One more bad row than the budget fails the load and loads nothing.
   */
  @Test void badRowsWithinTheBudgetAreSkippedAndNamed() throws IOException {
    TableSchema file = new TableSchema(List.of(new Column("id", DataType.of(TypeKind.BIGINT), false),
        new Column("x", DataType.of(TypeKind.INTEGER), true), new Column("y", DataType.of(TypeKind.INTEGER), true)));
    List<Object[]> rows = new ArrayList<>();
    java.util.Set<Long> badIds = new java.util.TreeSet<>(List.of(7L, 1500L, 1501L, 4998L));
    for (long i = 0; i < 5000; i++) {
      boolean bad = badIds.contains(i);
      // x does not fit in rows 7 and 1501, y in 1500 and 4998 (a later column than the first check)
      rows.add(new Object[] {i, bad && i % 2 == 1 ? 1000 : (int) (i % 100), bad && i % 2 == 0 ? -1000 : (int) (i % 50)});
    }
    writeParquet(dir.resolve("some-bad.parquet"), file, rows, 1 << 20);
    TableSchema narrow = new TableSchema(List.of(new Column("id", DataType.of(TypeKind.BIGINT), false),
        new Column("x", DataType.of(TypeKind.TINYINT), true), new Column("y", DataType.of(TypeKind.TINYINT), true)));
    MergeTreeTable t = create(db, "skipping", narrow);
    BulkLoad.Result r = FileLoad.load(t, inputs(dir.resolve("some-bad.parquet")), FileLoad.Kind.PARQUET, null, true,
        options(2).withMaxErrors(4));
    assertEquals(4996, r.rows());
    assertEquals(4, r.badRows());
    assertEquals(List.of(8L, 1501L, 1502L, 4999L), r.samples().stream().map(BulkLoad.BadRow::line).toList(),
        "the bad rows, by row number in the file");
    assertTrue(r.samples().get(0).message().contains("column x: 1000 is out of range for TINYINT"),
        r.samples().get(0).message());
    List<Object[]> got = rows(t);
    assertEquals(4996, got.size());
    for (Object[] row : got) {
      long id = (Long) row[0];
      assertTrue(!badIds.contains(id), "row " + id + " was skipped");
      assertEquals((byte) (id % 100), row[1]);
      assertEquals((byte) (id % 50), row[2]);
    }
    MergeTreeTable u = create(db, "strict", narrow);
    var e = assertThrows(BulkLoad.BadInputException.class, () -> FileLoad.load(u,
        inputs(dir.resolve("some-bad.parquet")), FileLoad.Kind.PARQUET, null, true, options(2).withMaxErrors(3)));
    assertTrue(e.getMessage().contains("more than 3 bad rows") && e.getMessage().contains("nothing was loaded"),
        e.getMessage());
    assertEquals(0, rows(u).size());
  }

  /**
   * A skipped row leaves nothing behind: the row written where it was (here the first of the
   * reader's next batch, which has no NULLs) keeps its own values, not the skipped row's NULL.
   */
  @Test void aSkippedRowLeavesNoNullBehind() throws IOException {
    TableSchema file = new TableSchema(List.of(new Column("a", DataType.of(TypeKind.BIGINT), true),
        new Column("b", DataType.of(TypeKind.INTEGER), true)));
    List<Object[]> rows = new ArrayList<>();
    for (long i = 0; i < 2048; i++) {
      rows.add(i == 1023 ? new Object[] {null, 1000} : new Object[] {i, (int) (i % 100)});
    }
    writeParquet(dir.resolve("null-then-bad.parquet"), file, rows, 1 << 24);
    MergeTreeTable t = create(db, "noleak", new TableSchema(List.of(new Column("a", DataType.of(TypeKind.BIGINT), true),
        new Column("b", DataType.of(TypeKind.TINYINT), true))));
    BulkLoad.Result r = FileLoad.load(t, inputs(dir.resolve("null-then-bad.parquet")), FileLoad.Kind.PARQUET, null,
        true, options(1).withMaxErrors(1));
    assertEquals(2047, r.rows());
    List<Object[]> got = rows(t);
    assertEquals(2047, got.size());
    for (Object[] row : got) {
      assertTrue(row[0] != null, "no row lost its value of a");
      assertEquals((byte) ((Long) row[0] % 100), row[1]);
    }
  }

  @Test void parquetTypesOfOtherWritersAndNestedTypesRefused() throws IOException {
    MessageType m = MessageTypeParser.parseMessageType("message m {"
        + " required int64 id;"
        + " optional int96 legacy_ts;"
        + " optional int64 micros (TIMESTAMP(MICROS,true));"
        + " optional int64 nanos (TIMESTAMP(NANOS,false));"
        + " optional int32 u8 (INTEGER(8,false));"
        + " optional int32 u32 (INTEGER(32,false));"
        + " optional int64 u64 (INTEGER(64,false));"
        + " optional binary raw;"
        + " optional fixed_len_byte_array(16) dec (DECIMAL(20,2));"
        + "}");
    SimpleGroupFactory g = new SimpleGroupFactory(m);
    Path published = dir.resolve("other2.parquet");
    OutputFile.AbortableOutputStream out = new LocalFileIO(dir, false).newOutputFile("other2.parquet").create();
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(ParquetIO.output(published.toString(), out)).withType(m)
        .withConf(new Configuration(false)).build()) {
      byte[] int96 = java.nio.ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN)
          .putLong(14_706_789_000_000L).putInt(2_451_944).array();
      byte[] dec = new byte[16];
      Arrays.fill(dec, (byte) 0xff);
      w.write(g.newGroup().append("id", 1L).append("legacy_ts", Binary.fromConstantByteArray(int96))
          .append("micros", 1_500_000L).append("nanos", -1L).append("u8", 255).append("u32", -1)
          .append("u64", -1L).append("raw", Binary.fromString("bytes")).append("dec", Binary.fromConstantByteArray(dec)));
      w.write(g.newGroup().append("id", 2L));
    }
    out.close();
    TableSchema s;
    try (ParquetFileBatches pf = ParquetFileBatches.open(new LocalFileIO(dir, false).newInputFile("other2.parquet"), "o")) {
      s = pf.schema();
    }
    assertEquals(List.of(DataType.of(TypeKind.BIGINT), DataType.of(TypeKind.TIMESTAMP), DataType.of(TypeKind.TIMESTAMP),
        DataType.of(TypeKind.TIMESTAMP), DataType.of(TypeKind.SMALLINT), DataType.of(TypeKind.BIGINT),
        DataType.decimal(20, 0), DataType.varchar(-1), DataType.decimal(20, 2)),
        s.columns().stream().map(Column::type).toList());
    List<Column> cols = new ArrayList<>(s.columns());
    cols.set(0, new Column("id", DataType.of(TypeKind.BIGINT), false));
    MergeTreeTable t = create(db, "other", new TableSchema(cols));
    FileLoad.load(t, inputs(published), FileLoad.Kind.PARQUET, null, true, options(1));
    List<Object[]> got = rows(t);
    long ts = java.time.LocalDateTime.parse("2001-02-03T04:05:06.789").toInstant(java.time.ZoneOffset.UTC).toEpochMilli();
    assertArrayEquals(new Object[] {1L, ts, 1500L, -1L, (short) 255, 4294967295L, new BigDecimal("18446744073709551615"),
        "bytes", new BigDecimal("-0.01")}, got.get(0));
    assertArrayEquals(new Object[] {2L, null, null, null, null, null, null, null, null}, got.get(1));

    MessageType nested = MessageTypeParser.parseMessageType("message m { required int64 id;"
        + " optional group tags (LIST) { repeated group list { optional binary element (STRING); } } }");
    OutputFile.AbortableOutputStream o2 = new LocalFileIO(dir, false).newOutputFile("nested.parquet").create();
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(ParquetIO.output("nested", o2)).withType(nested)
        .withConf(new Configuration(false)).build()) {
      w.write(new SimpleGroupFactory(nested).newGroup().append("id", 1L));
    }
    o2.close();
    var e = assertThrows(IllegalArgumentException.class, () -> FileLoad.load(t, inputs(dir.resolve("nested.parquet")),
        FileLoad.Kind.PARQUET, null, true, options(1)));
    assertTrue(e.getMessage().contains("column tags is of a nested Parquet type (LIST)"), e.getMessage());

    Files.writeString(dir.resolve("not.parquet"), "id,x\n1,2\n");
    var e3 = assertThrows(IllegalArgumentException.class, () -> FileLoad.load(t, inputs(dir.resolve("not.parquet")),
        FileLoad.Kind.PARQUET, null, true, options(1)));
    assertTrue(e3.getMessage().contains("not.parquet as Parquet"), e3.getMessage());
    var e4 = assertThrows(IllegalArgumentException.class, () -> FileLoad.load(t, inputs(dir.resolve("not.parquet")),
        FileLoad.Kind.ORC, null, true, options(1)));
    assertTrue(e4.getMessage().contains("not.parquet as ORC"), e4.getMessage());
  }

  @Test void orcFilesLoadByStripesWithConversion() throws IOException {
    TypeDescription schema = TypeDescription.fromString("struct<ID:int,name:string,skip:double>");
    Path f = dir.resolve("in.orc");
    int n = 30_000;
    try (Writer w = OrcFile.createWriter(new org.apache.hadoop.fs.Path(f.toUri()),
        OrcFile.writerOptions(new Configuration(false)).setSchema(schema).stripeSize(64 << 10).bufferSize(4096))) {
      VectorizedRowBatch b = schema.createRowBatch();
      for (int i = 0; i < n; i++) {
        int row = b.size++;
        ((LongColumnVector) b.cols[0]).vector[row] = i;
        if (i % 11 == 0) {
          b.cols[1].noNulls = false;
          b.cols[1].isNull[row] = true;
        } else {
          ((BytesColumnVector) b.cols[1]).setVal(row, ("name" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
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
    MergeTreeTable t = create(db, "from_orc", new TableSchema(List.of(new Column("id", DataType.of(TypeKind.BIGINT), false),
        new Column("name", DataType.varchar(-1), true))));
    AtomicInteger progress = new AtomicInteger();
    BulkLoad.Options o = new BulkLoad.Options(null, 2, 0, 4096, 1 << 20, null, (r, by) -> progress.incrementAndGet());
    BulkLoad.Result r = FileLoad.load(t, inputs(f), FileLoad.Kind.ORC, null, true, o);
    assertEquals(n, r.rows());
    List<Object[]> got = rows(t);
    assertEquals(n, got.size());
    for (int i = 0; i < n; i++) {
      assertArrayEquals(new Object[] {(long) i, i % 11 == 0 ? null : "name" + i}, got.get(i));
    }
  }

  @Test void aCancelledLoadLeavesNothing() throws IOException {
    Path f = dir.resolve("c.parquet");
    writeParquet(f, ALL, randomRows(20_000, 3), 64 << 10);
    MergeTreeTable t = create(db, "cancelled", ALL);
    AtomicInteger batches = new AtomicInteger();
    BulkLoad.Options o = new BulkLoad.Options(null, 2, 0, 2048, 1 << 20, () -> {
      if (batches.incrementAndGet() > 12) {
        throw new CancellationException("Query was cancelled");
      }
    }, null);
    assertThrows(CancellationException.class, () -> FileLoad.load(t, inputs(f), FileLoad.Kind.PARQUET, null, true, o));
    assertEquals(0, rows(t).size());
    assertEquals(List.of(), t.snapshot().parts());
  }
}
