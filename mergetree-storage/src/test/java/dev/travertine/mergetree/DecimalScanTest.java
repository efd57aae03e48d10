package dev.travertine.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.mergetree.scan.DecodedColumnCache;
import dev.travertine.mergetree.scan.ReadSettings;
import dev.travertine.mergetree.scan.ScanRequest;
import dev.travertine.mergetree.scan.TableScanner;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scan reads DECIMAL columns of up to 18 digits as scaled longs and wider ones as objects, with
 * the values written, from the file and from the decoded-column cache, and a pushed filter on the
 * scaled column keeps the rows BigDecimal says it should.
 */
class DecimalScanTest {
  @TempDir Path dir;

  @Test
  void narrowDecimalsAreScaledLongsAndWideOnesObjects() throws Exception {
    EngineContext c = EngineTestSupport.manualContext();
    try (Database db = Database.open(dir, c.withColumnCache(new DecodedColumnCache(64L << 20, c.events())))) {
      TableSchema schema = new TableSchema(List.of(
          new Column("k", DataType.of(TypeKind.INTEGER), false),
          new Column("m", DataType.decimal(15, 2), true),
          new Column("w", DataType.decimal(25, 3), true)));
      db.createTable(new TableDefinition("t", schema, List.of("k"), null, List.of(),
          Map.of("index_granularity", "1000", "min_insert_rows_for_direct_part", "1"), List.of()), false);
      MergeTreeTable t = db.table("t");
      Random rnd = new Random(18);
      Map<Integer, BigDecimal[]> expected = new TreeMap<>();
      try (Inserter ins = t.newInserter(1 << 22)) {
        for (int k = 0; k < 3000; k++) {
          BigDecimal m = k % 11 == 0 ? null : BigDecimal.valueOf(rnd.nextLong() % 1_000_000_000_000L, 2);
          BigDecimal w = k % 13 == 0 ? null
              : new BigDecimal(Long.toString(Math.abs(rnd.nextLong())) + "12345").movePointLeft(3);
          expected.put(k, new BigDecimal[] {m, w});
          ins.add(new Object[] {k, m, w});
        }
        ins.commit();
      }
      BigDecimal bound = new BigDecimal("1234.5");
      for (boolean cache : new boolean[] {false, true, true}) {
        Map<Integer, BigDecimal[]> seen = new TreeMap<>();
        List<Integer> filtered = new ArrayList<>();
        try (TableScanner s = TableScanner.open(t.snapshot(), new ScanRequest(new int[] {0, 1, 2}, null, -1, true, 2,
            1024, true, ReadSettings.DEFAULT.withUncompressedCache(cache)), t.context())) {
          Batch b;
          while ((b = s.next()) != null) {
            assertInstanceOf(Decimal64ColumnVector.class, b.cols()[1], "DECIMAL(15, 2): scaled longs");
            assertInstanceOf(DecimalColumnVector.class, b.cols()[2], "DECIMAL(25, 3): objects");
            for (int k = 0; k < b.size(); k++) {
              int r = b.sel()[k];
              int key = (Integer) Vectors.get(b.cols()[0], TypeKind.INTEGER, r);
              seen.put(key, new BigDecimal[] {(BigDecimal) Vectors.get(b.cols()[1], TypeKind.DECIMAL, r),
                  (BigDecimal) Vectors.get(b.cols()[2], TypeKind.DECIMAL, r)});
            }
          }
        }
        assertEquals(expected.size(), seen.size());
        expected.forEach((k, v) -> {
          assertEquals(v[0], seen.get(k)[0], "m of " + k);
          assertEquals(v[1] == null ? null : v[1].setScale(3), seen.get(k)[1], "w of " + k);
        });
        Predicate p = new Predicate.Compare(1, Predicate.Op.GE, bound).bind(schema);
        try (TableScanner s = TableScanner.open(t.snapshot(), new ScanRequest(new int[] {0, 1}, p, -1, true, 2,
            1024, true, ReadSettings.DEFAULT.withUncompressedCache(cache)), t.context())) {
          Batch b;
          while ((b = s.next()) != null) {
            for (int k = 0; k < b.size(); k++) {
              filtered.add((Integer) Vectors.get(b.cols()[0], TypeKind.INTEGER, b.sel()[k]));
            }
          }
        }
        List<Integer> want = expected.entrySet().stream()
            .filter(e -> e.getValue()[0] != null && e.getValue()[0].compareTo(bound) >= 0).map(Map.Entry::getKey).toList();
        assertEquals(want, filtered);
        assertTrue(want.size() > 100 && want.size() < 2900, "the filter keeps some rows and drops some");
      }
    }
  }
}
