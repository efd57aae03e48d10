package dev.travertine.mergetree.part;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.travertine.io.FileIO;
import dev.travertine.io.local.LocalFileIO;
import dev.travertine.mergetree.RandomValues;
import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.OrcTypes;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.Reader;
import org.apache.orc.TypeDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Part format 2 (DECIMAL of up to 18 digits stored as scaled {@code bigint}s) against format 1
 * (ORC's decimal): the same rows read back the same, into either vector form, through the
 * metadata's schema or the file's footer, and after the column's type changed (ALTER ... MODIFY
 * COLUMN), where format 1 goes through ORC's own conversions.
 */
class ScaledDecimalFormatTest {
  @TempDir Path dir;

  private static final TableSchema SCHEMA = RandomValues.ALL_TYPES;
  private static final int DEC = SCHEMA.indexOf("dec"); // DECIMAL(18, 4)

  private List<Object[]> rows() {
    Random rnd = new Random(7);
    List<Object[]> rows = new ArrayList<>();
    BigDecimal max = new BigDecimal("99999999999999.9999");
    for (int r = 0; r < 3000; r++) {
      Object[] row = new Object[SCHEMA.size()];
      row[0] = (long) r;
      for (int c = 1; c < row.length; c++) {
        row[c] = rnd.nextInt(6) == 0 ? null : RandomValues.value(rnd, SCHEMA.column(c).type());
      }
      switch (r % 10) { // extremes, small values, halves for rounding
        case 1 -> row[DEC] = max;
        case 2 -> row[DEC] = max.negate();
        case 3 -> row[DEC] = new BigDecimal("0.0050");
        case 4 -> row[DEC] = new BigDecimal("-127.9999");
        case 5 -> row[DEC] = new BigDecimal("32767.5000");
        default -> { }
      }
      rows.add(row);
    }
    return rows;
  }

  private PartRef write(FileIO io, String name, List<Object[]> rows, int format, boolean metadataSchema)
      throws Exception {
    Block block = new Block(SCHEMA);
    rows.forEach(block::appendRow);
    String path = "parts/" + name + ".orc";
    PartWriter.Written w;
    try (PartWriter pw = new PartWriter(io, path, SCHEMA, 1000, CompressionKind.ZSTD, 64 << 10, java.util.Set.of(),
        format)) {
      pw.append(block, null, 0, block.rows());
      w = pw.finish();
    }
    PartInfo info = new PartInfo(name, "all", 1, 1, 0, 0, w.rows(), w.bytes(), w.checksum(), 0, w.index().granules(),
        Map.of(), path, metadataSchema ? SCHEMA.orcSchema().toString() : null, format);
    return new PartRef(info, io, OrcSupport.fileSystem(io), null);
  }

  private static List<Object[]> read(PartRef part, TableSchema schema, TypeDescription.RowBatchVersion form)
      throws Exception {
    List<Object[]> out = new ArrayList<>();
    try (PartReader reader = PartReader.open(part, schema, null, null, null, 0, -1)) {
      VectorizedRowBatch batch = schema.orcSchema().createRowBatch(form, 777);
      while (reader.next(batch)) {
        for (int r = 0; r < batch.size; r++) {
          Object[] row = new Object[schema.size()];
          for (int c = 0; c < schema.size(); c++) {
            row[c] = Vectors.get(batch.cols[c], schema.column(c).type().kind(), r);
          }
          out.add(row);
        }
      }
    }
    return out;
  }

  private static void assertSame(List<Object[]> expected, List<Object[]> actual, String what) {
    assertEquals(expected.size(), actual.size(), what);
    for (int r = 0; r < expected.size(); r++) {
      for (int c = 0; c < expected.get(r).length; c++) {
        Object e = expected.get(r)[c];
        Object a = actual.get(r)[c];
        if (e instanceof BigDecimal x && a instanceof BigDecimal y) {
          assertEquals(0, x.compareTo(y), what + " row " + r + " column " + c + ": " + x + " vs " + y);
        } else if (e instanceof byte[] x && a instanceof byte[] y) {
          assertTrue(Arrays.equals(x, y), what + " row " + r + " column " + c);
        } else {
          assertEquals(e, a, what + " row " + r + " column " + c);
        }
      }
    }
  }

  @Test
  void bothFormatsReadTheRowsWrittenInEitherVectorForm() throws Exception {
    FileIO io = new LocalFileIO(dir, false);
    List<Object[]> rows = rows();
    int i = 0;
    for (int format : new int[] {OrcTypes.FORMAT_ORC_TYPES, OrcTypes.FORMAT_SCALED_DECIMALS}) {
      for (boolean metadataSchema : new boolean[] {true, false}) {
        PartRef part = write(io, "all_" + ++i + "_" + i + "_0", rows, format, metadataSchema);
        for (var form : TypeDescription.RowBatchVersion.values()) {
          assertSame(rows, read(part, SCHEMA, form), "format " + format + ", " + form
              + (metadataSchema ? ", schema from metadata" : ", schema from the footer"));
        }
      }
    }
  }

