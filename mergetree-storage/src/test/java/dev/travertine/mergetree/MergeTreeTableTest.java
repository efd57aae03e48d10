package dev.travertine.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.mergetree.scan.ScanPlan;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.PartitionExpression;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.Predicate;
import dev.travertine.vector.TypeKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MergeTreeTableTest {
  @TempDir Path dir;

  static TableDefinition def(Map<String, String> settings) {
    TableSchema schema = new TableSchema(List.of(
        new Column("id", DataType.of(TypeKind.BIGINT), false),
        new Column("grp", DataType.of(TypeKind.INTEGER), true),
        new Column("name", DataType.varchar(-1), true)));
    return new TableDefinition("t", schema, List.of("id"), new PartitionExpression("intDiv", "grp", 10),
        List.of(), settings, List.of());
  }

  @Test
  void insertFlushMergeScanAndReopen() throws Exception {
    EngineContext ctx = EngineTestSupport.manualContext();
    try (Database db = Database.open(dir, ctx)) {
      db.createTable(def(Map.of("index_granularity", "1000", "min_insert_rows_for_direct_part", "1000")), false);
      MergeTreeTable t = db.table("T");
      // Small inserts land in the buffer; large ones become parts.
      for (int i = 0; i < 5; i++) {
        try (Inserter ins = t.newInserter(1 << 20)) {
          ins.add(new Object[] {(long) (100 - i), i * 7 % 30, "row" + i});
          ins.commit();
        }
      }
      assertEquals(5, t.bufferedRows());
      assertEquals(0, t.activeParts().size());
      assertEquals(5, EngineTestSupport.scan(t, null, false, 1).size());
      try (Inserter ins = t.newInserter(1 << 20)) {
        for (int i = 0; i < 20000; i++) {
          ins.add(new Object[] {(long) i, i % 30, i % 3 == 0 ? null : "n" + i});
        }
        ins.commit();
      }
      assertEquals(3, t.activeParts().size(), "one part per partition");
      t.flush();
      assertEquals(0, t.bufferedRows());
      assertEquals(20005, EngineTestSupport.scan(t, null, false, 2).size());
      t.optimize(true);
      assertEquals(3, t.activeParts().size());
      List<Object[]> ordered = EngineTestSupport.scan(t, null, true, 1);
      for (int i = 1; i < ordered.size(); i++) {
        assertTrue((Long) ordered.get(i - 1)[0] <= (Long) ordered.get(i)[0], "ordered by id");
      }
      // Point query: one partition, few granules.
      Predicate p = new Predicate.And(List.of(new Predicate.Compare(0, Predicate.Op.EQ, 12344L),
          new Predicate.Compare(1, Predicate.Op.EQ, 14L)));
      ScanPlan plan = ScanPlan.plan(t.snapshot(), p.bind(t.definition().schema()), true);
      assertEquals(1, plan.selectedParts());
      assertTrue(plan.selectedGranules() <= 2, plan.describe());
      List<Object[]> hit = EngineTestSupport.scan(t, p, false, 1);
      assertEquals(1, hit.size());
      assertEquals("n12344", hit.get(0)[2]);
      assertEquals(6667, EngineTestSupport.scan(t, new Predicate.IsNull(2, false), false, 2).size());
    }
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      assertEquals(20005, EngineTestSupport.scan(db.table("t"), null, false, 2).size());
      assertThrows(IllegalArgumentException.class, () -> db.createTable(def(Map.of()), false));
      db.dropTable("t", false);
      assertEquals(0, db.tables().size());
    }
  }

  /** Small parts get small compression chunks (ORC's reader allocates one per stream read); merged parts larger ones. */
  @Test
  void compressionChunksFollowThePartSize() throws Exception {
    assertEquals(4096, dev.travertine.mergetree.part.OrcSupport.compressionBufferSize(0));
    assertEquals(4096, dev.travertine.mergetree.part.OrcSupport.compressionBufferSize(10));
    assertEquals(8192, dev.travertine.mergetree.part.OrcSupport.compressionBufferSize(300));
    assertEquals(65536, dev.travertine.mergetree.part.OrcSupport.compressionBufferSize(4096));
    assertEquals(65536, dev.travertine.mergetree.part.OrcSupport.compressionBufferSize(10_000_000));
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      db.createTable(def(Map.of("min_insert_rows_for_direct_part", "1")), false);
      MergeTreeTable t = db.table("t");
      for (int round = 0; round < 2; round++) {
        try (Inserter ins = t.newInserter(1 << 20)) {
          for (int i = 0; i < 3000; i++) {
            ins.add(new Object[] {(long) (round * 3000 + i), 1, "r" + i});
          }
          ins.commit();
        }
      }
      assertEquals(2, t.activeParts().size());
      try (TableSnapshot snap = t.snapshot()) {
        for (var p : snap.parts()) {
          try (var r = p.openReader()) {
            assertEquals(65536, r.getCompressionSize(), "3,000 rows: 48,000 bytes, rounded up");
          }
        }
      }
      try (Inserter ins = t.newInserter(1 << 20)) {
        ins.add(new Object[] {100_000L, 2, "small"});
        ins.commit();
      }
      try (TableSnapshot snap = t.snapshot()) {
        var small = snap.parts().stream().filter(p -> p.info().rows() == 1).findFirst().orElseThrow();
        try (var r = small.openReader()) {
          assertEquals(4096, r.getCompressionSize());
        }
      }
      assertEquals(6001, EngineTestSupport.scan(t, null, false, 1).size());
    }
  }

  @Test
  void secondOpenOfADirectoryFails() throws Exception {
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      var e = assertThrows(java.io.IOException.class, () -> Database.open(dir, EngineTestSupport.manualContext()));
      assertTrue(e.getMessage().contains("in use"), e.getMessage());
    }
  }
}
