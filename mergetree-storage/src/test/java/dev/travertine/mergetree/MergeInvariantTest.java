package dev.travertine.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.mergetree.merge.MergeSelector;
import dev.travertine.mergetree.part.PartInfo;
import dev.travertine.mergetree.schema.TableDefinition;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Active parts of a partition cover disjoint block ranges, and merges take only neighbours. */
class MergeInvariantTest {
  @TempDir Path dir;

  @Test
  void aBusyPartIsABarrierForTheSelector() {
    List<MergeSelector.Candidate> parts = List.of(
        new MergeSelector.Candidate("a", 1000, 1),
        new MergeSelector.Candidate("b", 1000, 1, true),
        new MergeSelector.Candidate("c", 1000, 1));
    assertTrue(MergeSelector.select(parts, 10, Long.MAX_VALUE, 5).isEmpty(),
        "a and c are not neighbours while b is merging");
    List<MergeSelector.Candidate> more = List.of(
        new MergeSelector.Candidate("a", 1000, 1),
        new MergeSelector.Candidate("b", 1000, 1, true),
        new MergeSelector.Candidate("c", 1000, 1),
        new MergeSelector.Candidate("d", 1000, 1));
    assertEquals(List.of("c", "d"),
        MergeSelector.select(more, 10, Long.MAX_VALUE, 5).stream().map(MergeSelector.Candidate::name).toList());
  }

  /**
   * The failure seen after a bulk load: while two small middle parts merge, the two big parts
   * around them look like a balanced pair to the selector. Merging them would cover the middle
   * merge's block range twice.
   */
  @Test
  void aMergeWhileAnotherRunsTakesOnlyNeighbours() throws Exception {
    ManualScheduler bg = new ManualScheduler();
    EngineContext ctx = new EngineContext(Clock.systemUTC(), bg, Executors.newCachedThreadPool(), new EngineEvents(),
        true);
    Random rnd = new Random(7);
    try (Database db = Database.open(dir, ctx)) {
      db.createTable(def(), false);
      MergeTreeTable t = db.table("m");
      long rows = 0;
      rows += insert(t, rnd, 20_000); // block 1: big
      assertEquals(0, bg.pending(), "a small part is not merged into a big one");
      rows += insert(t, rnd, 20); // block 2
      rows += insert(t, rnd, 20); // block 3: blocks 2 and 3 are chosen now and wait in the queue
      assertEquals(1, bg.pending());
      rows += insert(t, rnd, 20_000); // block 4: big, balanced against block 1, but not a neighbour
      assertEquals(1, bg.pending(), "nothing else may be chosen while blocks 2-3 merge");
      assertDisjoint(t);
      while (bg.runOne()) {
        assertDisjoint(t);
      }
      t.optimize(true);
      assertDisjoint(t);
      List<PartInfo> parts = t.activeParts();
      assertEquals(1, parts.size());
      assertEquals(1, parts.get(0).minBlock());
      assertEquals(4, parts.get(0).maxBlock());
      assertEquals(rows, parts.get(0).rows());
      assertEquals(rows, EngineTestSupport.scan(t, null, false, 2).size());
    }
  }

  /**
   * OPTIMIZE FINAL and a background merge chosen after OPTIMIZE waited for merges, over the same
   * parts: OPTIMIZE must not take parts the merge holds (both would write the same part name, and
   * the loser's clean-up deleted the winner's file). It waits for that merge and then finds
   * nothing left to do.
   */
  @Test
  void optimizeFinalLeavesPartsABackgroundMergeHolds() throws Exception {
    ManualScheduler bg = new ManualScheduler();
    java.util.concurrent.ExecutorService caller = Executors.newSingleThreadExecutor();
    EngineContext ctx = new EngineContext(Clock.systemUTC(), bg, Executors.newCachedThreadPool(), new EngineEvents(),
        true);
    Random rnd = new Random(8);
    try (Database db = Database.open(dir, ctx)) {
      db.createTable(def(), false);
      MergeTreeTable t = db.table("m");
      long[] rows = {insert(t, rnd, 20)}; // block 1
      assertEquals(0, bg.pending());
      java.util.concurrent.atomic.AtomicBoolean fired = new java.util.concurrent.atomic.AtomicBoolean();
      t.merger.beforeOptimizeChoice = () -> {
        if (fired.compareAndSet(false, true)) {
          try {
            rows[0] += insert(t, rnd, 20); // block 2: blocks 1 and 2 are chosen for a merge and wait in the queue
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          assertEquals(1, bg.pending(), "a background merge holds blocks 1-2");
        }
      };
      java.util.concurrent.Future<?> optimize = caller.submit(() -> {
        t.optimize(true);
        return null;
      });
      int merges = 0;
      while (!optimize.isDone()) {
        if (bg.runOne()) {
          merges++;
        } else {
          Thread.sleep(5);
        }
      }
      optimize.get();
      assertTrue(fired.get());
      assertEquals(1, merges, "the background merge ran");
      List<PartInfo> parts = t.activeParts();
      assertEquals(1, parts.size(), parts.toString());
      assertEquals(1, parts.get(0).minBlock());
      assertEquals(2, parts.get(0).maxBlock());
      assertEquals(1, parts.get(0).level(), "merged once, by the background merge");
      assertEquals(rows[0], EngineTestSupport.scan(t, null, false, 2).size(), "the part's file is there and whole");
    } finally {
      caller.shutdownNow();
    }
  }

  private static void assertDisjoint(MergeTreeTable t) {
    List<PartInfo> parts = t.activeParts();
    for (int i = 0; i < parts.size(); i++) {
      for (int j = i + 1; j < parts.size(); j++) {
        assertFalse(parts.get(i).overlaps(parts.get(j)), parts.get(i).name() + " overlaps " + parts.get(j).name());
      }
    }
  }

  private static long insert(MergeTreeTable t, Random rnd, int n) throws Exception {
    try (Inserter ins = t.newInserter(1 << 20)) {
      for (int i = 0; i < n; i++) {
        ins.add(new Object[] {rnd.nextInt(), rnd.nextLong(), Long.toHexString(rnd.nextLong())});
      }
      ins.commit();
    }
    return n;
  }

  private static TableDefinition def() {
    return EngineTestSupport.keyedTable("m");
  }
}