  @Test
  void formatTwoStoresScaledLongsAndSaysSoInTheFile() throws Exception {
    FileIO io = new LocalFileIO(dir, false);
    PartRef part = write(io, "all_1_1_0", rows(), OrcTypes.FORMAT_SCALED_DECIMALS, true);
    try (Reader r = part.openReader()) {
      TypeDescription stored = r.getSchema().getChildren().get(DEC);
      assertEquals(TypeDescription.Category.LONG, stored.getCategory());
      assertEquals("18,4", stored.getAttributeValue(OrcTypes.DECIMAL_ATTRIBUTE));
      // DECIMAL(38, 10) needs more than a long: ORC's decimal
      assertEquals("decimal(38,10)", r.getSchema().getChildren().get(SCHEMA.indexOf("dec38")).toString());
    }
    TypeDescription logical = part.fileSchema();
    assertEquals(SCHEMA.orcSchema().toString(), logical.toString());
    assertTrue(OrcTypes.isScaled(logical.getChildren().get(DEC)));
    // a scan's batch (scaled longs of the column's scale) is filled by ORC's integer reader as it is
    try (PartReader reader = PartReader.open(part, SCHEMA, null, null, null, 0, -1)) {
      VectorizedRowBatch batch = SCHEMA.orcSchema().createRowBatch(TypeDescription.RowBatchVersion.USE_DECIMAL64, 100);
      assertTrue(reader.next(batch));
      assertEquals(4, ((Decimal64ColumnVector) batch.cols[DEC]).scale);
      assertEquals(new BigDecimal("99999999999999.9999"), Vectors.get(batch.cols[DEC], TypeKind.DECIMAL, 1));
      assertTrue(batch.cols[SCHEMA.indexOf("dec38")] instanceof DecimalColumnVector);
    }
  }

  /** The column retyped, as ALTER TABLE ... MODIFY COLUMN leaves old parts: both formats read it alike. */
  @Test
  void aRetypedColumnReadsAsOrcConvertsADecimal() throws Exception {
    FileIO io = new LocalFileIO(dir, false);
    List<Object[]> rows = rows();
    PartRef one = write(io, "all_1_1_0", rows, OrcTypes.FORMAT_ORC_TYPES, true);
    PartRef two = write(io, "all_2_2_0", rows, OrcTypes.FORMAT_SCALED_DECIMALS, true);
    DataType[] retyped = {DataType.decimal(18, 2), DataType.decimal(10, 4), DataType.decimal(38, 6),
        DataType.decimal(6, 0), DataType.of(TypeKind.TINYINT), DataType.of(TypeKind.SMALLINT),
        DataType.of(TypeKind.INTEGER), DataType.of(TypeKind.BIGINT), DataType.of(TypeKind.DOUBLE),
        DataType.of(TypeKind.REAL), DataType.varchar(-1), DataType.varchar(5), new DataType(TypeKind.CHAR, 6, -1)};
    for (DataType t : retyped) {
      List<Column> cols = new ArrayList<>(SCHEMA.columns());
      cols.set(DEC, new Column("dec", t, true));
      TableSchema schema = new TableSchema(cols);
      for (var form : TypeDescription.RowBatchVersion.values()) {
        List<Object[]> expected = read(one, schema, form);
        List<Object[]> actual = read(two, schema, form);
        assertSame(expected, actual, "DECIMAL(18, 4) read as " + t + ", " + form);
        if (t.kind() == TypeKind.DECIMAL && t.precision() == 10) {
          assertNull(actual.get(1)[DEC], "too wide for DECIMAL(10, 4): NULL");
        }
        if (t.kind() == TypeKind.DECIMAL && t.scale() == 2) {
          assertEquals(0, new BigDecimal("0.01").compareTo((BigDecimal) actual.get(3)[DEC]), "0.0050 rounds half up");
        }
      }
    }
  }

  @Test
  void recordsWithoutAFormatAreFormatOne() throws Exception {
    ObjectMapper json = new ObjectMapper();
    PartInfo two = new PartInfo("all_1_1_0", "all", 1, 1, 0, 0, 10, 100, "00000000", 0, 1, Map.of(), null,
        "struct<k:bigint,dec:decimal(18,4)>", OrcTypes.FORMAT_SCALED_DECIMALS);
    String text = json.writeValueAsString(two);
    assertEquals(two, json.readValue(text, PartInfo.class));
    String old = text.replace(",\"format\":2", "");
    assertTrue(!old.equals(text), text);
    assertEquals(OrcTypes.FORMAT_ORC_TYPES, json.readValue(old, PartInfo.class).format());
  }
}
