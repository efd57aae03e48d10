package dev.travertine.calcite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.travertine.calcite.schema.TravertineTypeSystem;
import dev.travertine.calcite.schema.TypeMapping;
import dev.travertine.formats.parquet.ParquetSchemas;
import dev.travertine.mergetree.log.MetadataLog;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.OrcTypes;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.rpc.plan.PlanCodec;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.sql.type.SqlTypeFactoryImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every column type through every foreign type system the engine maps it to, and its extreme
 * values and NULL through storage and files: ORC (parts), Parquet (files), Calcite (SQL), the
 * plan codec (fragments sent to replicas) and the metadata log's JSON. The block wire format has
 * its own every-type test (rpc-marshalling's {@code BlockFormatTest}).
 */
class TypeRoundTripTest {
  @TempDir Path dir;

  /** Every kind, with the precisions and lengths that change a mapping. */
  static final List<DataType> TYPES = List.of(DataType.of(TypeKind.BOOLEAN), DataType.of(TypeKind.TINYINT),
      DataType.of(TypeKind.SMALLINT), DataType.of(TypeKind.INTEGER), DataType.of(TypeKind.BIGINT),
      DataType.of(TypeKind.REAL), DataType.of(TypeKind.DOUBLE), DataType.decimal(1, 0), DataType.decimal(9, 2),
      DataType.decimal(18, 4), DataType.decimal(19, 4), DataType.decimal(38, 10), DataType.decimal(38, 0),
      new DataType(TypeKind.CHAR, 3, -1), DataType.varchar(10), DataType.varchar(-1), DataType.of(TypeKind.DATE),
      DataType.of(TypeKind.TIMESTAMP));

  @Test void everyTypeMapsBackToItself() throws Exception {
    assertEquals(TypeKind.values().length, TYPES.stream().map(DataType::kind).distinct().count(), "every kind is listed");
    var tf = new SqlTypeFactoryImpl(TravertineTypeSystem.INSTANCE);
    var json = MetadataLog.JSON;
    for (DataType t : TYPES) {
      // ORC parts and Parquet files store strings without their length (the table's metadata keeps it)
      DataType stored = t.kind().isString() ? DataType.varchar(-1) : t;
      assertEquals(stored, OrcTypes.fromOrc(OrcTypes.of(t)), "ORC: " + t);
      assertEquals(t, TypeMapping.fromRelType(TypeMapping.toRelType(tf, t, true)), "Calcite: " + t);
      assertEquals(t, TypeMapping.fromRelType(TypeMapping.toRelType(tf, t, false)), "Calcite, NOT NULL: " + t);
      var buf = new ByteArrayOutputStream();
      PlanCodec.writeType(new DataOutputStream(buf), t);
      assertEquals(t, PlanCodec.readType(new DataInputStream(new ByteArrayInputStream(buf.toByteArray()))), "plan: " + t);
      assertEquals(t, json.readValue(json.writeValueAsString(t), DataType.class), "metadata JSON: " + t);
      for (boolean nullable : new boolean[] {true, false}) {
        var schema = new TableSchema(List.of(new Column("c", t, nullable)));
        assertEquals(stored, ParquetSchemas.dataType(ParquetSchemas.messageType(schema).getType(0), "f.parquet"),
            "Parquet: " + t);
      }
    }
  }

  /** Per type (as in {@link #TYPES}): its SQL name, and the values a column of it holds at its limits. */
  private record Values(String sql, List<Object> values) {}

  private static final List<Values> VALUES = List.of(
      new Values("BOOLEAN", List.of(true, false)),
      new Values("TINYINT", List.of((byte) -128, (byte) 127, (byte) 0)),
      new Values("SMALLINT", List.of((short) -32768, (short) 32767, (short) 0)),
      new Values("INTEGER", List.of(Integer.MIN_VALUE, Integer.MAX_VALUE, 0)),
      new Values("BIGINT", List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L)),
      new Values("REAL", List.of(-Float.MAX_VALUE, Float.MAX_VALUE, Float.MIN_VALUE, -0.5f)),
      new Values("DOUBLE", List.of(-Double.MAX_VALUE, Double.MAX_VALUE, Double.MIN_VALUE, 0.1)),
      new Values("DECIMAL(1, 0)", List.of(new BigDecimal("-9"), new BigDecimal("9"), new BigDecimal("0"))),
      new Values("DECIMAL(9, 2)", List.of(new BigDecimal("-9999999.99"), new BigDecimal("9999999.99"),
          new BigDecimal("0.01"))),
      new Values("DECIMAL(18, 4)", List.of(new BigDecimal("-99999999999999.9999"),
          new BigDecimal("99999999999999.9999"), new BigDecimal("-0.0001"))),
      new Values("DECIMAL(19, 4)", List.of(new BigDecimal("-999999999999999.9999"),
          new BigDecimal("999999999999999.9999"), new BigDecimal("922337203685477.5808"))),
      new Values("DECIMAL(38, 10)", List.of(new BigDecimal("-9999999999999999999999999999.9999999999"),
          new BigDecimal("9999999999999999999999999999.9999999999"), new BigDecimal("0.0000000001"))),
      new Values("DECIMAL(38, 0)", List.of(new BigDecimal("-99999999999999999999999999999999999999"),
          new BigDecimal("99999999999999999999999999999999999999"), new BigDecimal("1"))),
      new Values("CHAR(3)", List.of("abc", "x  ", "   ")),
      new Values("VARCHAR(10)", List.of("", "héllo, 中文", "0123456789")),
      new Values("VARCHAR", List.of("", "a'b\"c,d\te\nf\\g", "x".repeat(70_000))),
      new Values("DATE", List.of(java.sql.Date.valueOf("1900-01-01"), java.sql.Date.valueOf("9999-12-31"),
          java.sql.Date.valueOf("1970-01-01"))),
      new Values("TIMESTAMP", List.of(java.sql.Timestamp.valueOf("1900-01-01 00:00:00"),
          java.sql.Timestamp.valueOf("9999-12-31 23:59:59.999"), java.sql.Timestamp.valueOf("1969-12-31 23:59:59.001"))));

  /** Rows: NULL in every column, then the k-th value of every type (its last one where it has fewer). */
  private static List<List<Object>> rows(List<Values> types) {
    int n = types.stream().mapToInt(v -> v.values().size()).max().orElseThrow();
    List<List<Object>> rows = new ArrayList<>();
    rows.add(new ArrayList<>(Arrays.asList(new Object[types.size()])));
    for (int k = 0; k < n; k++) {
      List<Object> row = new ArrayList<>();
      for (Values v : types) {
        row.add(v.values().get(Math.min(k, v.values().size() - 1)));
      }
      rows.add(row);
    }
    return rows;
  }

  /** What comes back, in one comparable form: numbers as BigDecimal, other values as JDBC returns them. */
  private static List<List<Object>> read(Connection c, String sql) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int cols = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 2; i <= cols; i++) {
          row.add(comparable(rs.getObject(i)));
        }
        out.add(row);
      }
    }
    return out;
  }

  private static Object comparable(Object v) {
    if (v instanceof String str && str.length() > 100) {
      return "a string of " + str.length() + " characters, hash " + str.hashCode();
    }
    if (v instanceof Float f) {
      return new BigDecimal(f.toString());
    }
    if (v instanceof Number n && !(v instanceof BigDecimal)) {
      return new BigDecimal(n.toString());
    }
    if (v instanceof BigDecimal b) {
      return b.stripTrailingZeros().toPlainString();
    }
    return v;
  }

  private static List<List<Object>> comparable(List<List<Object>> rows) {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> r : rows) {
      List<Object> row = new ArrayList<>();
      for (Object v : r) {
        row.add(comparable(v));
      }
      out.add(row);
    }
    return out;
  }

  /** Each wanted row {@code times} times in a row, in order; a difference names its row and column. */
  private static void assertRows(List<List<Object>> want, List<List<Object>> got, int times, String what) {
    assertEquals(want.size() * times, got.size(), what + ": rows");
    for (int r = 0; r < got.size(); r++) {
      List<Object> w = want.get(r / times);
      for (int i = 0; i < w.size(); i++) {
        assertEquals(w.get(i), got.get(r).get(i), what + ", row " + r + ", " + VALUES.get(i).sql());
      }
    }
  }

  @Test void extremesAndNullsComeBackFromPartsAndFiles() throws Exception {
    List<Values> types = VALUES;
    assertEquals(TYPES.size(), types.size());
    StringBuilder ddl = new StringBuilder("CREATE TABLE t (id INTEGER NOT NULL");
    for (int i = 0; i < types.size(); i++) {
      ddl.append(", c").append(i).append(' ').append(types.get(i).sql());
    }
    ddl.append(") ORDER BY id");
    List<List<Object>> rows = rows(types);
    try (Connection c = DriverManager.getConnection("jdbc:travertine:" + dir)) {
      JdbcTestSupport.exec(c, ddl.toString());
      String marks = "?" + ", ?".repeat(types.size());
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (" + marks + ")")) {
        for (int r = 0; r < rows.size(); r++) {
          ps.setInt(1, r);
          for (int i = 0; i < types.size(); i++) {
            ps.setObject(i + 2, rows.get(r).get(i));
          }
          ps.addBatch();
        }
        ps.executeBatch();
      }
      List<List<Object>> want = comparable(rows);
      assertRows(want, read(c, "SELECT * FROM t ORDER BY id"), 1, "vectorized, from the part");
      JdbcTestSupport.exec(c, "SET vectorized_execution = 0");
      assertRows(want, read(c, "SELECT * FROM t ORDER BY id"), 1, "Calcite's operators, from the part");
      JdbcTestSupport.exec(c, "SET vectorized_execution = 1");
      JdbcTestSupport.exec(c, "OPTIMIZE TABLE t FINAL");
      JdbcTestSupport.exec(c, "INSERT INTO t SELECT * FROM t");
      JdbcTestSupport.exec(c, "OPTIMIZE TABLE t FINAL");
      assertRows(want, read(c, "SELECT * FROM t ORDER BY id"), 2, "after INSERT … SELECT and a merge");
      // ORC alone reads the last second before 1970 a second late (OrcTimestamps); filters see the right value
      int ts = types.size() - 1;
      long lastSecond = rows.stream()
          .filter(r -> java.sql.Timestamp.valueOf("1969-12-31 23:59:59.001").equals(r.get(ts))).count();
      assertEquals(String.valueOf(2 * lastSecond), JdbcTestSupport.one(c, "SELECT count(*) FROM t WHERE c" + ts
          + " = TIMESTAMP '1969-12-31 23:59:59.001'"));
      assertEquals("0", JdbcTestSupport.one(c, "SELECT count(*) FROM t WHERE c" + ts
          + " = TIMESTAMP '1970-01-01 00:00:00.001'"));
      JdbcTestSupport.update(c, "SELECT * FROM t ORDER BY id INTO OUTFILE 'all.parquet'");
      assertRows(want, read(c, "SELECT * FROM TABLE(file('all.parquet')) ORDER BY id"), 2, "Parquet");
    }
  }
}
