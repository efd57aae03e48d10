package dev.travertine.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.mergetree.merge.MergeSelector;
import dev.travertine.mergetree.part.PartInfo;
import dev.travertine.mergetree.scan.ScanRequest;
import dev.travertine.mergetree.scan.TableScanner;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.vector.Batch;
import dev.travertine.vector.Predicate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MergeAndSnapshotTest {
  @TempDir Path dir;

  private static TableDefinition def() {
    return EngineTestSupport.keyedTable("m");
  }

  @Test
  void mergeKeepsEveryRowSortedAndStable() throws Exception {
    Random rnd = new Random(42);
    List<Object[]> expected = new ArrayList<>();
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      db.createTable(def(), false);
      MergeTreeTable t = db.table("m");
      long seq = 0;
      for (int part = 0; part < 7; part++) {
        try (Inserter ins = t.newInserter(1 << 20)) {
          int n = 1 + rnd.nextInt(3000);
          for (int i = 0; i < n; i++) {
            Integer k = rnd.nextInt(10) == 0 ? null : rnd.nextInt(500);
            Object[] row = {k, seq++, rnd.nextBoolean() ? null : "s" + rnd.nextInt(100)};
            ins.add(row);
            expected.add(row);
          }
          ins.commit();
        }
      }
      assertEquals(7, t.activeParts().size());
      t.optimize(true);
      assertEquals(1, t.activeParts().size());
      assertEquals(1, t.activeParts().get(0).level());
      // Expected order: by k (NULLS LAST), equal keys in insertion order (seq).
      expected.sort(Comparator.comparing((Object[] r) -> (Integer) r[0],
          Comparator.nullsLast(Comparator.naturalOrder())).thenComparing(r -> (Long) r[1]));
      List<Object[]> got = EngineTestSupport.scan(t, null, false, 1);
      assertEquals(expected.size(), got.size());
      for (int i = 0; i < got.size(); i++) {
        assertEquals(expected.get(i)[1], got.get(i)[1], "row " + i);
        assertEquals(expected.get(i)[2], got.get(i)[2], "row " + i);
      }
    }
  }

  @Test
  void snapshotKeepsReplacedPartsReadableUntilClosed() throws Exception {
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      TableDefinition d = def();
      java.util.Map<String, String> settings = new java.util.LinkedHashMap<>(d.settings());
      settings.put("old_parts_lifetime", "0"); // deleted as soon as nothing reads them (AttachedTableTest: later)
      db.createTable(new TableDefinition(d.name(), d.schema(), d.orderBy(), d.partitionBy(), d.primaryKey(), settings,
          d.indexes()), false);
      MergeTreeTable t = db.table("m");
      for (int part = 0; part < 3; part++) {
        try (Inserter ins = t.newInserter(1 << 20)) {
          for (int i = 0; i < 100; i++) {
            ins.add(new Object[] {i, (long) part, "p" + part});
          }
          ins.commit();
        }
      }
      List<PartInfo> before = t.activeParts();
      TableSnapshot snap = t.snapshot();
      t.optimize(true);
      assertEquals(1, t.activeParts().size());
      Path parts = dir.resolve("tables").resolve(t.id()).resolve("parts");
      for (PartInfo p : before) {
        assertTrue(Files.exists(parts.resolve(p.name() + ".orc")), "held by the snapshot: " + p.name());
      }
      // The old snapshot still reads the old parts: 300 rows.
      int[] cols = {0, 1, 2};
      long rows = 0;
      try (TableScanner s = TableScanner.open(snap, new ScanRequest(cols, null, -1, false, 2, 100, true),
          t.context())) {
        Batch b;
        while ((b = s.next()) != null) {
          rows += b.size();
        }
      }
      assertEquals(300, rows);
      for (PartInfo p : before) {
        assertFalse(Files.exists(parts.resolve(p.name() + ".orc")), "deleted after release: " + p.name());
      }
      try (Stream<Path> files = Files.list(parts)) {
        assertEquals(1, files.count());
      }
    }
  }

  @Test
  void granulePruningReadsOnlySelectedGranules() throws Exception {
    try (Database db = Database.open(dir, EngineTestSupport.manualContext())) {
      db.createTable(def(), false);
      MergeTreeTable t = db.table("m");
      try (Inserter ins = t.newInserter(1 << 20)) {
        for (int i = 0; i < 100_000; i++) {
          ins.add(new Object[] {i, (long) i, null});
        }
        ins.commit();
      }
      EngineEvents ev = db.events();
      long before = ev.get(EngineEvents.SELECTED_ROWS);
      List<Object[]> hit = EngineTestSupport.scan(t, new Predicate.Compare(0, Predicate.Op.EQ, 54321L), false, 1);
      assertEquals(1, hit.size());
      long read = ev.get(EngineEvents.SELECTED_ROWS) - before;
      assertTrue(read > 0 && read <= 1024, "read " + read + " rows for a point query");
      before = ev.get(EngineEvents.SELECTED_ROWS);
      assertEquals(2048, EngineTestSupport.scan(t, new Predicate.And(List.of(
          new Predicate.Compare(0, Predicate.Op.GE, 10240L), new Predicate.Compare(0, Predicate.Op.LT, 12288L))),
          false, 2).size());
      read = ev.get(EngineEvents.SELECTED_ROWS) - before;
      assertEquals(2048, read, "two whole granules");
    }
  }

  @Test
  void selectorPrefersBalancedSmallParts() {
    List<MergeSelector.Candidate> parts = new ArrayList<>();
    parts.add(new MergeSelector.Candidate("big", 1_000_000, 1));
    for (int i = 0; i < 4; i++) {
      parts.add(new MergeSelector.Candidate("small" + i, 1000, 1));
    }
    List<MergeSelector.Candidate> sel = MergeSelector.select(parts, 10, Long.MAX_VALUE, 5);
    assertEquals(List.of("small0", "small1", "small2", "small3"), sel.stream().map(MergeSelector.Candidate::name).toList());
    assertTrue(MergeSelector.select(parts.subList(0, 2), 10, Long.MAX_VALUE, 5).isEmpty(),
        "a tiny part is not merged into a huge one");
    assertTrue(MergeSelector.select(parts.subList(1, 2), 10, Long.MAX_VALUE, 5).isEmpty());
  }
}
