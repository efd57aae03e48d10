package dev.travertine.formats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.mergetree.Database;
import dev.travertine.mergetree.MergeTreeTable;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JSONEachRow through the text loader: keys by name, escapes, nested values, bad lines. */
class JsonLinesTest {
  @TempDir Path dir;
  private Database db;

  @BeforeEach void open() throws IOException {
    db = Database.open(dir.resolve("db"));
  }

  @AfterEach void close() throws IOException {
    db.close();
  }

  private static BulkLoad.Source text(String name, String content) {
    byte[] b = content.getBytes(StandardCharsets.UTF_8);
    return BulkLoad.Source.stream(name, b.length, new ByteArrayInputStream(b));
  }

  @Test void everyTypeByKeyWithEscapesNestedValuesAndDefaults() throws IOException {
    MergeTreeTable t = FileLoadTest.create(db, "j", FileLoadTest.ALL);
    String json = "{\"id\":1,\"b\":true,\"t\":-128,\"sm\":32767,\"i\":-2147483648,\"r\":1.5,\"d\":-0.125,"
        + "\"dec\":12.345,\"big\":\"-123456789012345678901.23456\",\"c\":\"ab\",\"s\":\"q\\\"\\\\\\n\\t\\u00e9\\ud83d\\ude00/\","
        + "\"dt\":\"2024-02-29\",\"ts\":\"2024-02-29 23:59:58.123\"}\n"
        + "{\"ID\": 2, \"b\": null, \"unknown\": {\"x\": [1, 2, \"]\"]}, \"s\": {\"k\": [1, \"}\"]}}\r\n"
        + "\n"
        + "  { \"s\" : [ ] , \"id\" : 3 , \"t\" : \"7\" }\n"
        + "{\"id\":4}";
    BulkLoad.Result r = BulkLoad.load(t, List.of(text("a.jsonl", json)), null,
        BulkLoad.Options.defaults(TextFormat.jsonEachRow()).withThreads(2));
    assertEquals(4, r.rows());
    List<Object[]> rows = FileLoadTest.rows(t);
    assertArrayEquals(new Object[] {1L, true, (byte) -128, (short) 32767, Integer.MIN_VALUE, 1.5f, -0.125,
        new BigDecimal("12.345"), new BigDecimal("-123456789012345678901.23456"), "ab ",
        "q\"\\\n\té\uD83D\uDE00/", (int) LocalDate.parse("2024-02-29").toEpochDay(),
        LocalDateTime.parse("2024-02-29T23:59:58.123").toInstant(ZoneOffset.UTC).toEpochMilli()}, rows.get(0));
    assertArrayEquals(new Object[] {2L, null, null, null, null, null, null, null, null, null,
        "{\"k\": [1, \"}\"]}", null, null}, rows.get(1));
    assertEquals("[ ]", rows.get(2)[10]);
    assertEquals((byte) 7, rows.get(2)[2]);
    assertEquals(4L, rows.get(3)[0]);
  }

  @Test void manyLinesAcrossChunksInAnyKeyOrder() throws IOException {
    TableSchema schema = new TableSchema(List.of(new Column("id", DataType.of(TypeKind.BIGINT), false),
        new Column("name", DataType.varchar(-1), true), new Column("v", DataType.of(TypeKind.DOUBLE), false)));
    MergeTreeTable t = FileLoadTest.create(db, "many", schema);
    Random rnd = new Random(5);
    StringBuilder sb = new StringBuilder();
    List<Object[]> expected = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      String name = rnd.nextInt(5) == 0 ? null : "n" + i + (rnd.nextInt(20) == 0 ? "\\\"" : "");
      double v = rnd.nextInt(1000) / 8.0;
      if (rnd.nextBoolean()) {
        sb.append("{\"id\":").append(i).append(",\"name\":").append(name == null ? "null" : "\"" + name + "\"")
            .append(",\"v\":").append(v).append("}\n");
      } else {
        sb.append("{\"v\":").append(v).append(",\"name\":").append(name == null ? "null" : "\"" + name + "\"")
            .append(",\"id\":").append(i).append("}\n");
      }
      expected.add(new Object[] {(long) i, name == null ? null : name.replace("\\\"", "\""), v});
    }
    BulkLoad.load(t, List.of(text("m.ndjson", sb.toString())), null,
        BulkLoad.Options.defaults(TextFormat.jsonEachRow()).withThreads(3).withChunkBytes(4096));
    List<Object[]> got = FileLoadTest.rows(t);
    assertEquals(expected.size(), got.size());
    for (int i = 0; i < got.size(); i++) {
      assertArrayEquals(expected.get(i), got.get(i), "row " + i);
    }
  }

  @Test void aBadLineLoadsNothingAndNamesItsLine() throws IOException {
    TableSchema schema = new TableSchema(List.of(new Column("id", DataType.of(TypeKind.BIGINT), false),
        new Column("n", DataType.of(TypeKind.INTEGER), true)));
    MergeTreeTable t = FileLoadTest.create(db, "bad", schema);
    for (String[] c : new String[][] {
        {"{\"id\":1,\"n\":2}\n{\"id\":2,\"n\":\"x\"}\n", "b.json:2: column n: cannot read 'x' as INTEGER"},
        {"{\"id\":1}\n{\"id\":2,\"n\":[1]}\n", "b.json:2: column n: a nested JSON array fits only a string column"},
        {"{\"id\":1}\n{\"id\":2,\n", "b.json:2: malformed JSON"},
        {"{\"id\":1}\n[1,2]\n", "b.json:2: expected a JSON object"},
        {"{\"id\":1}\n{\"id\":2} x\n", "b.json:2: malformed JSON: text after the object"}}) {
      var e = assertThrows(BulkLoad.BadInputException.class, () -> BulkLoad.load(t, List.of(text("b.json", c[0])),
          null, BulkLoad.Options.defaults(TextFormat.jsonEachRow())));
      assertTrue(e.getMessage().startsWith(c[1]), e.getMessage());
      assertTrue(e.getMessage().endsWith("nothing was loaded"), e.getMessage());
    }
    assertEquals(0, FileLoadTest.rows(t).size());
    BulkLoad.Result r = BulkLoad.load(t, List.of(text("b.json", "{\"id\":1}\n{\"id\":2,\"n\":\"x\"}\n{\"id\":3}\n")),
        null, BulkLoad.Options.defaults(TextFormat.jsonEachRow()).withMaxErrors(1));
    assertEquals(2, r.rows());
    assertEquals(1, r.badRows());
  }
}
