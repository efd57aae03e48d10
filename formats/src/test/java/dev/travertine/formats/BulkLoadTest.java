package dev.travertine.formats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BulkLoadTest {
  @TempDir Path dir;
  private Database db;

  @BeforeEach void open() throws IOException {
    db = Database.open(dir.resolve("db"));
  }

  @AfterEach void close() throws IOException {
    db.close();
  }

  /** (id BIGINT NOT NULL, every type nullable) ORDER BY id. */
  private MergeTreeTable allTypes(String name) throws IOException {
    TableSchema schema = new TableSchema(List.of(
        new Column("id", DataType.of(TypeKind.BIGINT), false),
        new Column("b", DataType.of(TypeKind.BOOLEAN), true),
        new Column("t", DataType.of(TypeKind.TINYINT), true),
        new Column("sm", DataType.of(TypeKind.SMALLINT), true),
        new Column("i", DataType.of(TypeKind.INTEGER), true),
        new Column("r", DataType.of(TypeKind.REAL), true),
        new Column("d", DataType.of(TypeKind.DOUBLE), true),
        new Column("dec", DataType.decimal(12, 3), true),
        new Column("c", new DataType(TypeKind.CHAR, 3, 0), true),
        new Column("s", DataType.varchar(-1), true),
        new Column("dt", DataType.of(TypeKind.DATE), true),
        new Column("ts", DataType.of(TypeKind.TIMESTAMP), true)));
    return create(name, schema);
  }

  private MergeTreeTable create(String name, TableSchema schema) throws IOException {
    db.createTable(new TableDefinition(name, schema, List.of(schema.column(0).name()), null, List.of(),
        Map.of("index_granularity", "1024"), List.of()), false);
    return db.table(name);
  }

  private static BulkLoad.Source text(String name, String content) {
    byte[] b = content.getBytes(StandardCharsets.UTF_8);
    return BulkLoad.Source.stream(name, b.length, new ByteArrayInputStream(b));
  }

  private static List<Object[]> rows(MergeTreeTable t) throws IOException {
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
    return out;
  }

  private static long day(String iso) {
    return LocalDate.parse(iso).toEpochDay();
  }

  private static long millis(String iso) {
    return LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  @Test void everyTypeAndNullsFromCsvAndTsv() throws IOException {
    String csv = "id,b,t,sm,i,r,d,dec,c,s,dt,ts\n"
        + "1,true,-128,32767,-2147483648,1.5,-0.125,12.345,ab,\"x, \"\"y\"\"\",2024-02-29,2024-02-29 23:59:58.123\n"
        + "2,,,,,,,,,,,\n"
        + "3,0,127,-32768,2147483647,-3e2,1e-300,-0.5,abc,\"\",1969-12-31,1970-01-01T00:00\n";
    MergeTreeTable t = allTypes("csv_types");
    BulkLoad.Result r = BulkLoad.load(t, List.of(text("types.csv", csv)), null,
        BulkLoad.Options.defaults(TextFormat.csv().withHeader(true)));
    assertEquals(3, r.rows());
    String tsv = "4\tyes\t1\t2\t3\t0.25\t2.5\t1\tz\ttab\\there\\nline \\\\ back\t2000-01-01\t2000-01-01 12:00:00\n"
        + "5\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n"
        + "6\tf\t0\t0\t0\t0\t0\t0\t\t\t1970-01-02\t1970-01-01 00:00:01\n";
    BulkLoad.load(t, List.of(text("types.tsv", tsv)), null, BulkLoad.Options.defaults(TextFormat.tsv()));
    List<Object[]> rows = rows(t);
    assertEquals(6, rows.size());
    assertArrayEquals(new Object[] {1L, true, (byte) -128, (short) 32767, Integer.MIN_VALUE, 1.5f, -0.125,
        new BigDecimal("12.345"), "ab ", "x, \"y\"", (int) day("2024-02-29"), millis("2024-02-29T23:59:58.123")},
        rows.get(0));
    Object[] nulls = new Object[12];
    nulls[0] = 2L;
    assertArrayEquals(nulls, rows.get(1), "unquoted empty CSV fields are NULL");
    assertArrayEquals(new Object[] {3L, false, (byte) 127, (short) -32768, Integer.MAX_VALUE, -300f, 1e-300,
        new BigDecimal("-0.500"), "abc", "", -1, 0L}, rows.get(2));
    assertArrayEquals(new Object[] {4L, true, (byte) 1, (short) 2, 3, 0.25f, 2.5, new BigDecimal("1.000"), "z  ",
        "tab\there\nline \\ back", (int) day("2000-01-01"), millis("2000-01-01T12:00:00")}, rows.get(3));
    nulls[0] = 5L;
    assertArrayEquals(nulls, rows.get(4), "\\N is NULL in TSV");
    assertArrayEquals(new Object[] {6L, false, (byte) 0, (short) 0, 0, 0f, 0.0, new BigDecimal("0.000"), "   ", "",
        1, 1000L}, rows.get(5), "empty TSV strings are empty strings");
  }

  @Test void quotingEdgeCasesAcrossChunkBoundaries() throws IOException {
    // Random strings full of quotes, delimiters, CR, LF and CRLF, written as RFC 4180 CSV with
    // CRLF record ends, loaded through 4 KiB chunks on 3 threads in parts of 2048 rows.
    Random rnd = new Random(42);
    TableSchema schema = new TableSchema(List.of(
        new Column("id", DataType.of(TypeKind.INTEGER), false),
        new Column("s", DataType.varchar(-1), true),
        new Column("n", DataType.of(TypeKind.BIGINT), true)));
    MergeTreeTable t = create("quoting", schema);
    String[] pieces = {"a", "\"", "\"\"", ",", "\n", "\r\n", "\r", " ", "é", "x,y", "\"\n\"", "plain text"};
    int n = 20_000;
    String[] expected = new String[n];
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      StringBuilder v = new StringBuilder();
      int parts = rnd.nextInt(6);
      for (int k = 0; k < parts; k++) {
        v.append(pieces[rnd.nextInt(pieces.length)]);
      }
      String s = v.toString();
      boolean isNull = rnd.nextInt(10) == 0;
      expected[i] = isNull ? null : s;
      sb.append(i).append(',');
      if (!isNull) {
        sb.append('"').append(s.replace("\"", "\"\"")).append('"');
      }
      sb.append(',').append(i * 7L - 5).append("\r\n");
    }
    BulkLoad.Result r = BulkLoad.load(t, List.of(text("q.csv", sb.toString())), null,
        BulkLoad.Options.defaults(TextFormat.csv()).withThreads(3).withChunkBytes(4096).withBlockRows(2048));
    assertEquals(n, r.rows());
    assertTrue(r.parts() >= 5, "parts of 2048 rows: " + r.parts());
    List<Object[]> rows = rows(t);
    assertEquals(n, rows.size());
    for (int i = 0; i < n; i++) {
      assertEquals(i, rows.get(i)[0]);
      assertEquals(expected[i], rows.get(i)[1], "row " + i);
      assertEquals(i * 7L - 5, rows.get(i)[2]);
    }
  }

  @Test void backslashEscapesInCsv() throws IOException {
    TableSchema schema = new TableSchema(List.of(
        new Column("id", DataType.of(TypeKind.INTEGER), false),
        new Column("s", DataType.varchar(-1), true)));
    MergeTreeTable t = create("escapes", schema);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      sb.append(i).append(",\"say \\\"hi\\\"\n\\\\ ").append(i).append("\"\n");
    }
    BulkLoad.load(t, List.of(text("e.csv", sb.toString())), null,
        BulkLoad.Options.defaults(TextFormat.csv().withEscape('\\')).withThreads(2).withChunkBytes(4096));
    List<Object[]> rows = rows(t);
    assertEquals(3000, rows.size());
    assertEquals("say \"hi\"\n\\ 2999", rows.get(2999)[1]);
  }

  @Test void emptyFieldsInNotNullColumnsTakeDefaults() throws IOException {
    TableSchema schema = new TableSchema(List.of(
        new Column("id", DataType.of(TypeKind.INTEGER), false),
        new Column("s", DataType.varchar(-1), false),
        new Column("n", DataType.of(TypeKind.BIGINT), false),
        new Column("d", DataType.of(TypeKind.DATE), false),
        new Column("x", DataType.of(TypeKind.DOUBLE), false)));
    MergeTreeTable t = create("defaults", schema);
    String csv = "1,,,,\n2,\"\",\"\",NULL,\n";
    Object[] defaults = {null, null, 42L, null, null};
    BulkLoad.load(t, List.of(text("d.csv", csv)), defaults,
        BulkLoad.Options.defaults(TextFormat.csv().withNullString("NULL")));
    List<Object[]> rows = rows(t);
    assertArrayEquals(new Object[] {1, "", 42L, 0, 0.0}, rows.get(0));
    assertArrayEquals(new Object[] {2, "", 42L, 0, 0.0}, rows.get(1));

    MergeTreeTable strict = create("strict", schema);
    BulkLoad.BadInputException e = assertThrows(BulkLoad.BadInputException.class, () -> BulkLoad.load(strict,
        List.of(text("strict.csv", "1,a,1,2024-01-01,1\n2,b,,2024-01-01,1\n")), null,
        BulkLoad.Options.defaults(TextFormat.csv().withEmptyAsDefault(false))));
    assertEquals("strict.csv:2: column n: an empty field in a NOT NULL column; nothing was loaded", e.getMessage());
    assertEquals(0, rows(strict).size());
  }

  @Test void aBadRowLoadsNothingUnlessSkipped() throws IOException {
    TableSchema schema = new TableSchema(List.of(
        new Column("id", DataType.of(TypeKind.INTEGER), false),
        new Column("v", DataType.of(TypeKind.INTEGER), true)));
    MergeTreeTable t = create("bad", schema);
    StringBuilder sb = new StringBuilder("id,v\n");
    for (int i = 0; i < 50_000; i++) {
      sb.append(i).append(',').append(i == 30_000 ? "x3" : i == 40_000 ? "99999999999" : String.valueOf(i))
          .append(i == 45_000 ? ",extra" : "").append('\n');
    }
    BulkLoad.Options o = BulkLoad.Options.defaults(TextFormat.csv().withHeader(true)).withChunkBytes(8192)
        .withBlockRows(4096).withThreads(2);
    BulkLoad.BadInputException e = assertThrows(BulkLoad.BadInputException.class,
        () -> BulkLoad.load(t, List.of(text("bad.csv", sb.toString())), null, o));
    assertEquals("bad.csv:30002: column v: cannot read 'x3' as INTEGER; nothing was loaded", e.getMessage());
    assertEquals(0, rows(t).size(), "parts written before the bad row are discarded");
    assertTrue(t.activeParts().isEmpty());

    BulkLoad.BadInputException two = assertThrows(BulkLoad.BadInputException.class,
        () -> BulkLoad.load(t, List.of(text("bad.csv", sb.toString())), null, o.withMaxErrors(2)));
    assertTrue(two.getMessage().contains("more than 2 bad rows"), two.getMessage());
    assertEquals(0, rows(t).size());

    BulkLoad.Result r = BulkLoad.load(t, List.of(text("bad.csv", sb.toString())), null, o.withMaxErrors(3));
    assertEquals(49_997, r.rows());
    assertEquals(3, r.badRows());
    assertEquals(List.of("bad.csv:30002: column v: cannot read 'x3' as INTEGER",
        "bad.csv:40002: column v: cannot read '99999999999' as INTEGER",
        "bad.csv:45002: expected 2 fields, found 3"), r.samples().stream().map(Object::toString).toList());
    assertEquals(49_997, rows(t).size());
  }

  @Test void headerMapsColumnsByNameAndTheRestTakeDefaults() throws IOException {
    TableSchema schema = new TableSchema(List.of(
        new Column("id", DataType.of(TypeKind.INTEGER), false),
        new Column("a", DataType.varchar(-1), true),
        new Column("b", DataType.of(TypeKind.BIGINT), false),
        new Column("c", DataType.of(TypeKind.BIGINT), true)));
    MergeTreeTable t = create("header", schema);
    BulkLoad.load(t, List.of(text("h.csv", "\uFEFFC,ID,A\r\n7,1,x\r\n8,2,y\r\n")), new Object[] {null, null, 5L, null},
        BulkLoad.Options.defaults(TextFormat.csv().withHeader(true)));
    List<Object[]> rows = rows(t);
    assertArrayEquals(new Object[] {1, "x", 5L, 7L}, rows.get(0));
    assertArrayEquals(new Object[] {2, "y", 5L, 8L}, rows.get(1));

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BulkLoad.load(t,
        List.of(text("u.csv", "id,zzz\n1,2\n")), null, BulkLoad.Options.defaults(TextFormat.csv().withHeader(true))));
    assertEquals("u.csv: no column 'zzz' in the table", e.getMessage());
  }

  @Test void compressedFilesAndSeveralSourcesAreOneCommit() throws IOException {
    TableSchema schema = new TableSchema(List.of(
        new Column("id", DataType.of(TypeKind.INTEGER), false),
        new Column("s", DataType.varchar(-1), true)));
    MergeTreeTable t = create("compressed", schema);
    StringBuilder a = new StringBuilder();
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 10_000; i++) {
      (i % 2 == 0 ? a : b).append(i).append(",v").append(i % 13).append('\n');
    }
    Path gz = dir.resolve("a.csv.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(a.toString().getBytes(StandardCharsets.UTF_8));
    }
    Path zst = dir.resolve("b.csv.zst");
    try (OutputStream out = new com.github.luben.zstd.ZstdOutputStream(Files.newOutputStream(zst))) {
      out.write(b.toString().getBytes(StandardCharsets.UTF_8));
    }
    long before = db.events().get(dev.travertine.mergetree.EngineEvents.INSERT_QUERIES);
    BulkLoad.Result r = BulkLoad.load(t, List.of(BulkLoad.Source.file(gz), BulkLoad.Source.file(zst)), null,
        BulkLoad.Options.defaults(TextFormat.csv()).withBlockRows(2048).withChunkBytes(4096));
    assertEquals(10_000, r.rows());
    assertEquals(Files.size(gz) + Files.size(zst), r.bytesRead());
    assertEquals(before + 1, db.events().get(dev.travertine.mergetree.EngineEvents.INSERT_QUERIES),
        "one commit for the whole load");
    List<Object[]> rows = rows(t);
    assertEquals(10_000, rows.size());
    assertEquals("v" + 9999 % 13, rows.get(9999)[1]);
  }

  @Test void aCancelledLoadLeavesNothing() throws IOException {
    TableSchema schema = new TableSchema(List.of(new Column("id", DataType.of(TypeKind.INTEGER), false)));
    MergeTreeTable t = create("cancelled", schema);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 200_000; i++) {
      sb.append(i).append('\n');
    }
    AtomicInteger checks = new AtomicInteger();
    BulkLoad.Options o = BulkLoad.Options.defaults(TextFormat.csv()).withChunkBytes(4096).withBlockRows(1024)
        .withCheckpoint(() -> {
          if (checks.incrementAndGet() > 100) {
            throw new CancellationException("Query was cancelled");
          }
        });
    assertThrows(CancellationException.class, () -> BulkLoad.load(t, List.of(text("c.csv", sb.toString())), null, o));
    assertEquals(0, rows(t).size());
    assertTrue(t.activeParts().isEmpty());
    try (var files = Files.walk(dir.resolve("db"))) {
      assertEquals(List.of(), files.filter(p -> p.toString().endsWith(".orc")).toList(), "written parts are deleted");
    }
  }

  @Test void aSmallLoadGoesToTheInsertBuffer() throws IOException {
    TableSchema schema = new TableSchema(List.of(new Column("id", DataType.of(TypeKind.INTEGER), false)));
    MergeTreeTable t = create("small", schema);
    BulkLoad.load(t, List.of(text("s.csv", "3\n1\n2")), null, BulkLoad.Options.defaults(TextFormat.csv()));
    assertEquals(3, t.bufferedRows());
    assertEquals(List.of(1, 2, 3), rows(t).stream().map(r -> r[0]).sorted(Comparator.comparing(o -> (Integer) o))
        .toList());
  }

  @Test void fieldParsersAgreeWithTheJdk() throws Exception {
    Random rnd = new Random(7);
    for (int i = 0; i < 200_000; i++) {
      String s = switch (rnd.nextInt(4)) {
        case 0 -> Double.toString(rnd.nextDouble() * Math.pow(10, rnd.nextInt(40) - 20));
        case 1 -> (rnd.nextInt(2000) - 1000) + "." + rnd.nextInt(100000);
        case 2 -> Long.toString(rnd.nextLong() >> rnd.nextInt(64));
        default -> String.format(java.util.Locale.ROOT, "%.6f", rnd.nextGaussian() * 1e6);
      };
      byte[] b = s.getBytes(StandardCharsets.US_ASCII);
      assertEquals(Double.parseDouble(s), FieldParsers.parseDouble(b, 0, b.length), s);
    }
    for (String bad : new String[] {"", "-", "1.2.3", "1d", "0x10", "e5", "1e", "--1"}) {
      byte[] b = bad.getBytes(StandardCharsets.US_ASCII);
      assertThrows(FieldParsers.BadValue.class, () -> FieldParsers.parseDouble(b, 0, b.length), bad);
    }
    for (String ok : new String[] {"9223372036854775807", "-9223372036854775808", " 12 ", "+5"}) {
      byte[] b = ok.getBytes(StandardCharsets.US_ASCII);
      assertEquals(Long.parseLong(ok.trim()), FieldParsers.parseLong(b, 0, b.length, Long.MIN_VALUE, Long.MAX_VALUE));
    }
    for (String bad : new String[] {"9223372036854775808", "-9223372036854775809", "1 2", "", "+", "1.0"}) {
      byte[] b = bad.getBytes(StandardCharsets.US_ASCII);
      assertThrows(FieldParsers.BadValue.class,
          () -> FieldParsers.parseLong(b, 0, b.length, Long.MIN_VALUE, Long.MAX_VALUE), bad);
    }
    for (int i = 0; i < 20_000; i++) {
      LocalDate d = LocalDate.ofEpochDay(rnd.nextInt(800_000) - 400_000);
      if (d.getYear() < 0 || d.getYear() > 9999) {
        continue;
      }
      byte[] b = d.toString().getBytes(StandardCharsets.US_ASCII);
      assertEquals(d.toEpochDay(), FieldParsers.parseDate(b, 0, b.length), d.toString());
    }
    for (String bad : new String[] {"2023-02-29", "2024-13-01", "2024-00-10", "2024-1-1", "20240101"}) {
      byte[] b = bad.getBytes(StandardCharsets.US_ASCII);
      assertThrows(FieldParsers.BadValue.class, () -> FieldParsers.parseDate(b, 0, b.length), bad);
    }
    byte[] ts = "1969-12-31 23:59:59.9996".getBytes(StandardCharsets.US_ASCII);
    assertEquals(-1L, FieldParsers.parseTimestamp(ts, 0, ts.length), "digits past the millisecond are dropped");
  }

  @Test void recordsLongerThanAChunkAndBlankLines() throws IOException {
    TableSchema schema = new TableSchema(List.of(
        new Column("id", DataType.of(TypeKind.INTEGER), false),
        new Column("s", DataType.varchar(-1), true)));
    MergeTreeTable t = create("long", schema);
    char[] big = new char[50_000];
    Arrays.fill(big, 'q');
    String csv = "1,\"" + new String(big) + "\"\n\n2,short\n3,\"" + new String(big, 0, 20_000) + "\n\"\n";
    BulkLoad.load(t, List.of(text("long.csv", csv)), null,
        BulkLoad.Options.defaults(TextFormat.csv()).withChunkBytes(4096).withThreads(2));
    List<Object[]> rows = rows(t);
    assertEquals(3, rows.size());
    assertEquals(50_000, ((String) rows.get(0)[1]).length());
    assertEquals("short", rows.get(1)[1]);
    assertEquals(20_001, ((String) rows.get(2)[1]).length());
  }

  @Test void manyDistinctStringsAreWrittenWithoutADictionaryAndMergesKeepThat() throws IOException {
    TableSchema schema = new TableSchema(List.of(
        new Column("id", DataType.of(TypeKind.INTEGER), false),
        new Column("url", DataType.varchar(-1), false),
        new Column("phrase", DataType.varchar(-1), false)));
    MergeTreeTable t = create("cardinality", schema);
    for (int load = 0; load < 2; load++) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < 70_000; i++) {
        int id = load * 70_000 + i;
        sb.append(id).append(",http://example.com/page/").append(id * 7919L % 1_000_003).append(",phrase ")
            .append(id % 50).append('\n');
      }
      BulkLoad.load(t, List.of(text("c" + load + ".csv", sb.toString())), null,
          BulkLoad.Options.defaults(TextFormat.csv()).withThreads(1));
    }
    assertEquals(2, t.activeParts().size());
    for (var p : t.snapshot().parts()) {
      assertEquals(java.util.Set.of("url"), p.directStrings(), p.name());
    }
    t.optimize(true);
    assertEquals(1, t.snapshot().parts().size());
    assertEquals(java.util.Set.of("url"), t.snapshot().parts().get(0).directStrings());
    List<Object[]> rows = rows(t);
    assertEquals(140_000, rows.size());
    assertEquals("http://example.com/page/" + (139_999L * 7919 % 1_000_003), rows.get(139_999)[1]);
    assertEquals("phrase " + 139_999 % 50, rows.get(139_999)[2]);
  }

  /**
   * A load of many blocks, each of more string bytes than one arena, the parser filling the
   * batches of a written block again for the next: every value, NULL and default comes back as
   * loaded, NULLs in other rows from block to block. Keys descending: every block is sorted by a
   * scatter; ascending: its batches go to ORC as they are.
   */
  @org.junit.jupiter.params.ParameterizedTest @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void manyBlocksOfManyStringsLoseNothing(boolean ascending) throws IOException {
    TableSchema schema = new TableSchema(List.of(
        new Column("id", DataType.of(TypeKind.BIGINT), false),
        new Column("i", DataType.of(TypeKind.INTEGER), true),
        new Column("d", DataType.of(TypeKind.DOUBLE), true),
        new Column("dec", DataType.decimal(12, 3), true),
        new Column("s", DataType.varchar(-1), true),
        new Column("n", DataType.varchar(-1), false),
        new Column("ts", DataType.of(TypeKind.TIMESTAMP), true)));
    MergeTreeTable t = create("reuse", schema);
    int rows = 60_000;
    StringBuilder sb = new StringBuilder();
    for (int j = 0; j < rows; j++) { // the parser's batches are filled again for every block
      int k = ascending ? j : rows - 1 - j;
      sb.append(k).append(',');
      sb.append(k % 7 == (k / 8192) % 7 ? "" : String.valueOf(k * 31)).append(','); // NULLs move between blocks
      sb.append(k % 5 == 0 ? "" : (k + 0.5)).append(',');
      sb.append(k % 3 == 0 ? "" : (k + ".125")).append(',');
      sb.append(k % 11 == 0 ? "" : "\"" + "x".repeat(k % 400) + k + "\"").append(','); // about 12 MB of strings
      sb.append(k % 4 == 0 ? "" : "n" + k).append(','); // empty: the NOT NULL column's default ''
      sb.append(k % 9 == 0 ? "" : "2026-12-02 10:00:" + String.format("%02d", k % 60)).append('\n');
    }
    BulkLoad.load(t, List.of(text("reuse.csv", sb.toString())), null,
        BulkLoad.Options.defaults(TextFormat.csv()).withThreads(1).withBlockRows(8 * dev.travertine.mergetree.block.Block.CHUNK)); // blocks of more strings than an arena holds
    assertTrue(t.activeParts().size() >= 7, "several blocks: " + t.activeParts().size());
    List<Object[]> got = rows(t);
    got.sort(java.util.Comparator.comparingLong(r -> (Long) r[0]));
    assertEquals(rows, got.size());
    for (int k = 0; k < rows; k++) {
      Object[] r = got.get(k);
      String at = "row " + k;
      assertEquals((long) k, r[0], at);
      assertEquals(k % 7 == (k / 8192) % 7 ? null : (long) (k * 31), r[1] == null ? null : ((Number) r[1]).longValue(), at);
      assertEquals(k % 5 == 0 ? null : k + 0.5, r[2], at);
      assertEquals(k % 3 == 0 ? null : new java.math.BigDecimal(k + ".125"),
          r[3] == null ? null : ((java.math.BigDecimal) r[3]).setScale(3), at);
      assertEquals(k % 11 == 0 ? null : "x".repeat(k % 400) + k, r[4], at);
      assertEquals(k % 4 == 0 ? "" : "n" + k, r[5], at);
      assertEquals(k % 9 == 0 ? null : millis(String.format("2026-12-02T10:00:%02d", k % 60)),
          r[6] == null ? null : ((Number) r[6]).longValue(), at);
    }
  }

  @Test void valuesThatDoNotFitTheirColumnAreBadRows() throws IOException {
    TableSchema schema = new TableSchema(List.of(
        new Column("id", DataType.of(TypeKind.INTEGER), false),
        new Column("s", DataType.varchar(3), true),
        new Column("d", DataType.decimal(4, 2), true),
        new Column("t", DataType.of(TypeKind.TINYINT), true)));
    MergeTreeTable t = create("fit", schema);
    BulkLoad.Result r = BulkLoad.load(t, List.of(text("fit.csv",
        "1,abc,12.34,127\n2,abcd,1,1\n3,a,123.4,1\n4,a,1,128\n5,é€x,-0.5,-128\n")), null,
        BulkLoad.Options.defaults(TextFormat.csv()).withMaxErrors(3));
    assertEquals(List.of("fit.csv:2: column s: 'abcd' is longer than VARCHAR(3)",
        "fit.csv:3: column d: '123.4' does not fit DECIMAL(4, 2)",
        "fit.csv:4: column t: cannot read '128' as TINYINT"), r.samples().stream().map(Object::toString).toList());
    List<Object[]> rows = rows(t);
    assertEquals(2, rows.size());
    assertArrayEquals(new Object[] {5, "é€x", new BigDecimal("-0.50"), (byte) -128}, rows.get(1),
        "three characters in more bytes fit VARCHAR(3)");
  }

  @Test void anUnclosedQuoteIsABadRow() {
    TableSchema schema = new TableSchema(List.of(
        new Column("id", DataType.of(TypeKind.INTEGER), false),
        new Column("s", DataType.varchar(-1), true)));
    BulkLoad.BadInputException e = assertThrows(BulkLoad.BadInputException.class, () -> BulkLoad.load(
        create("unclosed", schema), List.of(text("u.csv", "1,a\n2,\"open\n3,c\n")), null,
        BulkLoad.Options.defaults(TextFormat.csv())));
    assertTrue(e.getMessage().startsWith("u.csv:2: malformed quoted field"), e.getMessage());
  }
}
