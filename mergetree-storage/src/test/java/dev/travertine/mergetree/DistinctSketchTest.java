package dev.travertine.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.mergetree.part.ColumnSketches;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.HyperLogLog;
import dev.travertine.vector.TypeKind;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parts carry a sketch of each column's distinct values: a table's union of them estimates the
 * true count of every type within a few percent, values repeated across parts counted once, and
 * a merged part's sketch says the same; a column the parts were written without has none.
 */
class DistinctSketchTest {
  @TempDir Path dir;

  private static final String[] NAMES = {"k", "v", "s", "d", "x", "ts"};

  private static TableDefinition def() {
    TableSchema schema = new TableSchema(List.of(
        new Column("k", DataType.of(TypeKind.BIGINT), false),
        new Column("v", DataType.of(TypeKind.INTEGER), true),
        new Column("s", DataType.varchar(-1), true),
        new Column("d", DataType.decimal(12, 2), true),
        new Column("x", DataType.of(TypeKind.DOUBLE), true),
        new Column("ts", DataType.of(TypeKind.TIMESTAMP), true)));
    return new TableDefinition("t", schema, List.of("k"), null, List.of(),
        Map.of("index_granularity", "1000", "min_insert_rows_for_direct_part", "1"), List.of());
  }

  /** The true distinct non-NULL values of each column. */
  private final List<Set<Object>> truth = List.of(new HashSet<>(), new HashSet<>(), new HashSet<>(),
      new HashSet<>(), new HashSet<>(), new HashSet<>());

  /**
   * Rows i = from .. from + n - 1: k sparse (4 i + 1: a span 4 times its count), v one of 37 in
   * every part, s one per 3 rows, d one per 10 rows, x one per 2 rows (-0.0 and 0.0 alike), ts one
   * per 5 rows; every column but k NULL in every 11th row.
   */
  private void insert(MergeTreeTable t, int from, int n) throws IOException {
    try (Inserter ins = t.newInserter(1 << 22)) {
      for (int i = from; i < from + n; i++) {
        Object[] row = {4L * i + 1, i % 37, "value-" + i / 3, BigDecimal.valueOf(i / 10, 2),
            i / 2 == 0 ? (i == 0 ? -0.0 : 0.0) : i / 2 * 0.5, 1_600_000_000_000L + i / 5 * 1001L};
        if (i % 11 == 5) {
          for (int c = 1; c < row.length; c++) {
            row[c] = null;
          }
        }
        for (int c = 0; c < row.length; c++) {
          if (row[c] != null) {
            truth.get(c).add(row[c] instanceof Double x && x == 0 ? 0.0 : row[c]);
          }
        }
        ins.add(row);
      }
      ins.commit();
    }
  }

  private void assertEstimates(MergeTreeTable t) {
    try (TableSnapshot s = t.snapshot()) {
      for (int c = 0; c < NAMES.length; c++) {
        HyperLogLog h = s.distinct(c, true);
        assertNotNull(h, NAMES[c]);
        long real = truth.get(c).size();
        double err = Math.abs(h.estimate() - real) / (double) real;
        assertTrue(err < 0.05, NAMES[c] + ": " + real + " distinct values estimated as " + h.estimate());
      }
    }
  }

  @Test
  void partsSketchEveryColumnAndTheirUnionCountsRepeatsOnce() throws Exception {
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      db.createTable(def(), false);
      MergeTreeTable t = db.table("t");
      for (int p = 0; p < 4; p++) {
        insert(t, p * 20_000, 20_000);
      }
      try (TableSnapshot s = t.snapshot()) {
        assertEquals(4, s.parts().size());
        // the sketches are in the footers: not asked of parts whose footer nothing has read yet
        assertNull(s.distinct(0, false));
        assertNotNull(s.distinct(0, true));
        assertNotNull(s.distinct(1, false));
      }
      assertEquals(37, truth.get(1).size());
      assertEstimates(t);

      t.optimize(true);
      try (TableSnapshot s = t.snapshot()) {
        assertEquals(1, s.parts().size());
      }
      assertEstimates(t);

      // a column added later is in no part's sketches: unknown, not a guess
      db.table("t").alterSchema(t.definition().addColumn(new Column("w", DataType.of(TypeKind.BIGINT), true), 6),
          () -> {});
      try (TableSnapshot s = t.snapshot()) {
        assertNull(s.distinct(6, true));
        assertNotNull(s.distinct(0, true));
      }
    }
  }

  @Test
  void sketchesOfAnotherShapeAreNotRead() {
    TableSchema schema = def().schema();
    ColumnSketches c = ColumnSketches.forSchema(schema);
    byte[] b = c.serialize();
    for (int f = 0; f < schema.size(); f++) {
      assertNotNull(ColumnSketches.column(b, schema.size(), f));
    }
    assertNull(ColumnSketches.column(b, schema.size(), schema.size()));
    assertNull(ColumnSketches.column(b, schema.size() + 1, 0));
    b[0] = 9; // another version
    assertNull(ColumnSketches.column(b, schema.size(), 0));
    assertNull(ColumnSketches.column(new byte[] {1, 0}, schema.size(), 0));
  }
}
